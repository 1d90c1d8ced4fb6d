"""Big requests run on the heavy lane (server/heavy_lane), not on the I/O threads: a
request whose body is over 1 MB, chunked, or compressed over 1 KB takes one of a few slots
before its body is read, and is read, decoded and answered on the lane's own thread. Why
it exists: four senders of costly bodies used to keep both I/O threads of a 2-core machine
busy, and the small requests of every connection sharing those threads waited
(bench/hostile.sh). These tests check that a small request on another connection is
answered while big bodies are being decoded, that one connection's answers keep their
order, and that at most the lane's slots of big bodies are read at once.

Each test starts its own server with one I/O thread, so that without the lane a body being
decoded would hold up every other connection.
"""
import gzip
import json
import select
import socket
import urllib.parse

import botocore.auth
import botocore.awsrequest
import botocore.credentials
import pytest

import dynamo_helpers as h
import report_helpers as r
from test_http_framing import ResponseReader

pytestmark = pytest.mark.needs_own_server

TABLE = "heavy"


def signed(endpoint, op, data, extra=(), chunked=False):
    """The bytes of one signed request carrying `data` (bytes) as its body."""
    url = urllib.parse.urlsplit(endpoint)
    headers = {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op}
    headers.update(extra)
    req = botocore.awsrequest.AWSRequest(method="POST", url="%s://%s/" % (url.scheme, url.netloc), data=data,
                                         headers=headers)
    botocore.auth.SigV4Auth(botocore.credentials.Credentials(h.DUMMY_KEY, h.DUMMY_SECRET), "dynamodb",
                            h.REGION).add_auth(req)
    lines = ["POST / HTTP/1.1", "Host: %s" % url.netloc]
    lines += ["%s: %s" % (k, v) for k, v in req.headers.items() if k.lower() != "host"]
    if not chunked:
        return ("\r\n".join(lines + ["Content-Length: %d" % len(data)]) + "\r\n\r\n").encode() + data
    pieces = [data[i:i + 65536] for i in range(0, len(data), 65536)]
    body = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in pieces) + b"0\r\n\r\n"
    return ("\r\n".join(lines + ["Transfer-Encoding: chunked"]) + "\r\n\r\n").encode() + body


def json_bytes(body):
    return json.dumps(body).encode()


def get_item(key):
    return json_bytes({"TableName": TABLE, "Key": {"pk": {"S": key}}})


def slow_put():
    """A PutItem whose decoding takes the server a good fraction of a second (a list of
    1,000,000 NULLs, refused as too large only once decoded), gzip-compressed to about 14 KB
    so that it arrives whole, right behind the request before it."""
    text = '{"TableName":"%s","Item":{"pk":{"S":"slow"},"l":{"L":[%s]}}}' % (
        TABLE, ",".join(['{"NULL":true}'] * 10**6))
    return gzip.compress(text.encode(), 9)


def connect(endpoint):
    url = urllib.parse.urlsplit(endpoint)
    sock = socket.create_connection((url.hostname, url.port), timeout=60)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def heavy_metrics(endpoint):
    _, metrics = r.get_metrics(endpoint)
    return {name: value for name, _, value in metrics.samples if name.startswith("dynamod_heavy_")}


@pytest.fixture
def server(launch_dynamod):
    """A server with one I/O thread (and so one lane thread), a table and one item."""
    proc = launch_dynamod(args=["--threads", "1"], in_memory=True)
    client = h.make_client(proc.endpoint)
    client.create_table(TableName=TABLE, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                        BillingMode="PAY_PER_REQUEST")
    client.put_item(TableName=TABLE, Item={"pk": {"S": "k"}, "v": {"S": "small"}})
    return proc


def is_sentinel(status, body):
    return status == 200 and json.loads(body)["Item"]["v"] == {"S": "small"}


# While three slow bodies are being decoded, a GetItem on another connection is answered
# before any of them. Each slow body follows a GetItem on its connection, sent together, and
# the GetItem on the other connection goes out once those have been answered: by then each
# slow body has arrived, right behind its GetItem, and with no lane the one I/O thread would
# be decoding one of them until it refused it.
def test_small_request_answered_while_big_bodies_decode(server):
    endpoint = server.endpoint
    slow = signed(endpoint, "PutItem", slow_put(), {"Content-Encoding": "gzip"})
    small = signed(endpoint, "GetItem", get_item("k"))
    heavy = [connect(endpoint) for _ in range(3)]
    other = connect(endpoint)
    try:
        readers = [ResponseReader(s) for s in heavy]
        for sock, reader in zip(heavy, readers):
            sock.sendall(small + slow)
            assert is_sentinel(*_status_body(reader.read()))
        other.sendall(small)
        assert is_sentinel(*_status_body(ResponseReader(other).read()))
        answered, _, _ = select.select(heavy, [], [], 0)
        assert answered == [], "a slow body was answered before the GetItem on another connection"
        for reader in readers:
            status, _, body = reader.read()
            assert status == 400, body
            assert json.loads(body)["__type"].endswith("ValidationException"), body
    finally:
        for sock in heavy + [other]:
            sock.close()
    assert heavy_metrics(endpoint)["dynamod_heavy_requests_total"] == 3


def _status_body(answer):
    status, _, body = answer
    return status, body


# One keep-alive connection's answers keep the order of its requests, big or small, with
# everything sent at once: a BatchWriteItem of 1.2 MB (a big body, on the lane) writes an
# item that the GetItem right behind it must see; a slow body's refusal comes before the
# GetItem behind it; a chunked body (on the lane too) is read whole.
def test_answers_keep_their_order_on_one_connection(server):
    endpoint = server.endpoint
    items = [{"PutRequest": {"Item": {"pk": {"S": "big%d" % i}, "pad": {"S": "x" * 390_000}}}} for i in range(3)]
    batch = json_bytes({"RequestItems": {TABLE: items}})
    assert len(batch) > 1024 * 1024
    requests = [
        signed(endpoint, "BatchWriteItem", batch),
        signed(endpoint, "GetItem", get_item("big2")),
        signed(endpoint, "PutItem", slow_put(), {"Content-Encoding": "gzip"}),
        signed(endpoint, "GetItem", get_item("k")),
        signed(endpoint, "PutItem", json_bytes({"TableName": TABLE, "Item": {"pk": {"S": "c"}, "v": {"S": "chunked"}}}),
               chunked=True),
        signed(endpoint, "GetItem", get_item("c")),
    ]
    with connect(endpoint) as sock:
        sock.sendall(b"".join(requests))
        reader = ResponseReader(sock)
        answers = [reader.read() for _ in requests]
    statuses = [status for status, _, _ in answers]
    assert statuses == [200, 200, 400, 200, 200, 200], [(s, b[:200]) for s, _, b in answers]
    assert json.loads(answers[0][2])["UnprocessedItems"] == {}
    assert len(json.loads(answers[1][2])["Item"]["pad"]["S"]) == 390_000
    assert is_sentinel(answers[3][0], answers[3][2])
    assert json.loads(answers[5][2])["Item"]["v"] == {"S": "chunked"}
    assert heavy_metrics(endpoint)["dynamod_heavy_requests_total"] == 3


# At most the lane's slots of big bodies are read at once; a further big request waits,
# its body unread, while small requests are still answered, and goes on when a slot frees.
# The bodies are sent in two halves, so the first ones hold their slots until told.
def test_big_bodies_beyond_the_slots_wait(server):
    endpoint = server.endpoint
    slots = int(heavy_metrics(endpoint)["dynamod_heavy_slots"])
    data = json_bytes({"TableName": TABLE, "Key": {"pk": {"S": "k"}}, "Pad": "x" * (2 * 1024 * 1024)})
    request = signed(endpoint, "GetItem", data)
    half = len(request) - len(data) // 2
    # The last sender's header and the start of its body: the rest would not fit in the
    # socket buffers while the server does not read it.
    head = len(request) - len(data) + 100
    senders = [connect(endpoint) for _ in range(slots + 1)]
    try:
        for sock in senders[:slots]:
            sock.sendall(request[:half])
        h.wait_for_count(lambda: heavy_metrics(endpoint)["dynamod_heavy_slots_taken"], slots, timeout=30)
        senders[slots].sendall(request[:head])
        h.wait_for_count(lambda: heavy_metrics(endpoint)["dynamod_heavy_waiting"], 1, timeout=30)
        assert h.raw_request(endpoint, "GetItem", {"TableName": TABLE, "Key": {"pk": {"S": "k"}}}).status == 200
        for sock in senders[:slots]:
            sock.sendall(request[half:])
        senders[slots].sendall(request[head:])
        for sock in senders:
            assert is_sentinel(*_status_body(ResponseReader(sock).read()))
    finally:
        for sock in senders:
            sock.close()
    # A slot is given back just after its answer is written.
    h.wait_for_count(lambda: heavy_metrics(endpoint)["dynamod_heavy_slots_taken"], 0, timeout=30)
    metrics = heavy_metrics(endpoint)
    assert metrics["dynamod_heavy_waits_total"] == 1
    assert metrics["dynamod_heavy_waiting"] == 0
