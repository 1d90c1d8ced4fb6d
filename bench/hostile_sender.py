#!/usr/bin/env python3
"""Sends the most expensive hostile bodies dynamod is known to meet, in a loop, on N
keep-alive connections (one process each), for --duration seconds; prints "ready" to
stderr when it starts sending, and at the end how its requests were answered. For
bench/hostile.sh.

The bodies (each within the 16 MB limit, after inflation):
  deep-array   10^6 nested arrays in a member GetItem does not know (2 MB)
  deep-L       an item attribute nested 10^6 levels of L (7 MB)
  wide-item    a PutItem of 600,000 attributes in descending name order (15 MB)
  wide-list    an item attribute that is a list of 1,000,000 NULLs (14 MB)
  wide-names   a Query with 1,000,000 ExpressionAttributeNames, none used (13 MB)
  gzip-bomb    64 MB of '[' gzip-compressed (65 KB): inflated until 16 MB, then refused
  gzip-wide    the wide-item body gzip-compressed
"""
import argparse
import gzip
import hashlib
import hmac
import json
import multiprocessing
import socket
import sys
import time
from datetime import datetime, timezone


def sign(host, target, body, extra):
    """SigV4 headers (dynamod without --credentials checks only their form)."""
    now = datetime.now(timezone.utc)
    amz_date, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
    headers = {"content-type": "application/x-amz-json-1.0", "host": host, "x-amz-date": amz_date,
               "x-amz-target": target}
    headers.update(extra)
    names = sorted(headers)
    canonical = "\n".join(["POST", "/", "", "".join("%s:%s\n" % (n, headers[n]) for n in names), ";".join(names),
                           hashlib.sha256(body).hexdigest()])
    scope = "%s/us-east-1/dynamodb/aws4_request" % day
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + "bench/secret/key").encode()
    for part in (day, "us-east-1", "dynamodb", "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    headers["authorization"] = "AWS4-HMAC-SHA256 Credential=AKIDBENCHMARK/%s, SignedHeaders=%s, Signature=%s" % (
        scope, ";".join(names), signature)
    return headers


def bodies(table):
    t = json.dumps(table)
    wide_item = ("{" + ",".join('"k%07d":{"NULL":true}' % i for i in range(600_000, 0, -1)) + ',"pk":{"S":"x"}}')
    out = {
        "deep-array": '{"TableName":%s,"Key":{"pk":{"S":"k1"}},"Junk":%s}' % (t, "[" * 10**6 + "]" * 10**6),
        "deep-L": '{"TableName":%s,"Item":{"pk":{"S":"x"},"d":%s}}' % (t, '{"L":[' * 10**6 + "1" + "]}" * 10**6),
        "wide-item": '{"TableName":%s,"Item":%s}' % (t, wide_item),
        "wide-list": '{"TableName":%s,"Item":{"pk":{"S":"x"},"l":{"L":[%s]}}}' % (t, ",".join(['{"NULL":true}'] * 10**6)),
        "wide-names": '{"TableName":%s,"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"x"}},'
                      '"ExpressionAttributeNames":{%s}}' % (t, ",".join('"#n%d":"a"' % i for i in range(10**6))),
    }
    targets = {"deep-array": "GetItem", "deep-L": "PutItem", "wide-item": "PutItem", "wide-list": "PutItem",
               "wide-names": "Query"}
    result = [(name, targets[name], text.encode(), {}) for name, text in out.items()]
    result.append(("gzip-bomb", "GetItem", gzip.compress(b"[" * (64 << 20), 9), {"content-encoding": "gzip"}))
    result.append(("gzip-wide", "PutItem", gzip.compress(out["wide-item"].encode(), 6), {"content-encoding": "gzip"}))
    return result


def read_response(sock, buf):
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            length = int(v)
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        rest += chunk
    return status, rest[length:]


def worker(args, prepared, counts):
    deadline = time.monotonic() + args.duration
    sock = None
    buf = b""
    i = 0
    while time.monotonic() < deadline:
        name, request = prepared[i % len(prepared)]
        i += 1
        try:
            if sock is None:
                sock = socket.create_connection((args.host, args.port))
                buf = b""
            sock.sendall(request)
            status, buf = read_response(sock, buf)
            counts[name + " " + str(status)] = counts.get(name + " " + str(status), 0) + 1
        except OSError:
            counts[name + " no answer"] = counts.get(name + " no answer", 0) + 1
            sock = None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--conns", type=int, default=4)
    p.add_argument("--duration", type=float, default=10)
    p.add_argument("--table", default="bench")
    args = p.parse_args()
    host = "%s:%d" % (args.host, args.port)
    prepared = []
    for name, op, body, extra in bodies(args.table):
        headers = sign(host, "DynamoDB_20120810." + op, body, extra)
        head = "POST / HTTP/1.1\r\n" + "".join("%s: %s\r\n" % kv for kv in headers.items())
        head += "content-length: %d\r\n\r\n" % len(body)
        prepared.append((name, head.encode() + body))
    print("ready", file=sys.stderr, flush=True)  # bench/hostile.sh starts its GetItem run now
    with multiprocessing.Manager() as manager:
        counts = [manager.dict() for _ in range(args.conns)]
        procs = [multiprocessing.Process(target=worker, args=(args, prepared[i:] + prepared[:i], counts[i]))
                 for i in range(args.conns)]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join()
        total = {}
        for c in counts:
            for k, v in c.items():
                total[k] = total.get(k, 0) + v
    print(json.dumps(dict(sorted(total.items()))))


if __name__ == "__main__":
    main()
