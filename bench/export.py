#!/usr/bin/env python3
"""Export benchmark: items per second exported by ExportTableToPointInTime, and how long other
writers wait meanwhile (PutItem p50/p99 before and during the export), durable.

    bench/export.py --bin build/dynamod [--items 1000000] [--conns 4] [--format DYNAMODB_JSON|ION]

Starts dynamod on a temporary data directory (durable, the default) with a temporary
--s3-dir, loads --items items of about 200 bytes (BatchWriteItem of 25 over --conns
connections), turns point-in-time recovery on, then:
  1. PutItem of new items over --conns connections for 3 seconds: the baseline latencies;
  2. the same PutItems while one FULL export runs, from its request until DescribeExport
     says COMPLETED: items per second exported, and the PutItem latencies meanwhile;
  3. dynamod's peak RSS (VmHWM) and the size of the export's files.
The client is Python (bench/vector-search.py's signed keep-alive connections): it shares the
machine's cores with the server, so the latencies include the client; compare the two rows.
"""
import argparse
import importlib.util
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "integration"))
import dynamo_helpers as h  # noqa: E402

_spec = importlib.util.spec_from_file_location("vector_search_bench", os.path.join(HERE, "vector-search.py"))
vs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vs)

TABLE = "export_bench"


def item(i):
    # ~200 bytes: the key, a 150-character string, a number, a small map.
    return {"pk": {"S": "item-%09d" % i}, "payload": {"S": ("%09d" % i) * 16 + "abcdef"},
            "n": {"N": str(i)}, "m": {"M": {"a": {"S": "x"}, "b": {"N": "1"}}}}


def vm_hwm_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def load(endpoint, conns, count):
    def work(client, index):
        batch = []
        for i in range(index, count, conns):
            batch.append({"PutRequest": {"Item": item(i)}})
            if len(batch) == 25:
                client.call("BatchWriteItem", {"RequestItems": {TABLE: batch}})
                batch = []
        if batch:
            client.call("BatchWriteItem", {"RequestItems": {TABLE: batch}})
    return vs.run_parallel(conns, endpoint, work)


def puts_until(endpoint, conns, done, first):
    """PutItem latencies (ms) over `conns` connections until done() is true."""
    latencies = []
    lock = threading.Lock()

    def work(client, index):
        rng = random.Random(index)
        mine = []
        i = first + index
        while not done():
            t = time.perf_counter()
            client.call("PutItem", {"TableName": TABLE, "Item": item(i + rng.randrange(1 << 30))})
            mine.append((time.perf_counter() - t) * 1000)
            i += conns
        with lock:
            latencies.extend(mine)
    vs.run_parallel(conns, endpoint, work)
    latencies.sort()
    if not latencies:
        return {"puts": 0}
    return {"puts": len(latencies), "p50_ms": round(latencies[len(latencies) // 2], 2),
            "p99_ms": round(latencies[int(len(latencies) * 0.99)], 2), "max_ms": round(latencies[-1], 2)}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default="build/dynamod")
    p.add_argument("--items", type=int, default=1000000)
    p.add_argument("--conns", type=int, default=4)
    p.add_argument("--format", default="DYNAMODB_JSON")
    args = p.parse_args()
    data_dir = tempfile.mkdtemp(prefix="dynamod-export-bench-")
    s3_dir = os.path.join(data_dir, "s3")
    os.makedirs(os.path.join(s3_dir, "bench"))
    server = h.DynamodProcess(args.bin, data_dir=os.path.join(data_dir, "db"), args=["--s3-dir", s3_dir])
    server.start()
    try:
        client = h.make_client(server.endpoint)
        client.create_table(TableName=TABLE, BillingMode="PAY_PER_REQUEST", **h.HASH_SCHEMA)
        loaded = load(server.endpoint, args.conns, args.items)
        client.update_continuous_backups(TableName=TABLE,
                                         PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
        table_arn = client.describe_table(TableName=TABLE)["Table"]["TableArn"]
        deadline = time.monotonic() + 3
        baseline = puts_until(server.endpoint, args.conns, lambda: time.monotonic() > deadline, args.items)

        status = {}

        def watch():
            while True:
                desc = client.describe_export(ExportArn=status["arn"])["ExportDescription"]
                if desc["ExportStatus"] != "IN_PROGRESS":
                    status["desc"] = desc
                    status["end"] = time.monotonic()
                    return
                time.sleep(0.01)
        started = time.monotonic()
        status["arn"] = client.export_table_to_point_in_time(TableArn=table_arn, S3Bucket="bench",
                                                             ExportFormat=args.format)["ExportDescription"]["ExportArn"]
        watcher = threading.Thread(target=watch)
        watcher.start()
        during = puts_until(server.endpoint, args.conns, lambda: "end" in status, args.items * 2)
        watcher.join()
        desc = status["desc"]
        seconds = status["end"] - started
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(s3_dir) for f in fs)
        print(json.dumps({
            "items": args.items, "format": args.format, "load_seconds": round(loaded, 1),
            "export_status": desc["ExportStatus"], "exported_items": desc.get("ItemCount"),
            "export_seconds": round(seconds, 2),
            "exported_items_per_second": round((desc.get("ItemCount") or 0) / seconds),
            "export_bytes": size, "billed_size_bytes": desc.get("BilledSizeBytes"),
            "put_before_export": baseline, "put_during_export": during,
            "peak_rss_mb": round(vm_hwm_kb(server.proc.pid) / 1024, 1),
        }), flush=True)
    finally:
        server.stop()
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
