"""Vector search over partitions held in memory (storage/vector_memory.h): --vector-search exact and
approximate on a partition large enough for a graph (10,000 vectors or more), a write seen by the
next search, a restart that loads the vectors again, snapshots and resets that replace them, and the
vector units in the cost report, the access patterns and the metrics.

Every test starts its own server (the flag is per server; snapshots and resets touch every table).
"""
import math
import random
import struct
import subprocess

import pytest

import companion_helpers as ch
import dynamo_helpers as h
import report_helpers as rh
import vector_helpers as v

pytestmark = pytest.mark.needs_own_server

DIMS = 4
LARGE = 10050  # past the 10,000 vectors from which an approximate partition has a graph


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def random_vectors(count, seed=5):
    rng = random.Random(seed)
    return {"k%05d" % i: [round(rng.uniform(-1, 1), 5) for _ in range(DIMS)] for i in range(count)}


def raw_for(server):
    return lambda op, body: h.raw_request(server.endpoint, op, body)  # noqa: E731


def make_table(raw, name="big", distance="EUCLIDEAN"):
    v.ok(raw("CreateTable", v.create_table_body(name, [v.vector_index(dimensions=DIMS, distance=distance,
                                                                      projection={"ProjectionType": "KEYS_ONLY"})])))


def load(raw, vectors, name="big"):
    items = list(vectors.items())
    for start in range(0, len(items), 25):
        batch = [{"PutRequest": {"Item": {"pk": {"S": k}, "emb": v.vector(*e)}}} for k, e in items[start:start + 25]]
        pending = {name: batch}
        while pending:
            pending = v.ok(raw("BatchWriteItem", {"RequestItems": pending})).get("UnprocessedItems")


def euclidean(a, b):
    return math.sqrt(sum((f32(x) - f32(y)) ** 2 for x, y in zip(a, b)))


def keys(answer):
    return [r["Item"]["pk"]["S"] for r in answer["SearchResults"]]


def filled_server(launch_dynamod, mode):
    """A server searching in `mode` whose table "big" holds LARGE random vectors: (server, raw, vectors)."""
    server = launch_dynamod(args=["--vector-search", mode], in_memory=True)
    raw = raw_for(server)
    make_table(raw)
    vectors = random_vectors(LARGE)
    load(raw, vectors)
    return server, raw, vectors


def graph_pending(server, table="big"):
    _, metrics = rh.get_metrics(server.endpoint)
    return metrics.value("dynamod_vector_graph_pending", region=h.REGION, table=table, index="vix")


def random_queries(seed, count):
    rng = random.Random(seed)
    return [[round(rng.uniform(-1, 1), 5) for _ in range(DIMS)] for _ in range(count)]


def test_exact_search_of_a_large_partition_scores_every_vector(launch_dynamod):
    server, raw, vectors = filled_server(launch_dynamod, "exact")
    # Exact mode builds no graph, and the metrics say nothing of one.
    assert graph_pending(server) is None
    for query in random_queries(9, 10):
        answer = v.ok(v.search(raw, "big", query, top_k=10))
        want = sorted(euclidean(query, e) for e in vectors.values())[:10]
        assert [r["Score"] for r in answer["SearchResults"]] == pytest.approx(want, abs=1e-5)


def test_approximate_search_uses_the_graph_and_sees_every_write(launch_dynamod):
    server, raw, vectors = filled_server(launch_dynamod, "approximate")
    # Until the builder has inserted every vector, the pending ones are scored exactly; the
    # recall below is the graph's own once none is left.
    assert rh.eventually(lambda: graph_pending(server), lambda n: n == 0, timeout=120) == 0
    # A partition too small for a graph is searched exactly: none of it is pending.
    make_table(raw, "small")
    load(raw, random_vectors(30), name="small")
    assert graph_pending(server, "small") == 0
    found = 0
    for query in random_queries(10, 30):
        want = set(sorted(vectors, key=lambda k: euclidean(query, vectors[k]))[:10])
        found += len(want & set(keys(v.ok(v.search(raw, "big", query, top_k=10)))))
    assert found / 300 >= 0.9
    # A stored vector is its own nearest neighbour, at distance 0.
    for key in ("k00007", "k05000", "k10049"):
        answer = v.ok(v.search(raw, "big", vectors[key], top_k=1))
        assert keys(answer) == [key] and answer["SearchResults"][0]["Score"] == 0
    # The next search sees a write, whether or not the graph has it yet; and not a deleted item.
    far = [50, 50, 50, 50]
    v.ok(raw("PutItem", {"TableName": "big", "Item": {"pk": {"S": "new"}, "emb": v.vector(*far)}}))
    assert keys(v.ok(v.search(raw, "big", far, top_k=1))) == ["new"]
    v.ok(raw("UpdateItem", {"TableName": "big", "Key": {"pk": {"S": "new"}}, "UpdateExpression": "SET emb = :e",
                            "ExpressionAttributeValues": {":e": v.vector(-50, -50, -50, -50)}}))
    assert keys(v.ok(v.search(raw, "big", [-50, -50, -50, -50], top_k=1))) == ["new"]
    assert "new" not in keys(v.ok(v.search(raw, "big", far, top_k=5)))
    v.ok(raw("DeleteItem", {"TableName": "big", "Key": {"pk": {"S": "new"}}}))
    assert "new" not in keys(v.ok(v.search(raw, "big", [-50, -50, -50, -50], top_k=5)))


def test_a_restart_loads_the_vectors_again(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    raw = raw_for(server)
    make_table(raw)
    vectors = random_vectors(LARGE)
    load(raw, vectors)
    server.stop()
    server = launch_dynamod(data_dir=data_dir)
    raw = raw_for(server)
    # Whether the first search finds the vectors loaded or scans LMDB meanwhile, the answer is right.
    for key in ("k00001", "k09999"):
        answer = v.ok(v.search(raw, "big", vectors[key], top_k=1))
        assert keys(answer) == [key]
    assert v.describe_vector_indexes(raw, "big")[0]["ItemCount"] == LARGE


def test_snapshots_and_resets_replace_the_vectors(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    raw = raw_for(server)
    make_table(raw, "small")
    for pk, emb in {"a": [1, 0, 0, 0], "b": [0, 1, 0, 0]}.items():
        v.ok(raw("PutItem", {"TableName": "small", "Item": {"pk": {"S": pk}, "emb": v.vector(*emb)}}))
    assert sorted(keys(v.ok(v.search(raw, "small", [1, 0, 0, 0])))) == ["a", "b"]  # now loaded in memory
    ch.ok(server.endpoint, "POST", "snapshots/two")
    v.ok(raw("DeleteItem", {"TableName": "small", "Key": {"pk": {"S": "a"}}}))
    v.ok(raw("PutItem", {"TableName": "small", "Item": {"pk": {"S": "c"}, "emb": v.vector(0, 0, 1, 0)}}))
    assert sorted(keys(v.ok(v.search(raw, "small", [1, 0, 0, 0])))) == ["b", "c"]
    ch.ok(server.endpoint, "POST", "snapshots/two/restore")
    assert sorted(keys(v.ok(v.search(raw, "small", [1, 0, 0, 0])))) == ["a", "b"]
    assert v.describe_vector_indexes(raw, "small")[0]["ItemCount"] == 2
    ch.ok(server.endpoint, "POST", "reset", {"keep_tables": True})
    assert v.ok(v.search(raw, "small", [1, 0, 0, 0]))["SearchResults"] == []
    assert v.describe_vector_indexes(raw, "small")[0]["ItemCount"] == 0


def test_vector_units_in_the_cost_report_patterns_and_metrics(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    raw = raw_for(server)
    make_table(raw, "costs")
    written = v.ok(raw("PutItem", {"TableName": "costs", "Item": {"pk": {"S": "a"}, "emb": v.vector(1, 2, 3, 4)},
                                   "ReturnConsumedCapacity": "INDEXES"}))
    write_bytes = written["ConsumedCapacity"]["VectorIndexes"]["vix"]["VectorWriteRequestBytes"]
    searched = v.ok(v.search(raw, "costs", [1, 2, 3, 4], ReturnConsumedCapacity="TOTAL"))
    search_bytes = searched["ConsumedCapacity"]["VectorSearchRequestBytes"]
    assert write_bytes > 0 and search_bytes > 0

    [table] = [t for t in rh.get_cost(server.endpoint)["tables"] if t["table"] == "costs"]
    [line] = [line for line in table["lines"] if line.get("index") == "vix"]
    assert line["kind"] == "vector"
    assert line["vector_search_bytes"] == search_bytes and line["vector_write_bytes"] == write_bytes
    assert line["items"] == 1

    patterns = {p["pattern"]: p for p in rh.get_patterns(server.endpoint)["patterns"]}
    assert patterns["SearchVectors vix"]["count"] == 1
    assert patterns["SearchVectors vix"]["vector_search_bytes"] == search_bytes
    assert patterns["SearchVectors vix"]["index"] == "vix"

    _, metrics = rh.get_metrics(server.endpoint)
    assert metrics.types["dynamod_vector_search_bytes_total"] == "counter"
    labels = {"region": h.REGION, "table": "costs", "index": "vix"}
    assert metrics.value("dynamod_vector_search_bytes_total", **labels) == search_bytes
    assert metrics.value("dynamod_vector_write_bytes_total", **labels) == write_bytes
    # The index's entries beside the table's, as for GSIs and LSIs.
    assert metrics.value("dynamod_items", **labels) == 1
    assert metrics.value("dynamod_storage_bytes", **labels) == line["storage_bytes"]


def test_an_unknown_search_mode_is_refused_at_start(dynamod_bin):
    run = subprocess.run([dynamod_bin, "--in-memory", "--port", "0", "--vector-search", "fast"],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode != 0
    assert "--vector-search must be 'exact' or 'approximate'" in run.stderr + run.stdout
