"""Durability of dynamod's --data-dir: data survives a clean restart, and every
acknowledged write survives kill -9.  These tests start their own dynamod processes."""
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


# --in-memory keeps nothing between runs (it is meant for test suites).
def test_in_memory_starts_empty(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    c = h.make_client(server.endpoint)
    make_table(c)
    assert server.stop() == 0
    server = launch_dynamod(in_memory=True)
    assert h.make_client(server.endpoint).list_tables()["TableNames"] == []
