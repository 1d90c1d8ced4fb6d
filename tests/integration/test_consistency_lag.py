"""Eventual consistency on demand (docs/testing-companion.md): with --consistency-lag MS (or a lag
set per table through POST /dynamod/consistency), global secondary index entries, eventually
consistent GetItem / Query / Scan / BatchGetItem results and stream records show a write only
once it is that old; strongly consistent reads and transactions see it at once.

Timing: every check of "not yet" runs right after the write, well within the lag (1.5 s); every
check of "now visible" runs after sleeping past it. No test asserts an upper bound on time.

dynamod-only: each test starts its own dynamod."""
import time

import pytest

import companion_helpers as ch
import dynamo_helpers as h

pytestmark = pytest.mark.needs_own_server

LAG_MS = 1500
GSI_TABLE = dict(
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                          {"AttributeName": "g", "AttributeType": "S"}],
    GlobalSecondaryIndexes=[{"IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                             "Projection": {"ProjectionType": "ALL"}}],
    StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})


def gsi_keys(client, table, g="a"):
    items = client.query(TableName=table, IndexName="byg", KeyConditionExpression="g = :g",
                         ExpressionAttributeValues={":g": {"S": g}})["Items"]
    return sorted(i["pk"]["S"] for i in items)


def scan_keys(client, table, consistent):
    return sorted(i["pk"]["S"] for i in client.scan(TableName=table, ConsistentRead=consistent)["Items"])


def stream_keys(streams, client, table):
    arn = client.describe_table(TableName=table)["Table"]["LatestStreamArn"]
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    return [r["dynamodb"]["Keys"]["pk"]["S"] for r in streams.get_records(ShardIterator=it)["Records"]]


def wait_past_lag(written_at, lag_ms=LAG_MS):
    time.sleep(max(0.0, written_at + lag_ms / 1000.0 + 0.2 - time.monotonic()))


def check_lagged_table(client, streams, table):
    """Writes one item and checks every read before and after the lag."""
    written_at = time.monotonic()
    client.put_item(TableName=table, Item={"pk": {"S": "new"}, "g": {"S": "a"}})
    # Strongly consistent reads see it at once.
    assert client.get_item(TableName=table, Key={"pk": {"S": "new"}}, ConsistentRead=True)["Item"]
    assert scan_keys(client, table, True) == ["new", "old"]
    assert client.transact_get_items(TransactItems=[{"Get": {"TableName": table, "Key": {"pk": {"S": "new"}}}}])[
        "Responses"][0]["Item"]
    # Eventually consistent ones, the index and the stream do not yet.
    assert "Item" not in client.get_item(TableName=table, Key={"pk": {"S": "new"}})
    assert scan_keys(client, table, False) == ["old"]
    assert gsi_keys(client, table) == ["old"]
    got = client.batch_get_item(RequestItems={table: {"Keys": [{"pk": {"S": "new"}}]}})["Responses"][table]
    assert got == []
    strong = client.batch_get_item(RequestItems={table: {"Keys": [{"pk": {"S": "new"}}], "ConsistentRead": True}})
    assert len(strong["Responses"][table]) == 1
    assert stream_keys(streams, client, table) == ["old"]
    assert time.monotonic() - written_at < LAG_MS / 1000.0, "the machine was too slow for this test's checks"

    wait_past_lag(written_at)
    assert client.get_item(TableName=table, Key={"pk": {"S": "new"}})["Item"]["g"] == {"S": "a"}
    assert scan_keys(client, table, False) == ["new", "old"]
    assert gsi_keys(client, table) == ["new", "old"]
    assert stream_keys(streams, client, table) == ["old", "new"]


def prepared_table(client):
    table = ch.hash_table(client, **GSI_TABLE)
    client.put_item(TableName=table, Item={"pk": {"S": "old"}, "g": {"S": "a"}})
    return table


def test_consistency_lag_at_start(launch_dynamod):
    server = launch_dynamod(["--consistency-lag", str(LAG_MS)], in_memory=True)
    client = h.make_client(server.endpoint)
    streams = h.make_streams_client(server.endpoint)
    table = prepared_table(client)
    time.sleep(LAG_MS / 1000.0 + 0.2)
    check_lagged_table(client, streams, table)
    assert ch.ok(server.endpoint, "GET", "consistency") == {"default_lag_ms": LAG_MS, "tables": []}


def test_a_delete_and_an_update_lag_too(launch_dynamod, data_dir):
    server = launch_dynamod(["--consistency-lag", str(LAG_MS)], data_dir=data_dir)
    client = h.make_client(server.endpoint)
    table = prepared_table(client)
    time.sleep(LAG_MS / 1000.0 + 0.2)
    written_at = time.monotonic()
    client.update_item(TableName=table, Key={"pk": {"S": "old"}}, UpdateExpression="SET g = :b",
                       ExpressionAttributeValues={":b": {"S": "b"}})
    assert gsi_keys(client, table, "a") == ["old"] and gsi_keys(client, table, "b") == []
    assert client.get_item(TableName=table, Key={"pk": {"S": "old"}}, ConsistentRead=True)["Item"]["g"] == {"S": "b"}
    assert client.get_item(TableName=table, Key={"pk": {"S": "old"}})["Item"]["g"] == {"S": "a"}
    wait_past_lag(written_at)
    assert gsi_keys(client, table, "a") == [] and gsi_keys(client, table, "b") == ["old"]
    written_at = time.monotonic()
    client.delete_item(TableName=table, Key={"pk": {"S": "old"}})
    assert client.get_item(TableName=table, Key={"pk": {"S": "old"}})["Item"]
    assert "Item" not in client.get_item(TableName=table, Key={"pk": {"S": "old"}}, ConsistentRead=True)
    wait_past_lag(written_at)
    assert "Item" not in client.get_item(TableName=table, Key={"pk": {"S": "old"}})


def test_lag_per_table_at_run_time(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    client = h.make_client(server.endpoint)
    streams = h.make_streams_client(server.endpoint)
    lagged = prepared_table(client)
    plain = prepared_table(client)
    settings = ch.ok(server.endpoint, "POST", "consistency", {"table": lagged, "lag_ms": LAG_MS})
    # Stream records are judged by their age, so "old" must be that old first.
    time.sleep(LAG_MS / 1000.0 + 0.2)
    assert settings == {"default_lag_ms": 0, "tables": [{"region": "us-east-1", "table": lagged, "lag_ms": LAG_MS}]}
    # Without a lag, a table's reads see every write at once.
    client.put_item(TableName=plain, Item={"pk": {"S": "new"}, "g": {"S": "a"}})
    assert gsi_keys(client, plain) == ["new", "old"]
    assert client.get_item(TableName=plain, Key={"pk": {"S": "new"}})["Item"]
    check_lagged_table(client, streams, lagged)
    # Back to the default (none).
    assert ch.ok(server.endpoint, "POST", "consistency", {"table": lagged, "lag_ms": None})["tables"] == []
    client.put_item(TableName=lagged, Item={"pk": {"S": "newer"}, "g": {"S": "a"}})
    assert gsi_keys(client, lagged) == ["new", "newer", "old"]


def test_off_by_default(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    client = h.make_client(server.endpoint)
    table = prepared_table(client)
    client.put_item(TableName=table, Item={"pk": {"S": "new"}, "g": {"S": "a"}})
    assert gsi_keys(client, table) == ["new", "old"]
    assert scan_keys(client, table, False) == ["new", "old"]
    assert ch.ok(server.endpoint, "GET", "consistency") == {"default_lag_ms": 0, "tables": []}


@pytest.mark.parametrize("body", [{}, {"lag_ms": -1}, {"lag_ms": "5"}, {"table": "t"}, {"lag_ms": None}])
def test_bad_settings_are_refused(launch_dynamod, body):
    server = launch_dynamod(in_memory=True)
    status, answer = ch.control(server.endpoint, "POST", "consistency", body)
    assert status == 400 and answer["message"].startswith("POST /dynamod/consistency takes")


def test_writes_close_together_then_a_quiet_spell(launch_dynamod):
    """Two writes within the views' resolution (a hundredth of the lag), then nothing for longer than
    the lag: both are visible before the next write's lag has passed."""
    server = launch_dynamod(["--consistency-lag", str(LAG_MS)], in_memory=True)
    client = h.make_client(server.endpoint)
    table = ch.hash_table(client)
    time.sleep(LAG_MS / 1000.0 + 0.2)
    for pk in ("a", "b", "c"):
        client.put_item(TableName=table, Item={"pk": {"S": pk}})
    time.sleep(LAG_MS / 1000.0 + 0.2)
    written_at = time.monotonic()
    client.put_item(TableName=table, Item={"pk": {"S": "later"}})
    assert scan_keys(client, table, False) == ["a", "b", "c"]
    assert time.monotonic() - written_at < LAG_MS / 1000.0, "the machine was too slow for this test's checks"
