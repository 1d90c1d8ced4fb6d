"""Reset and snapshots (docs/testing-companion.md): POST /dynamod/reset (every region, one region,
keep the tables and empty them), POST /dynamod/snapshots/NAME, .../restore, GET and DELETE; in
memory and on disk, with connections kept open across them, with streams, TTL settings and
indexes restored; ids and stream sequence numbers never reused after a restore.

dynamod-only (no other server has these endpoints): each test starts its own dynamod."""
import http.client
import json
import urllib.parse

import pytest

import companion_helpers as ch
import dynamo_helpers as h

pytestmark = pytest.mark.needs_own_server

GSI_TABLE = dict(
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                          {"AttributeName": "g", "AttributeType": "S"}],
    GlobalSecondaryIndexes=[{"IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                             "Projection": {"ProjectionType": "ALL"}}],
    StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})


@pytest.fixture(params=["memory", "disk"])
def server(request, launch_dynamod, data_dir):
    # --ttl-cooldown 0: the tests turn Time to Live on and off again at once.
    if request.param == "memory":
        return launch_dynamod(["--ttl-cooldown", "0"], in_memory=True)
    return launch_dynamod(["--ttl-cooldown", "0"], data_dir=data_dir)


def seed(client, table, n, g="a"):
    for start in range(0, n, 25):
        client.batch_write_item(RequestItems={table: [
            {"PutRequest": {"Item": {"pk": {"S": "k%05d" % i}, "g": {"S": g}, "n": {"N": str(i)}}}}
            for i in range(start, min(n, start + 25))]})


def all_keys(client, table):
    keys, kwargs = [], {}
    while True:
        page = client.scan(TableName=table, ConsistentRead=True, **kwargs)
        keys += [i["pk"]["S"] for i in page["Items"]]
        if "LastEvaluatedKey" not in page:
            return sorted(keys)
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def gsi_count(client, table, g):
    return client.query(TableName=table, IndexName="byg", KeyConditionExpression="g = :g",
                        ExpressionAttributeValues={":g": {"S": g}}, Select="COUNT")["Count"]


def stream_events(streams, client, table):
    arn = client.describe_table(TableName=table)["Table"]["LatestStreamArn"]
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    records = streams.get_records(ShardIterator=it)["Records"]
    return [(r["eventName"], r["dynamodb"]["Keys"]["pk"]["S"], r["dynamodb"]["SequenceNumber"]) for r in records]


def test_restore_returns_items_tables_indexes_streams_and_ttl(server):
    client = h.make_client(server.endpoint)
    streams = h.make_streams_client(server.endpoint)
    table = ch.hash_table(client, **GSI_TABLE)
    seed(client, table, 100)
    client.update_time_to_live(TableName=table, TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
    before_events = stream_events(streams, client, table)
    assert len(before_events) == 100

    taken = ch.ok(server.endpoint, "POST", "snapshots/seeded")
    assert (taken["name"], taken["tables"], taken["items"]) == ("seeded", 1, 100)

    # Everything changes: items, index entries, a new table, the TTL setting, the stream.
    client.delete_item(TableName=table, Key={"pk": {"S": "k00000"}})
    client.put_item(TableName=table, Item={"pk": {"S": "extra"}, "g": {"S": "b"}})
    client.update_item(TableName=table, Key={"pk": {"S": "k00001"}}, UpdateExpression="SET g = :b",
                       ExpressionAttributeValues={":b": {"S": "b"}})
    newer = ch.hash_table(client)
    client.update_time_to_live(TableName=table, TimeToLiveSpecification={"Enabled": False, "AttributeName": "exp"})
    last_sequence = stream_events(streams, client, table)[-1][2]

    restored = ch.ok(server.endpoint, "POST", "snapshots/seeded/restore")
    assert restored["items"] == 100 and restored["milliseconds"] >= 0

    assert client.list_tables()["TableNames"] == [table]
    with pytest.raises(client.exceptions.ResourceNotFoundException):
        client.describe_table(TableName=newer)
    assert all_keys(client, table) == ["k%05d" % i for i in range(100)]
    assert client.describe_table(TableName=table)["Table"]["ItemCount"] == 100
    assert gsi_count(client, table, "a") == 100 and gsi_count(client, table, "b") == 0
    ttl = client.describe_time_to_live(TableName=table)["TimeToLiveDescription"]
    assert ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "exp"}
    assert stream_events(streams, client, table) == before_events
    # Writes after the restore take new sequence numbers, never one used before it.
    client.put_item(TableName=table, Item={"pk": {"S": "after"}, "g": {"S": "a"}})
    after = stream_events(streams, client, table)[-1]
    assert after[:2] == ("INSERT", "after") and int(after[2]) > int(last_sequence)
    # The restored table can be dropped and made again.
    h.drop_table(client, table)
    ch.hash_table(client, name=table)


def test_snapshots_survive_many_restores_and_are_listed_and_deleted(server):
    client = h.make_client(server.endpoint)
    table = ch.hash_table(client)
    seed(client, table, 10)
    ch.ok(server.endpoint, "POST", "snapshots/ten")
    seed(client, table, 20)
    ch.ok(server.endpoint, "POST", "snapshots/twenty")
    for _ in range(3):
        ch.ok(server.endpoint, "POST", "snapshots/ten/restore")
        assert len(all_keys(client, table)) == 10
        client.put_item(TableName=table, Item={"pk": {"S": "dirty"}})
        ch.ok(server.endpoint, "POST", "snapshots/twenty/restore")
        assert len(all_keys(client, table)) == 20
    listed = ch.ok(server.endpoint, "GET", "snapshots")["snapshots"]
    assert [(s["name"], s["items"], s["tables"]) for s in listed] == [("ten", 10, 1), ("twenty", 20, 1)]
    ch.ok(server.endpoint, "DELETE", "snapshots/ten")
    assert [s["name"] for s in ch.ok(server.endpoint, "GET", "snapshots")["snapshots"]] == ["twenty"]
    status, answer = ch.control(server.endpoint, "POST", "snapshots/ten/restore")
    assert status == 400 and answer["__type"].endswith("#ResourceNotFoundException")
    assert answer["message"] == "No snapshot named ten"
    status, answer = ch.control(server.endpoint, "POST", "snapshots/bad*name")
    assert status == 400 and answer["__type"].endswith("#ValidationException")


def test_open_connections_survive_restore_and_reset(server):
    client = h.make_client(server.endpoint)
    table = ch.hash_table(client)
    seed(client, table, 5)
    ch.ok(server.endpoint, "POST", "snapshots/five")
    url = urllib.parse.urlsplit(server.endpoint)
    # One raw keep-alive connection, used before and after each control call.
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)

    def list_tables():
        conn.request("POST", "/", body=b"{}", headers={
            "X-Amz-Target": "DynamoDB_20120810.ListTables", "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Date": "20260101T000000Z",
            "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/dynamodb/aws4_request, "
                             "SignedHeaders=host, Signature=00"})
        resp = conn.getresponse()
        assert resp.status == 200
        return json.loads(resp.read())["TableNames"]

    assert list_tables() == [table]
    ch.ok(server.endpoint, "POST", "reset")
    assert list_tables() == []
    assert client.list_tables()["TableNames"] == []
    ch.ok(server.endpoint, "POST", "snapshots/five/restore")
    assert list_tables() == [table]
    assert len(all_keys(client, table)) == 5
    conn.close()


def test_reset_every_region_one_region_or_keep_tables(server):
    east = h.make_client(server.endpoint)
    west = h.make_client(server.endpoint, region="us-west-2")
    streams = h.make_streams_client(server.endpoint)
    t_east = ch.hash_table(east, **GSI_TABLE)
    t_west = ch.hash_table(west)
    seed(east, t_east, 30)
    seed(west, t_west, 30)

    # Keep the tables, empty them: no items, no index entries, no counts, no stream records.
    answer = ch.ok(server.endpoint, "POST", "reset", {"keep_tables": True})
    assert answer["tables"] == 2
    assert east.list_tables()["TableNames"] == [t_east] and west.list_tables()["TableNames"] == [t_west]
    assert all_keys(east, t_east) == [] and all_keys(west, t_west) == []
    assert east.describe_table(TableName=t_east)["Table"]["ItemCount"] == 0
    assert gsi_count(east, t_east, "a") == 0
    assert stream_events(streams, east, t_east) == []
    seed(east, t_east, 3)
    assert east.describe_table(TableName=t_east)["Table"]["ItemCount"] == 3
    assert gsi_count(east, t_east, "a") == 3

    # One region.
    assert ch.ok(server.endpoint, "POST", "reset", {"region": "us-west-2"})["tables"] == 1
    assert west.list_tables()["TableNames"] == []
    assert east.list_tables()["TableNames"] == [t_east]
    assert len(all_keys(east, t_east)) == 3

    # Every region.
    ch.hash_table(west, name=t_west)
    assert ch.ok(server.endpoint, "POST", "reset")["tables"] == 2
    assert east.list_tables()["TableNames"] == [] and west.list_tables()["TableNames"] == []
    # Names are free again.
    ch.hash_table(east, name=t_east)
    assert all_keys(east, t_east) == []

    status, answer = ch.control(server.endpoint, "POST", "reset", {"regions": "x"})
    assert status == 400 and "unknown or mistyped member 'regions'" in answer["message"]


def test_restore_on_disk_persists_across_a_restart(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    client = h.make_client(server.endpoint)
    table = ch.hash_table(client)
    seed(client, table, 10)
    ch.ok(server.endpoint, "POST", "snapshots/ten")
    seed(client, table, 40)
    ch.ok(server.endpoint, "POST", "snapshots/ten/restore")
    server.stop()
    again = launch_dynamod(data_dir=data_dir)
    client = h.make_client(again.endpoint)
    assert len(all_keys(client, table)) == 10
    assert client.describe_table(TableName=table)["Table"]["ItemCount"] == 10
    # Snapshots live in the server's memory: a restart has none.
    assert ch.ok(again.endpoint, "GET", "snapshots") == {"snapshots": []}


def test_ten_thousand_items_snapshot_and_restore(server):
    client = h.make_client(server.endpoint)
    table = ch.hash_table(client, **{k: v for k, v in GSI_TABLE.items() if k != "StreamSpecification"})
    seed(client, table, 10000)
    taken = ch.ok(server.endpoint, "POST", "snapshots/big")
    assert taken["items"] == 10000
    ch.ok(server.endpoint, "POST", "reset", {"keep_tables": True})
    assert client.describe_table(TableName=table)["Table"]["ItemCount"] == 0
    restored = ch.ok(server.endpoint, "POST", "snapshots/big/restore")
    assert restored["items"] == 10000
    assert client.describe_table(TableName=table)["Table"]["ItemCount"] == 10000
    assert gsi_count(client, table, "a") == 10000
