#!/usr/bin/env python3
"""Vector writes and loads beside the HNSW graph builder (bench/RESULTS.md, "Writes and loads
beside the graph builder"): ImportTable of --items clustered vectors into a server in
approximate mode (the import's rate), SIGTERM while the graph is built, a restart, and SIGTERM
--after seconds into its load (how long each stop takes to exit).

    bench/vector-load.py --bin build/dynamod [--items 60000] [--dims 128] [--after 2]
"""
import argparse
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "integration"))
import dynamo_helpers as h  # noqa: E402

spec = importlib.util.spec_from_file_location("vector_search", os.path.join(HERE, "vector-search.py"))
vector_search = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vector_search)


def stop_seconds(server):
    started = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(timeout=300)
    return time.monotonic() - started


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default="build/dynamod")
    p.add_argument("--items", type=int, default=60000)
    p.add_argument("--dims", type=int, default=128)
    p.add_argument("--after", type=float, default=2.0)
    args = p.parse_args()
    args.data, args.clusters, args.noise = "clustered", 1000, 2.0
    data_dir = tempfile.mkdtemp(prefix="vector-load-")
    out = {"items": args.items, "dims": args.dims}
    try:
        server = h.DynamodProcess(args.bin, args=["--vector-search", "approximate"], data_dir=data_dir)
        server.start(timeout=60)
        out["import_items_per_s"] = args.items / vector_search.import_vectors(args, server.endpoint, data_dir)
        time.sleep(1)
        out["stop_while_building_s"] = stop_seconds(server)
        server = h.DynamodProcess(args.bin, args=["--vector-search", "approximate"], data_dir=data_dir)
        server.start(timeout=60)
        time.sleep(args.after)
        out["stop_while_loading_s"] = stop_seconds(server)
    finally:
        subprocess.run(["rm", "-rf", data_dir], check=False)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
