#!/usr/bin/env python3
"""Import benchmark: ImportTable of N items of about 200 bytes from the local bucket store, in
DYNAMODB_JSON, GZIP-compressed, into a durable dynamod (and with --in-memory), with one client
writing PutItem to another table meanwhile.

    bench/import.py --bin build/dynamod [--items 1000000] [--objects 10] [--in-memory]

Reports items per second imported (ImportTable's answer to COMPLETED, polled every 20 ms), the
server's peak RSS, and the PutItem latency (p50/p99/max) of the one client writing during the
import, beside the same client's latency with no import running: the import's items are sorted
in chunks and written by writer jobs of at most 2,048 items or 2 MB, which take turns with the
client's writes, so a PutItem waits at most about one job. Not a test: timings only.
"""
import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "integration"))
import dynamo_helpers as h  # noqa: E402


def write_objects(s3_dir, items, objects):
    per = (items + objects - 1) // objects
    n = 0
    for o in range(objects):
        lines = []
        for _ in range(min(per, items - n)):
            lines.append(json.dumps({"Item": {
                "pk": {"S": "user#%010d" % n}, "sk": {"N": str(n % 97)}, "name": {"S": "name-%08d" % n},
                "email": {"S": "someone.%08d@example.com" % n}, "score": {"N": str(n * 7 % 100000)},
                "payload": {"S": "x" * 80}}}, separators=(",", ":")))
            n += 1
        path = os.path.join(s3_dir, "bench", "data", "part-%04d.json.gz" % o)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with gzip.open(path, "wb", compresslevel=1) as f:
            f.write(("\n".join(lines) + "\n").encode())
    return n


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def put_latencies(client, table, stop, out):
    i = 0
    while not stop.is_set():
        t = time.perf_counter()
        client.put_item(TableName=table, Item={"pk": {"S": "w%d" % i}, "v": {"S": "x" * 150}})
        out.append((time.perf_counter() - t) * 1000)
        i += 1


def summary(ms):
    ms = sorted(ms)
    if not ms:
        return "none"
    return "n=%d p50=%.2f ms p99=%.2f ms max=%.2f ms" % (
        len(ms), statistics.median(ms), ms[int(len(ms) * 0.99) - 1 if len(ms) > 1 else 0], ms[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/dynamod")
    ap.add_argument("--items", type=int, default=1000000)
    ap.add_argument("--objects", type=int, default=10)
    ap.add_argument("--in-memory", action="store_true")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="dynamod-import-bench-")
    try:
        s3_dir = os.path.join(work, "s3")
        t = time.perf_counter()
        n = write_objects(s3_dir, args.items, args.objects)
        print("wrote %d items in %d gzip objects (%.1f s)" % (n, args.objects, time.perf_counter() - t))
        extra = ["--s3-dir", s3_dir]
        server = h.DynamodProcess(os.path.abspath(args.bin), args=extra, in_memory=args.in_memory,
                                  data_dir=None if args.in_memory else os.path.join(work, "data"))
        server.start()
        try:
            client = h.make_client(server.endpoint)
            client.create_table(TableName="writes", BillingMode="PAY_PER_REQUEST",
                                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
            quiet, stop = [], threading.Event()
            w = threading.Thread(target=put_latencies, args=(h.make_client(server.endpoint), "writes", stop, quiet))
            w.start()
            time.sleep(3)
            stop.set()
            w.join()
            during, stop = [], threading.Event()
            w = threading.Thread(target=put_latencies, args=(h.make_client(server.endpoint), "writes", stop, during))
            w.start()
            start = time.perf_counter()
            arn = client.import_table(
                S3BucketSource={"S3Bucket": "bench", "S3KeyPrefix": "data/"}, InputFormat="DYNAMODB_JSON",
                InputCompressionType="GZIP",
                TableCreationParameters={
                    "TableName": "imported", "BillingMode": "PAY_PER_REQUEST",
                    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                             {"AttributeName": "sk", "AttributeType": "N"}],
                    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                  {"AttributeName": "sk", "KeyType": "RANGE"}]})["ImportTableDescription"]["ImportArn"]
            while True:
                d = client.describe_import(ImportArn=arn)["ImportTableDescription"]
                if d["ImportStatus"] != "IN_PROGRESS":
                    break
                time.sleep(0.02)
            seconds = time.perf_counter() - start
            stop.set()
            w.join()
            print("import %s: %d items in %.2f s = %.0f items/s (%s, %d errors, %.1f MB of source)" % (
                d["ImportStatus"], d["ImportedItemCount"], seconds, d["ImportedItemCount"] / seconds,
                "in memory" if args.in_memory else "durable", d["ErrorCount"], d["ProcessedSizeBytes"] / 1e6))
            print("server peak RSS: %.0f MB" % (rss_kb(server.proc.pid) / 1024))
            print("PutItem, no import:     " + summary(quiet))
            print("PutItem, during import: " + summary(during))
        finally:
            server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
