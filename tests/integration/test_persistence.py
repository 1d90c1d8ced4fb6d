"""Durability of dynamod's --data-dir: data survives a clean restart, and every
acknowledged write survives kill -9.  These tests start their own dynamod processes."""
import subprocess
import threading
import time

import pytest

import dynamo_helpers as h

pytestmark = pytest.mark.needs_own_server

ITEM_TYPES = {
    "s": {"S": "żółć"}, "n": {"N": "-1.5"}, "b": {"B": b"\x00\xff"}, "t": {"BOOL": True},
    "z": {"NULL": True}, "ss": {"SS": ["a"]}, "ns": {"NS": ["1"]}, "bs": {"BS": [b"\x01"]},
    "l": {"L": [{"S": "x"}, {"M": {"k": {"N": "2"}}}]}, "m": {"M": {"deep": {"L": []}}},
}


def make_table(client, **extra):
    name = h.unique_name("persist")
    params = dict(h.RANGE_SCHEMA, TableName=name, BillingMode="PAY_PER_REQUEST")
    params.update(extra)
    client.create_table(**params)
    h.wait_active(client, name)
    return name


# Tables (with their metadata) and items written before a SIGTERM are all there after the
# restart, and the process exits cleanly (status 0) on SIGTERM.
def test_clean_restart_keeps_everything(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    c = h.make_client(server.endpoint)
    name = make_table(c, DeletionProtectionEnabled=True)
    before = c.describe_table(TableName=name)["Table"]
    for i in range(50):
        c.put_item(TableName=name, Item=dict(ITEM_TYPES, pk={"S": "p%d" % (i % 5)}, sk={"N": str(i)}))
    c.delete_item(TableName=name, Key={"pk": {"S": "p0"}, "sk": {"N": "0"}})
    assert server.stop() == 0

    server = launch_dynamod(data_dir=data_dir)
    c = h.make_client(server.endpoint)
    after = c.describe_table(TableName=name)["Table"]
    for field in ("TableId", "TableArn", "CreationDateTime", "KeySchema", "AttributeDefinitions",
                  "BillingModeSummary", "DeletionProtectionEnabled"):
        assert after.get(field) == before.get(field), field
    assert name in c.list_tables()["TableNames"]
    assert "Item" not in c.get_item(TableName=name, Key={"pk": {"S": "p0"}, "sk": {"N": "0"}}, ConsistentRead=True)
    for i in range(1, 50):
        got = c.get_item(TableName=name, Key={"pk": {"S": "p%d" % (i % 5)}, "sk": {"N": str(i)}}, ConsistentRead=True)["Item"]
        assert got == dict(ITEM_TYPES, pk={"S": "p%d" % (i % 5)}, sk={"N": str(i)})


# Every PutItem that was acknowledged (HTTP 200) before kill -9 is readable after restart:
# the default mode commits with fsync before answering. Each item brings an attribute name no
# item had before (dynamod numbers names in a dictionary saved with the writes that use them).
def test_acknowledged_writes_survive_kill9(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    c = h.make_client(server.endpoint)
    name = make_table(c)
    acked = []
    for i in range(200):
        c.put_item(TableName=name, Item={"pk": {"S": "k"}, "sk": {"N": str(i)}, "v": {"S": "x" * (i % 50)},
                                         "new%d" % i: {"N": str(i)}})
        acked.append(i)
    server.kill9()

    server = launch_dynamod(data_dir=data_dir)
    c = h.make_client(server.endpoint)
    h.wait_active(c, name)
    for i in acked:
        got = c.get_item(TableName=name, Key={"pk": {"S": "k"}, "sk": {"N": str(i)}}, ConsistentRead=True).get("Item")
        assert got == {"pk": {"S": "k"}, "sk": {"N": str(i)}, "v": {"S": "x" * (i % 50)}, "new%d" % i: {"N": str(i)}}, i


# Table deletion and table creation are durable too (catalogue changes, not just items).
def test_table_lifecycle_survives_kill9(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    c = h.make_client(server.endpoint)
    gone = make_table(c)
    kept = make_table(c)
    c.delete_table(TableName=gone)
    h.wait_gone(c, gone)
    server.kill9()

    server = launch_dynamod(data_dir=data_dir)
    c = h.make_client(server.endpoint)
    names = c.list_tables()["TableNames"]
    assert kept in names and gone not in names


# Sixteen writers at once (the writer commits them in groups), killed mid-stream: every acknowledged PutItem is there after the restart, and each writer's
# counter (UpdateItem ADD) holds its last acknowledged value, or one more when the kill came
# between a commit and its answer.
def test_concurrent_acknowledged_writes_survive_kill9(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    name = make_table(h.make_client(server.endpoint))
    stop = threading.Event()
    acked_puts = [[] for _ in range(16)]
    acked_counts = [0] * 16

    def writer(w):
        c = h.make_client(server.endpoint)
        i = 0
        while not stop.is_set():
            try:
                c.put_item(TableName=name, Item={"pk": {"S": "w%d" % w}, "sk": {"N": str(i)}, "v": {"S": "x" * i}})
                acked_puts[w].append(i)
                c.update_item(TableName=name, Key={"pk": {"S": "count"}, "sk": {"N": str(w)}},
                              UpdateExpression="ADD n :one", ExpressionAttributeValues={":one": {"N": "1"}})
                acked_counts[w] += 1
            except Exception:  # the server is gone: what was acknowledged is what counts
                return
            i += 1

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(16)]
    for t in threads:
        t.start()
    # Kill once the writers are well under way, however fast this machine is.
    deadline = time.monotonic() + 60
    while sum(len(a) for a in acked_puts) < 200 and time.monotonic() < deadline:
        time.sleep(0.05)
    server.kill9()
    stop.set()
    for t in threads:
        t.join()
    assert sum(len(a) for a in acked_puts) > 100

    server = launch_dynamod(data_dir=data_dir)
    c = h.make_client(server.endpoint)
    for w in range(16):
        for i in acked_puts[w]:
            got = c.get_item(TableName=name, Key={"pk": {"S": "w%d" % w}, "sk": {"N": str(i)}}, ConsistentRead=True)
            assert got.get("Item") == {"pk": {"S": "w%d" % w}, "sk": {"N": str(i)}, "v": {"S": "x" * i}}, (w, i)
        got = c.get_item(TableName=name, Key={"pk": {"S": "count"}, "sk": {"N": str(w)}}, ConsistentRead=True)
        count = int(got["Item"]["n"]["N"]) if "Item" in got else 0
        assert acked_counts[w] <= count <= acked_counts[w] + 1, (w, acked_counts[w], count)


# --durability relaxed (MDB_NOMETASYNC) leaves the meta page unsynced: a process crash (the
# page cache survives it) still loses nothing.
def test_relaxed_durability_keeps_writes_through_kill9(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir, args=["--durability", "relaxed"])
    c = h.make_client(server.endpoint)
    name = make_table(c)
    for i in range(100):
        c.put_item(TableName=name, Item={"pk": {"S": "r"}, "sk": {"N": str(i)}})
    server.kill9()

    server = launch_dynamod(data_dir=data_dir, args=["--durability", "relaxed"])
    c = h.make_client(server.endpoint)
    got = c.query(TableName=name, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "r"}},
                  ConsistentRead=True)
    assert [int(i["sk"]["N"]) for i in got["Items"]] == list(range(100))


# One dynamod per data directory: a second one on the same directory refuses to start.
def test_second_server_on_the_same_data_dir_is_refused(launch_dynamod, data_dir, dynamod_bin):
    launch_dynamod(data_dir=data_dir)
    second = subprocess.run([dynamod_bin, "--port", str(h.free_port()), "--data-dir", data_dir],
                            capture_output=True, text=True, timeout=30)
    assert second.returncode == 1
    assert "data directory %s is in use by another dynamod" % data_dir in second.stderr


# --in-memory keeps nothing between runs (it is meant for test suites).
def test_in_memory_starts_empty(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    c = h.make_client(server.endpoint)
    make_table(c)
    assert server.stop() == 0
    server = launch_dynamod(in_memory=True)
    assert h.make_client(server.endpoint).list_tables()["TableNames"] == []
