#!/usr/bin/env python3
"""Vector search benchmark: dynamod's SearchVectors, side by side with the same table's
GetItem and UpdateItem and with a table of the same items without a vector index; or, with
--compare, approximate search (HNSW) against exact search over the same data.

    bench/vector-search.py --bin build/dynamod [--items 10000] [--dims 768] [--conns 16] [--seconds 10]
    bench/vector-search.py --compare --bin build/dynamod --items 100000 --dims 768
    bench/vector-search.py --compare --load import --items 1000000 --dims 128

--compare builds the table once on a temporary data directory with --vector-search approximate,
waits for the graph (the server idle and dynamod_vector_graph_pending 0), runs the searches,
restarts the server on the same directory with --vector-search exact (its load from LMDB timed
the same way) and runs the same searches: recall@10 of approximate against exact, p50/p99 of each on 1 and --conns
connections, the build rate, the start-up load and graph times, RSS and disk per vector.

Starts dynamod (in memory, and with --durable on a temporary data directory), then:
  1. build: BatchWriteItem of 25 items with unit vectors (--data), over --conns connections;
     vectors per second, and the RSS and data directory size per vector;
  2. SearchVectors, TopK 10, random queries, over 1 and over --conns connections: p50/p99;
  3. GetItem and UpdateItem (of an attribute the index does not project) on the vector table
     and on a table with the same items and no vector index, the same clients: the ratio shows
     what the vector index costs the table's own operations.
The client is Python (raw SigV4-signed HTTP/1.1 keep-alive): its own CPU shares the 2 cores,
so rates are client-bound and the latencies include the client; compare rows, not absolutes.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "integration"))
import dynamo_helpers as h  # noqa: E402


class Client:
    """One keep-alive connection sending signed requests."""

    def __init__(self, endpoint):
        import http.client
        import urllib.parse
        import botocore.auth
        import botocore.awsrequest
        import botocore.credentials
        self.url = urllib.parse.urlsplit(endpoint)
        self.conn = http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=60)
        self.signer = botocore.auth.SigV4Auth(botocore.credentials.Credentials(h.DUMMY_KEY, h.DUMMY_SECRET),
                                              "dynamodb", h.REGION)
        self.awsrequest = botocore.awsrequest

    def call(self, op, body):
        data = json.dumps(body).encode()
        req = self.awsrequest.AWSRequest(method="POST", url="http://%s/" % self.url.netloc, data=data, headers={
            "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op})
        self.signer.add_auth(req)
        self.conn.request("POST", "/", body=data, headers=dict(req.headers.items()))
        resp = self.conn.getresponse()
        answer = resp.read()
        if resp.status != 200:
            raise RuntimeError("%s: %d %s" % (op, resp.status, answer[:300]))
        return json.loads(answer)


class VectorSource:
    """The benchmark's vectors, unit length.

    random: isotropic Gaussian directions. They have no structure: every vector is nearly as
    far from a query as its nearest neighbours are, the worst case for any approximate index
    (plain hnswlib with dynamod's parameters finds the same low recall on them, bench/RESULTS.md).
    clustered: what embeddings look like, points around --clusters centres (a Gaussian mixture,
    each coordinate a centre's plus noise --noise times the centres' spread); queries come from
    the same mixture, as real queries are embedded by the same model as the data."""

    def __init__(self, args):
        self.dims = args.dims
        self.noise = args.noise
        rng = random.Random(99)
        self.centres = ([[rng.gauss(0, 1) for _ in range(args.dims)] for _ in range(args.clusters)]
                        if args.data == "clustered" else [])

    def vector(self, rng):
        if self.centres:
            centre = rng.choice(self.centres)
            v = [c + self.noise * rng.gauss(0, 1) for c in centre]
        else:
            v = [rng.gauss(0, 1) for _ in range(self.dims)]
        norm = sum(x * x for x in v) ** 0.5
        return [x / norm for x in v]


def attr(v):
    return {"L": [{"N": "%.6g" % x} for x in v]}


def run_parallel(conns, endpoint, work):
    """work(client, index) in `conns` threads; returns the wall time."""
    errors = []

    def one(i):
        try:
            work(Client(endpoint), i)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=one, args=(i,)) for i in range(conns)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return time.monotonic() - start


def cpu_seconds(pid):
    """The process's user + system CPU time."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(conns, endpoint, seconds, make_request, pid):
    """Latencies (ms) of requests sent for `seconds` over `conns` connections, and the server's
    CPU time per request (the machine may be shared: wall times then include waiting for a core)."""
    latencies = []
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def work(client, i):
        rng = random.Random(i)
        mine = []
        while time.monotonic() < deadline:
            op, body = make_request(rng)
            t = time.perf_counter()
            client.call(op, body)
            mine.append((time.perf_counter() - t) * 1000)
        with lock:
            latencies.extend(mine)
    cpu = cpu_seconds(pid)
    wall = run_parallel(conns, endpoint, work)
    cpu = cpu_seconds(pid) - cpu
    latencies.sort()
    return {"requests": len(latencies), "rps": len(latencies) / wall,
            "server_cpu_ms_per_request": cpu * 1000 / max(1, len(latencies)),
            "p50_ms": latencies[len(latencies) // 2], "p99_ms": latencies[int(len(latencies) * 0.99)],
            "mean_ms": statistics.fmean(latencies)}


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def du_bytes(path):
    return int(subprocess.check_output(["du", "-sb", path]).split()[0])


def wait_idle(pid, quiet_cpu=0.05, step=1.0):
    """Seconds until the server's CPU use falls under `quiet_cpu` of a core for a `step`."""
    start = time.monotonic()
    while True:
        before = cpu_seconds(pid)
        time.sleep(step)
        if cpu_seconds(pid) - before < quiet_cpu * step:
            return time.monotonic() - start - step


def graph_pending(endpoint):
    """dynamod_vector_graph_pending of the benchmark's index (vectors the graph does not hold yet)."""
    import urllib.request
    with urllib.request.urlopen(endpoint + "/dynamod/metrics", timeout=10) as r:
        for line in r.read().decode().splitlines():
            if line.startswith("dynamod_vector_graph_pending{") and 'table="vec"' in line:
                return float(line.rsplit(" ", 1)[1])
    return 0.0


def wait_graph(server):
    """Seconds until the server is idle with every vector in its graph. (The gauge alone reads 0
    before a restart's load has begun, the CPU alone may idle while the machine is oversubscribed.)"""
    start = time.monotonic()
    while True:
        wait_idle(server.proc.pid)
        if graph_pending(server.endpoint) == 0:
            return time.monotonic() - start


def vector_table_body(args, name):
    return {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "VectorIndexes": [{"IndexName": "vix", "VectorAttribute": {"AttributeName": "emb"},
                               "Dimensions": args.dims, "DistanceFunction": "COSINE",
                               "Projection": {"ProjectionType": "KEYS_ONLY"}}]}


def create_vector_table(client, args, name="vec"):
    client.call("CreateTable", vector_table_body(args, name))


def load_vectors(args, endpoint, table):
    """BatchWriteItem of --items unit vectors over --conns connections; the seconds it took."""
    per_conn = (args.items + args.conns - 1) // args.conns
    source = VectorSource(args)

    def load(client, i):
        rng = random.Random(1000 + i)
        keys = ["k%07d" % n for n in range(i * per_conn, min(args.items, (i + 1) * per_conn))]
        for start in range(0, len(keys), 25):
            batch = [{"PutRequest": {"Item": {"pk": {"S": k}, "emb": attr(source.vector(rng))}}}
                     for k in keys[start:start + 25]]
            pending = {table: batch}
            while pending:
                pending = client.call("BatchWriteItem", {"RequestItems": pending}).get("UnprocessedItems")
    return run_parallel(args.conns, endpoint, load)


def import_vectors(args, endpoint, data_dir, table="vec"):
    """ImportTable of --items vectors (gzip DYNAMODB_JSON objects in the server's bucket store,
    <data dir>/s3), creating the table with its vector index; the seconds the import took, from
    the request to COMPLETED (the objects are written before, untimed)."""
    import gzip
    folder = os.path.join(data_dir, "s3", "bench", "vectors")
    os.makedirs(folder, exist_ok=True)
    source = VectorSource(args)
    rng = random.Random(1000)
    per_object = 50000
    for first in range(0, args.items, per_object):
        with gzip.open(os.path.join(folder, "part-%05d.json.gz" % (first // per_object)), "wt", compresslevel=1) as f:
            for n in range(first, min(args.items, first + per_object)):
                item = {"pk": {"S": "k%07d" % n}, "emb": attr(source.vector(rng))}
                f.write(json.dumps({"Item": item}) + "\n")
    client = Client(endpoint)
    started = time.monotonic()
    answer = client.call("ImportTable", {
        "S3BucketSource": {"S3Bucket": "bench", "S3KeyPrefix": "vectors/"}, "InputFormat": "DYNAMODB_JSON",
        "InputCompressionType": "GZIP", "TableCreationParameters": vector_table_body(args, table)})
    arn = answer["ImportTableDescription"]["ImportArn"]
    while True:
        d = client.call("DescribeImport", {"ImportArn": arn})["ImportTableDescription"]
        if d["ImportStatus"] != "IN_PROGRESS":
            break
        time.sleep(0.2)
    if d["ImportStatus"] != "COMPLETED" or d["ImportedItemCount"] != args.items:
        raise RuntimeError("import: %s" % json.dumps(d)[:500])
    return time.monotonic() - started


def search_body(query):
    return {"TableName": "vec", "IndexName": "vix", "TopK": 10, "SearchVector": attr(query)["L"]}


def answers(endpoint, queries):
    """The keys each query finds, best first."""
    client = Client(endpoint)
    return [[r["Item"]["pk"]["S"] for r in client.call("SearchVectors", search_body(q))["SearchResults"]]
            for q in queries]


def recall(approximate, exact):
    return statistics.fmean(len(set(a) & set(e)) / max(1, len(e)) for a, e in zip(approximate, exact))


def compare(args):
    data_dir = tempfile.mkdtemp(prefix="vector-compare-")
    query_rng = random.Random(7)
    source = VectorSource(args)
    queries = [source.vector(query_rng) for _ in range(200)]
    out = {"items": args.items, "dims": args.dims, "data": args.data}
    if args.data == "clustered":
        out.update(clusters=args.clusters, noise=args.noise)

    def timed_searches(server, label):
        def search(rng):
            return "SearchVectors", search_body(rng.choice(queries))
        out[label + "_1_conn"] = timed(1, server.endpoint, args.seconds, search, server.proc.pid)
        out[label + "_%d_conns" % args.conns] = timed(args.conns, server.endpoint, args.seconds, search,
                                                      server.proc.pid)

    def start(mode):
        server = h.DynamodProcess(args.bin, args=["--vector-search", mode], data_dir=data_dir)
        started = time.monotonic()
        server.start(timeout=120)
        return server, started

    try:
        server, _ = start("approximate")
        rss_before = rss_kb(server.proc.pid)
        if args.load == "import":
            out["import_vectors_per_s"] = args.items / import_vectors(args, server.endpoint, data_dir)
        else:
            create_vector_table(Client(server.endpoint), args)
            out["build_vectors_per_s"] = args.items / load_vectors(args, server.endpoint, "vec")
        out["graph_after_build_s"] = wait_graph(server)
        out["rss_bytes_per_vector"] = (rss_kb(server.proc.pid) - rss_before) * 1024 / args.items
        bucket_store = os.path.join(data_dir, "s3")  # (the import's objects are not the table's)
        out["disk_bytes_per_vector"] = (du_bytes(data_dir) - (du_bytes(bucket_store) if os.path.isdir(bucket_store)
                                                              else 0)) / args.items
        timed_searches(server, "approximate")
        approximate = answers(server.endpoint, queries)
        print(json.dumps(out), file=sys.stderr, flush=True)  # (the figures so far, for a long run)
        server.stop()
        server, started = start("exact")
        out["exact_start_and_load_s"] = time.monotonic() - started + wait_idle(server.proc.pid)
        timed_searches(server, "exact")
        exact = answers(server.endpoint, queries)
        print(json.dumps(dict(out, recall_at_10=recall(approximate, exact))), file=sys.stderr, flush=True)
        server.stop()
        server, started = start("approximate")
        out["approximate_start_load_and_graph_s"] = time.monotonic() - started + wait_graph(server)
        out["rss_bytes_per_vector_after_restart"] = rss_kb(server.proc.pid) * 1024 / args.items
        server.stop()
        out["recall_at_10"] = recall(approximate, exact)
        return out
    finally:
        subprocess.run(["rm", "-rf", data_dir], check=False)


def bench(args, durable):
    data_dir = tempfile.mkdtemp(prefix="vector-bench-") if durable else None
    server = h.DynamodProcess(args.bin, data_dir=data_dir, in_memory=not durable)
    server.start()
    try:
        endpoint = server.endpoint
        admin = Client(endpoint)
        rss_before = rss_kb(server.proc.pid)
        create_vector_table(admin, args)
        admin.call("CreateTable", {"TableName": "plain", "BillingMode": "PAY_PER_REQUEST",
                                   "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                                   "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]})
        build_s = load_vectors(args, endpoint, "vec")
        rss_after = rss_kb(server.proc.pid)
        out = {"mode": "durable" if durable else "in-memory", "items": args.items, "dims": args.dims,
               "build_vectors_per_s": args.items / build_s,
               "rss_bytes_per_vector": (rss_after - rss_before) * 1024 / args.items}
        if durable:
            out["disk_bytes_per_vector"] = du_bytes(data_dir) / args.items
        query_rng = random.Random(7)
        source = VectorSource(args)
        queries = [source.vector(query_rng) for _ in range(64)]

        def search(rng):
            return "SearchVectors", search_body(rng.choice(queries))
        out["search_1_conn"] = timed(1, endpoint, args.seconds, search, server.proc.pid)
        out["search_%d_conns" % args.conns] = timed(args.conns, endpoint, args.seconds, search, server.proc.pid)
        # The plain table gets the same items: the same vectors, with no vector index.
        load_vectors(args, endpoint, "plain")
        for table in ("vec", "plain"):
            def get(rng, table=table):
                return "GetItem", {"TableName": table, "Key": {"pk": {"S": "k%07d" % rng.randrange(args.items)}}}

            def update(rng, table=table):
                return "UpdateItem", {"TableName": table, "Key": {"pk": {"S": "k%07d" % rng.randrange(args.items)}},
                                      "UpdateExpression": "SET c = :c", "ExpressionAttributeValues": {":c": {"N": "1"}}}
            out["get_" + table] = timed(args.conns, endpoint, args.seconds, get, server.proc.pid)
            out["update_" + table] = timed(args.conns, endpoint, args.seconds, update, server.proc.pid)
        out["get_ratio_vec_over_plain"] = out["get_vec"]["rps"] / out["get_plain"]["rps"]
        out["update_ratio_vec_over_plain"] = out["update_vec"]["rps"] / out["update_plain"]["rps"]
        return out
    finally:
        server.stop()
        if data_dir:
            subprocess.run(["rm", "-rf", data_dir], check=False)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default="build/dynamod")
    p.add_argument("--items", type=int, default=10000)
    p.add_argument("--dims", type=int, default=768)
    p.add_argument("--conns", type=int, default=16)
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--modes", default="in-memory,durable")
    p.add_argument("--compare", action="store_true", help="approximate against exact search (see above)")
    p.add_argument("--data", choices=("clustered", "random"), default="clustered",
                   help="the vectors' distribution (VectorSource above)")
    p.add_argument("--clusters", type=int, default=1000)
    p.add_argument("--load", choices=("batch", "import"), default="batch",
                   help="--compare: fill the table by BatchWriteItem (timed as the build rate) or by ImportTable")
    p.add_argument("--noise", type=float, default=2.0)
    args = p.parse_args()
    if args.compare:
        print(json.dumps(compare(args)), flush=True)
        return
    for mode in args.modes.split(","):
        print(json.dumps(bench(args, mode == "durable")), flush=True)


if __name__ == "__main__":
    main()
