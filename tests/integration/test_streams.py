"""DynamoDB Streams: StreamSpecification on CreateTable/UpdateTable, ListStreams, DescribeStream,
GetShardIterator, GetRecords, and which writes produce which records.

Expected behaviour and texts come from the real service (sources per case in
/work/notes/errors-streams-ttl.md); DynamoDB Local deviations are marked.  Every test uses
its own table(s), waits for the stream to be ENABLED and polls for records with bounded
waits, so it also holds on the service (where records arrive asynchronously and a table
may have several shards; only the records of one item are ordered).
"""
import datetime
import re
import time

import pytest
from botocore.exceptions import ClientError

import dynamo_helpers as h
import stream_helpers as sh
from dynamo_helpers import any_order, expect_error
from stream_helpers import INVALID, StreamReader, item_key

dev = pytest.mark.dynamodb_local_deviation
NOW = lambda: datetime.datetime.now(datetime.timezone.utc)  # noqa: E731
STREAM_ENUM = ["OLD_IMAGE", "KEYS_ONLY", "NEW_AND_OLD_IMAGES", "NEW_IMAGE"]


def coral_enum_re(old_path, new_path, value, members):
    """A Coral enum error in both 2026 generations, members in any order."""
    rule = r"Member must satisfy enum value set: \[" + any_order(members) + r"\]"
    return (r"1 validation error detected: Value (?:'%s' at '%s'|at '%s') failed to satisfy constraint: %s"
            % (re.escape(value), re.escape(old_path), re.escape(new_path), rule))


def coral_null(old_path, new_path, rule="Member must not be null"):
    return ["1 validation error detected: Value null at '%s' failed to satisfy constraint: %s" % (old_path, rule),
            "1 validation error detected: Value at '%s' failed to satisfy constraint: %s" % (new_path, rule)]


# ---------------------------------------------------------------- CreateTable / DescribeTable


# CreateTable with a stream answers StreamSpecification, LatestStreamArn and LatestStreamLabel;
# DescribeTable, ListStreams and DescribeStream all name the same stream.
def test_create_table_with_stream_description(dynamodb, dynamodbstreams, table):
    name = h.unique_name("st")
    before = NOW()
    desc = dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                                 StreamSpecification=sh.stream_spec("KEYS_ONLY"), **h.RANGE_SCHEMA)["TableDescription"]
    table.created.append(name)
    assert desc["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}
    arn, label = desc["LatestStreamArn"], desc["LatestStreamLabel"]
    m = re.fullmatch(sh.stream_arn_re(name), arn)
    assert m and m.group(1) == label, arn
    h.wait_active(dynamodb, name)
    td = dynamodb.describe_table(TableName=name)["Table"]
    assert td["StreamSpecification"] == desc["StreamSpecification"]
    assert (td["LatestStreamArn"], td["LatestStreamLabel"]) == (arn, label)
    assert arn == td["TableArn"] + "/stream/" + label

    sd = sh.wait_stream_status(dynamodbstreams, arn, "ENABLED")
    assert sd["StreamArn"] == arn and sd["StreamLabel"] == label
    assert sd["StreamViewType"] == "KEYS_ONLY"
    assert sd["TableName"] == name
    assert sd["KeySchema"] == h.RANGE_SCHEMA["KeySchema"]
    assert abs((sd["CreationRequestDateTime"] - before).total_seconds()) < 300
    assert sd["Shards"], sd
    assert "LastEvaluatedShardId" not in sd
    ids = [s["ShardId"] for s in sd["Shards"]]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    for shard in sd["Shards"]:
        assert re.fullmatch(r"shardId-\d{20}-[0-9a-f]{8}", shard["ShardId"]), shard
        assert 28 <= len(shard["ShardId"]) <= 65
        rng = shard["SequenceNumberRange"]
        assert rng["StartingSequenceNumber"].isdecimal() and 21 <= len(rng["StartingSequenceNumber"]) <= 40
    assert any("EndingSequenceNumber" not in s["SequenceNumberRange"] for s in sd["Shards"]), "no open shard"

    listed = dynamodbstreams.list_streams(TableName=name)
    assert listed["Streams"] == [{"StreamArn": arn, "TableName": name, "StreamLabel": label}]
    assert "LastEvaluatedStreamArn" not in listed


# DescribeStream's ShardFilter (CHILD_SHARDS of a shard): an open shard has no children yet (in
# dynamod no shard ever splits, so none has any), and a shard the stream does not have lists none
# either (DynamoDB Local). The filter's members are checked by the model (Type's enum, ShardId's
# length); a filter without Type is refused (DynamoDB Local's words; the service's unpublished).
def test_shard_filter_child_shards(dynamodb, dynamodbstreams, table):
    _, arn = sh.create_stream_table(dynamodb, dynamodbstreams, table, "KEYS_ONLY")
    shards = sh.list_shards(dynamodbstreams, arn)
    open_shard = next(s["ShardId"] for s in shards if "EndingSequenceNumber" not in s["SequenceNumberRange"])
    for shard_id in (open_shard, "shardId-00000001700000000000-0000abcd"):
        sd = dynamodbstreams.describe_stream(StreamArn=arn, ShardFilter={"Type": "CHILD_SHARDS", "ShardId": shard_id})
        assert sd["StreamDescription"]["Shards"] == [] and sd["StreamDescription"]["StreamArn"] == arn
        assert "LastEvaluatedShardId" not in sd["StreamDescription"]


@pytest.mark.parametrize("shard_filter,message", [
    pytest.param({"Type": "PARENT_SHARDS"}, "1 validation error detected: Value 'PARENT_SHARDS' at 'shardFilter.type' "
                 "failed to satisfy constraint: Member must satisfy enum value set: [CHILD_SHARDS]", id="wrong-type",
                 marks=dev("Value 'null' at 'shardFilter.type' ... Member must be CHILD_SHARDS")),
    pytest.param({"Type": "CHILD_SHARDS", "ShardId": "shardId-1"}, "1 validation error detected: Value 'shardId-1' at "
                 "'shardFilter.shardId' failed to satisfy constraint: Member must have length greater than or equal "
                 "to 28", id="short-shard-id"),
    pytest.param({"ShardId": "shardId-00000001700000000000-0000abcd"}, "1 validation error detected: Value 'null' at "
                 "'shardFilter.type' failed to satisfy constraint: Member must be CHILD_SHARDS", id="no-type"),
    pytest.param({}, "1 validation error detected: Value 'null' at 'shardFilter.type' failed to satisfy constraint: "
                 "Member must be CHILD_SHARDS", id="empty"),
])
def test_shard_filter_validation(dynamodb, dynamodbstreams, unchecked_streams, table, shard_filter, message):
    _, arn = sh.create_stream_table(dynamodb, dynamodbstreams, table, "KEYS_ONLY")
    expect_error(lambda: unchecked_streams.describe_stream(StreamArn=arn, ShardFilter=shard_filter),
                 "ValidationException", message)


# The ARN carries the client's region and a 12-digit account; the label is the creation time
# (UTC, milliseconds).
@dev("region 'ddblocal' and account 000000000000 in the stream ARN")
def test_stream_arn_region(dynamodb, dynamodbstreams, table):
    name, arn = sh.create_stream_table(dynamodb, dynamodbstreams, table, "KEYS_ONLY")
    m = re.fullmatch(sh.stream_arn_re(name, region="us-east-1"), arn)
    assert m, arn
    created = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc)
    assert abs((created - NOW()).total_seconds()) < 600


# StreamEnabled=false at creation: no StreamSpecification and no LatestStreamArn at all.
def test_create_table_stream_disabled(dynamodb, dynamodbstreams, table):
    name = table("hash", StreamSpecification={"StreamEnabled": False})
    td = dynamodb.describe_table(TableName=name)["Table"]
    for field in ("StreamSpecification", "LatestStreamArn", "LatestStreamLabel"):
        assert field not in td, field
    assert dynamodbstreams.list_streams(TableName=name)["Streams"] == []


CREATE_STREAM_ERRORS = [
    pytest.param({"StreamEnabled": True}, "ValidationException",
                 [INVALID + "Table is being created with a stream enabled, UpdateViewType is required"], None,
                 id="enabled-without-view-type",
                 marks=dev("'Invalid StreamViewType: Stream ViewType must not be null or empty when enabling streams.'")),
    pytest.param({"StreamEnabled": False, "StreamViewType": "NEW_IMAGE"}, "ValidationException",
                 [INVALID + "Table is being created with a stream disabled, UpdateViewType should not be specified"], None,
                 id="disabled-with-view-type",
                 marks=dev("'Invalid StreamViewType: Stream StreamEnabled was false but a StreamViewType was present.'")),
    pytest.param({"StreamViewType": "NEW_IMAGE"}, "ValidationException",
                 coral_null("streamSpecification.streamEnabled", "StreamSpecification.StreamEnabled"), None,
                 id="no-stream-enabled", marks=dev("'Stream StreamEnabled was null'")),
    pytest.param({"StreamEnabled": True, "StreamViewType": "new_image"}, "ValidationException", None,
                 coral_enum_re("streamSpecification.streamViewType", "StreamSpecification.StreamViewType",
                               "new_image", STREAM_ENUM),
                 id="lowercase-view-type", marks=dev("accepted; the stream gets StreamViewType UNKNOWN_TO_SDK_VERSION")),
]


@pytest.mark.parametrize("spec, code, messages, regex", CREATE_STREAM_ERRORS)
def test_create_table_stream_validation(unchecked, dynamodb, spec, code, messages, regex):
    name = h.unique_name("stv")
    try:
        expect_error(lambda: unchecked.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                                                    StreamSpecification=spec, **h.HASH_SCHEMA),
                     code, messages, regex=regex)
    finally:
        h.drop_table(dynamodb, name)


# ---------------------------------------------------------------- UpdateTable


# Enabling a stream on an existing table, disabling it (StreamSpecification disappears, the
# LatestStreamArn/Label stay), re-enabling (a NEW stream with a new ARN and label; the old one is
# DISABLED, still listed, still readable, its shard closed and read to the end).
def test_disable_and_reenable_creates_new_stream(dynamodb, dynamodbstreams, table):
    name = table("hash")
    key = {"pk": {"S": "a"}}
    up = dynamodb.update_table(TableName=name, StreamSpecification=sh.stream_spec("KEYS_ONLY"))["TableDescription"]
    assert up["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}
    old_arn, old_label = up["LatestStreamArn"], up["LatestStreamLabel"]
    assert re.fullmatch(sh.stream_arn_re(name), old_arn)
    h.wait_active(dynamodb, name)
    sh.wait_stream_status(dynamodbstreams, old_arn, "ENABLED")
    dynamodb.put_item(TableName=name, Item=dict(key, v={"S": "old"}))
    assert len(StreamReader(dynamodbstreams, old_arn).read_count(1)) == 1

    down = dynamodb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})["TableDescription"]
    assert "StreamSpecification" not in down
    h.wait_active(dynamodb, name)
    td = dynamodb.describe_table(TableName=name)["Table"]
    assert "StreamSpecification" not in td
    assert (td["LatestStreamArn"], td["LatestStreamLabel"]) == (old_arn, old_label)
    sd = sh.wait_stream_status(dynamodbstreams, old_arn, "DISABLED")
    for shard in sd["Shards"]:
        assert shard["SequenceNumberRange"]["EndingSequenceNumber"].isdecimal(), shard
    dynamodb.put_item(TableName=name, Item=dict(key, v={"S": "while disabled"}))

    up2 = dynamodb.update_table(TableName=name, StreamSpecification=sh.stream_spec("NEW_IMAGE"))["TableDescription"]
    new_arn, new_label = up2["LatestStreamArn"], up2["LatestStreamLabel"]
    assert new_arn != old_arn and new_label != old_label
    assert re.fullmatch(sh.stream_arn_re(name), new_arn)
    h.wait_active(dynamodb, name)
    sh.wait_stream_status(dynamodbstreams, new_arn, "ENABLED")
    dynamodb.put_item(TableName=name, Item=dict(key, v={"S": "new"}))

    listed = {s["StreamArn"]: s for s in dynamodbstreams.list_streams(TableName=name)["Streams"]}
    assert set(listed) == {old_arn, new_arn}
    assert listed[old_arn]["StreamLabel"] == old_label and listed[new_arn]["StreamLabel"] == new_label
    assert dynamodbstreams.describe_stream(StreamArn=old_arn)["StreamDescription"]["StreamStatus"] == "DISABLED"
    assert dynamodbstreams.describe_stream(StreamArn=new_arn)["StreamDescription"]["StreamViewType"] == "NEW_IMAGE"

    new_recs = StreamReader(dynamodbstreams, new_arn).read_count(1)
    assert [(r["eventName"], r["dynamodb"]["NewImage"]["v"]["S"]) for r in new_recs] == [("MODIFY", "new")]
    # The old stream still holds exactly its one record; its closed shard ends (no NextShardIterator).
    old = StreamReader(dynamodbstreams, old_arn)
    old.read_available()
    assert [(r["eventName"], r["dynamodb"]["Keys"]) for r in old.records] == [("INSERT", key)]
    assert all(it is None for it in old.iterators.values()), "closed shards must end without NextShardIterator"


# After DeleteTable the stream turns DISABLED but stays listed and readable (24 hours).
# A table made again under a deleted table's name has no stream unless it asks for one: the old
# table's stream is not its LatestStream (the service gives a re-created table a new stream).
@dev("reports the old table's LatestStreamArn and LatestStreamLabel")
def test_recreated_table_has_no_old_stream(dynamodb, dynamodbstreams, table):
    name, _ = sh.create_stream_table(dynamodb, dynamodbstreams, table, "KEYS_ONLY")
    dynamodb.delete_table(TableName=name)
    h.wait_gone(dynamodb, name)
    desc = dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **h.HASH_SCHEMA)["TableDescription"]
    try:
        h.wait_active(dynamodb, name)
        described = dynamodb.describe_table(TableName=name)["Table"]
        for field in ("StreamSpecification", "LatestStreamArn", "LatestStreamLabel"):
            assert field not in desc and field not in described, field
    finally:
        h.drop_table(dynamodb, name)


def test_stream_survives_table_deletion(dynamodb, dynamodbstreams, table):
    name, arn = sh.create_stream_table(dynamodb, dynamodbstreams, table, "NEW_AND_OLD_IMAGES")
    dynamodb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    StreamReader(dynamodbstreams, arn).read_count(1)
    dynamodb.delete_table(TableName=name)
    h.wait_gone(dynamodb, name)
    sd = sh.wait_stream_status(dynamodbstreams, arn, "DISABLED")
    assert sd["TableName"] == name
    assert arn in [s["StreamArn"] for s in dynamodbstreams.list_streams(TableName=name)["Streams"]]
    recs = StreamReader(dynamodbstreams, arn).read_count(1)
    assert [r["eventName"] for r in recs] == ["INSERT"]


def _update_stream_cases():
    same = "Table already has an enabled stream: TableName: {t}"
    return [
        pytest.param("KEYS_ONLY", {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}, [same], None,
                     id="enable-again-same-type", marks=dev("no ': TableName: <t>' suffix")),
        pytest.param("KEYS_ONLY", {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}, [same], None,
                     id="change-view-type", marks=dev("no ': TableName: <t>' suffix")),
        pytest.param(None, {"StreamEnabled": False}, ["Table has no stream to disable: TableName: {t}"], None,
                     id="disable-without-stream", marks=dev("no ': TableName: <t>' suffix")),
        pytest.param(None, {"StreamEnabled": True},
                     [INVALID + "If stream is being enabled then UpdateViewType is required"], None,
                     id="enable-without-view-type",
                     marks=dev("'Invalid StreamViewType: Stream ViewType must not be null or empty when enabling streams.'")),
        pytest.param("KEYS_ONLY", {"StreamEnabled": False, "StreamViewType": "KEYS_ONLY"},
                     [INVALID + "If stream is being disabled, then UpdateViewType must not be specified"], None,
                     id="disable-with-view-type",
                     marks=dev("'Invalid StreamViewType: Stream StreamEnabled was false but a StreamViewType was present.'")),
        pytest.param(None, {"StreamEnabled": True, "StreamViewType": "BOGUS"}, None,
                     coral_enum_re("streamSpecification.streamViewType", "StreamSpecification.StreamViewType",
                                   "BOGUS", STREAM_ENUM),
                     id="bad-view-type", marks=dev("accepted; stream with StreamViewType UNKNOWN_TO_SDK_VERSION")),
        pytest.param(None, {}, coral_null("streamSpecification.streamEnabled", "StreamSpecification.StreamEnabled"),
                     None, id="empty-spec", marks=dev("'Stream StreamEnabled was null'")),
    ]


@pytest.mark.parametrize("initial, spec, messages, regex", _update_stream_cases())
def test_update_table_stream_validation(unchecked, dynamodb, dynamodbstreams, table, initial, spec, messages, regex):
    if initial:
        name, _ = sh.create_stream_table(dynamodb, dynamodbstreams, table, initial)
    else:
        name = table("hash")
    msgs = [m.format(t=name) for m in messages] if messages else None
    expect_error(lambda: unchecked.update_table(TableName=name, StreamSpecification=spec),
                 "ValidationException", msgs, regex=regex)
    # Nothing changed.
    td = dynamodb.describe_table(TableName=name)["Table"]
    if initial:
        assert td["StreamSpecification"] == sh.stream_spec(initial)
    else:
        assert "StreamSpecification" not in td


# A stream change cannot ride along with a provisioned-throughput change.
# A stream change beside BillingMode PROVISIONED (even on a provisioned table) is refused like one
# beside units (ACKQ 382, 433, 442).
@dev("accepted")
def test_update_table_stream_with_billing_provisioned(dynamodb, table):
    name = table("hash", BillingMode="PROVISIONED", ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    expect_error(lambda: dynamodb.update_table(TableName=name, BillingMode="PROVISIONED", StreamSpecification={
        "StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}),
        "ValidationException", INVALID + "You cannot modify stream status while updating table IOPS")


# A stream change beside an index Create or Delete is refused (ACKQ 442).
@dev("accepted")
def test_update_table_stream_with_index_change(dynamodb, table):
    name = table("hash")
    expect_error(lambda: dynamodb.update_table(
        TableName=name, StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
        AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
        GlobalSecondaryIndexUpdates=[{"Create": {"IndexName": "gsg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                                 "Projection": {"ProjectionType": "ALL"}}}]),
        "ValidationException", INVALID + "You cannot create or delete index while changing stream status")


@dev("'Cannot change IOPS and Streams at the same time.'")
def test_update_table_stream_with_throughput(dynamodb, table):
    name = table("hash", BillingMode="PROVISIONED", ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    expect_error(lambda: dynamodb.update_table(TableName=name, ProvisionedThroughput={"ReadCapacityUnits": 2, "WriteCapacityUnits": 2},
                                               StreamSpecification=sh.stream_spec("KEYS_ONLY")),
                 "ValidationException", INVALID + "You cannot modify stream status while updating table IOPS")


# ---------------------------------------------------------------- records


# One item through INSERT, MODIFY (SET), MODIFY (replacing PutItem), MODIFY (REMOVE of every
# non-key attribute) and REMOVE, for each view type: exact Keys and images, envelope fields,
# SizeBytes, increasing sequence numbers, unique event ids.
@pytest.mark.parametrize("view_type", sh.VIEW_TYPES)
def test_records_per_view_type(dynamodb, dynamodbstreams, table, view_type):
    name, arn = sh.create_stream_table(dynamodb, dynamodbstreams, table, view_type, kind="range")
    key = {"pk": {"S": "a"}, "sk": {"N": "1"}}
    i1 = dict(key, x={"N": "1"}, s={"S": "one"}, b={"B": b"\x00\x01"})
    i2 = dict(i1, y={"L": [{"S": "p"}, {"N": "-2.5"}]})
    i3 = dict(key, z={"BOOL": True}, m={"M": {"k": {"SS": ["u", "v"]}, "n": {"NULL": True}}}, ns={"NS": ["1", "10"]})
    t0 = time.time()
    dynamodb.put_item(TableName=name, Item=i1)
    dynamodb.update_item(TableName=name, Key=key, UpdateExpression="SET y = :y",
                         ExpressionAttributeValues={":y": i2["y"]})
    dynamodb.put_item(TableName=name, Item=i3)
    dynamodb.update_item(TableName=name, Key=key, UpdateExpression="REMOVE z, m, ns")
    dynamodb.delete_item(TableName=name, Key=key)
    t1 = time.time()
    expected = [("INSERT", None, i1), ("MODIFY", i1, i2), ("MODIFY", i2, i3), ("MODIFY", i3, key), ("REMOVE", key, None)]

    recs = StreamReader(dynamodbstreams, arn).read_until_key(item_key(**key), len(expected))
    assert [r["eventName"] for r in recs] == [e[0] for e in expected]
    for rec, (event, old, new) in zip(recs, expected):
        sh.check_record_envelope(rec, view_type)
        assert rec["dynamodb"]["Keys"] == key
        assert sh.record_images(rec) == sh.expected_images(view_type, event, old, new), event
        created = rec["dynamodb"]["ApproximateCreationDateTime"].timestamp()
        assert t0 - 61 <= created <= t1 + 1, (created, t0, t1)
    assert sh.strictly_increasing(sh.seq_ints(recs))
    assert len({r["eventID"] for r in recs}) == len(recs)


# awsRegion is the region the client used; ApproximateCreationDateTime is whole seconds close to
# the write (the service rounds down to the second).
@dev("awsRegion is 'ddblocal'; ApproximateCreationDateTime rounded down to the minute")
def test_record_region_and_time(dynamodb, dynamodbstreams, table):
    name, arn = sh.create_stream_table(dynamodb, dynamodbstreams, table, "KEYS_ONLY")
    t0 = time.time()
    dynamodb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    t1 = time.time()
    rec, = StreamReader(dynamodbstreams, arn).read_count(1)
    assert rec["awsRegion"] == h.REGION
    created = rec["dynamodb"]["ApproximateCreationDateTime"]
    assert created.microsecond == 0
    assert int(t0) - 1 <= created.timestamp() <= t1 + 1, (created, t0, t1)


# Writes that change nothing leave no record: an identical PutItem, an UpdateItem setting a value
# it already has, removing an absent attribute, adding a set element already there, a DeleteItem of
# a missing item, and failed conditional writes.  Checked per item: a later real change of the
# same item must be the next record after the first one.
def test_no_record_for_writes_that_change_nothing(dynamodb, dynamodbstreams, table):
    name, arn = sh.create_stream_table(dynamodb, dynamodbstreams, table, "NEW_AND_OLD_IMAGES")
    ka, kb = {"pk": {"S": "a"}}, {"pk": {"S": "b"}}
    item = dict(ka, x={"N": "1"}, ss={"SS": ["p", "q"]}, s={"S": "v"})
    dynamodb.put_item(TableName=name, Item=item)
    dynamodb.put_item(TableName=name, Item=item)
    dynamodb.update_item(TableName=name, Key=ka, UpdateExpression="SET x = :x", ExpressionAttributeValues={":x": {"N": "1"}})
    dynamodb.update_item(TableName=name, Key=ka, UpdateExpression="SET s = s")
    dynamodb.update_item(TableName=name, Key=ka, UpdateExpression="REMOVE nothere")
    dynamodb.update_item(TableName=name, Key=ka, UpdateExpression="ADD ss :e", ExpressionAttributeValues={":e": {"SS": ["p"]}})
    for call in (lambda: dynamodb.put_item(TableName=name, Item=dict(ka, x={"N": "9"}), ConditionExpression="attribute_not_exists(pk)"),
                 lambda: dynamodb.delete_item(TableName=name, Key=ka, ConditionExpression="x = :v",
                                              ExpressionAttributeValues={":v": {"N": "9"}}),
                 lambda: dynamodb.update_item(TableName=name, Key=kb, UpdateExpression="SET x = :v",
                                              ConditionExpression="attribute_exists(pk)",
                                              ExpressionAttributeValues={":v": {"N": "1"}})):
        expect_error(call, "ConditionalCheckFailedException")
    dynamodb.delete_item(TableName=name, Key=kb)
    # the real changes that follow
    dynamodb.update_item(TableName=name, Key=ka, UpdateExpression="SET x = :x", ExpressionAttributeValues={":x": {"N": "2"}})
    dynamodb.put_item(TableName=name, Item=dict(kb, y={"S": "first"}))

    reader = StreamReader(dynamodbstreams, arn)
    recs_a = reader.read_until_key(item_key(**ka), 2)
    recs_b = reader.read_until_key(item_key(**kb), 1)
    assert [r["eventName"] for r in recs_a] == ["INSERT", "MODIFY"]
    assert recs_a[1]["dynamodb"]["OldImage"] == item
    assert recs_a[1]["dynamodb"]["NewImage"] == dict(item, x={"N": "2"})
    assert [r["eventName"] for r in recs_b] == ["INSERT"]
    assert recs_b[0]["dynamodb"]["NewImage"] == dict(kb, y={"S": "first"})
    assert len(reader.records) == 3, [r["eventName"] for r in reader.records]


# A long run of changes to one item comes out in write order: sequence numbers increase and each
# record's OldImage is the previous record's NewImage.
def test_records_of_one_item_are_ordered(dynamodb, dynamodbstreams, table):
    name, arn = sh.create_stream_table(dynamodb, dynamodbstreams, table, "NEW_AND_OLD_IMAGES")
    key = {"pk": {"S": "counter"}}
    n = 12
    dynamodb.put_item(TableName=name, Item=dict(key, c={"N": "0"}))
    for i in range(1, n):
        dynamodb.update_item(TableName=name, Key=key, UpdateExpression="ADD c :one",
                             ExpressionAttributeValues={":one": {"N": "1"}})
    recs = StreamReader(dynamodbstreams, arn).read_until_key(item_key(**key), n)
    assert [r["dynamodb"]["NewImage"]["c"]["N"] for r in recs] == [str(i) for i in range(n)]
    for prev, cur in zip(recs, recs[1:]):
        assert cur["dynamodb"]["OldImage"] == prev["dynamodb"]["NewImage"]
    assert sh.strictly_increasing(sh.seq_ints(recs))


# BatchWriteItem: one record per item actually changed (a delete of a missing item has none).
def test_batch_write_gives_one_record_per_item(dynamodb, dynamodbstreams, table):
    name, arn = sh.create_stream_table(dynamodb, dynamodbstreams, table, "NEW_AND_OLD_IMAGES")
    k = lambda s: {"pk": {"S": s}}  # noqa: E731
    dynamodb.batch_write_item(RequestItems={name: [{"PutRequest": {"Item": k("b%d" % i)}} for i in range(3)]})
    dynamodb.batch_write_item(RequestItems={name: [
        {"PutRequest": {"Item": dict(k("b0"), v={"S": "x"})}},
        {"DeleteRequest": {"Key": k("b1")}},
        {"DeleteRequest": {"Key": k("missing")}},
    ]})
    dynamodb.put_item(TableName=name, Item=k("missing"))  # marks the end for that key
    reader = StreamReader(dynamodbstreams, arn)
    b0 = reader.read_until_key(item_key(**k("b0")), 2)
    b1 = reader.read_until_key(item_key(**k("b1")), 2)
    b2 = reader.read_until_key(item_key(**k("b2")), 1)
    missing = reader.read_until_key(item_key(**k("missing")), 1)
    assert [r["eventName"] for r in b0] == ["INSERT", "MODIFY"]
    assert b0[1]["dynamodb"]["OldImage"] == k("b0") and b0[1]["dynamodb"]["NewImage"] == dict(k("b0"), v={"S": "x"})
    assert [r["eventName"] for r in b1] == ["INSERT", "REMOVE"]
    assert b1[1]["dynamodb"]["OldImage"] == k("b1") and "NewImage" not in b1[1]["dynamodb"]
    assert [r["eventName"] for r in b2] == ["INSERT"]
    assert [r["eventName"] for r in missing] == ["INSERT"]
    assert len(reader.records) == 6


# TransactWriteItems: one record per Put/Update/Delete; a ConditionCheck writes nothing and a
# cancelled transaction writes nothing at all.
def test_transaction_gives_one_record_per_item(dynamodb, dynamodbstreams, table):
    name, arn = sh.create_stream_table(dynamodb, dynamodbstreams, table, "NEW_AND_OLD_IMAGES")
    k = lambda s: {"pk": {"S": s}}  # noqa: E731
    dynamodb.put_item(TableName=name, Item=dict(k("u"), n={"N": "1"}))
    dynamodb.put_item(TableName=name, Item=k("d"))
    dynamodb.transact_write_items(TransactItems=[
        {"Put": {"TableName": name, "Item": dict(k("p"), v={"S": "new"})}},
        {"Update": {"TableName": name, "Key": k("u"), "UpdateExpression": "SET n = :n",
                    "ExpressionAttributeValues": {":n": {"N": "2"}}}},
        {"Delete": {"TableName": name, "Key": k("d")}},
        {"ConditionCheck": {"TableName": name, "Key": k("cc"), "ConditionExpression": "attribute_not_exists(pk)"}},
    ])
    with pytest.raises(ClientError) as info:
        dynamodb.transact_write_items(TransactItems=[
            {"Put": {"TableName": name, "Item": k("cancelled")}},
            {"ConditionCheck": {"TableName": name, "Key": k("p"), "ConditionExpression": "attribute_not_exists(pk)"}},
        ])
    assert h.error_of(info.value)[0] == "TransactionCanceledException"
    for s in ("cc", "cancelled"):  # mark the end for keys that must have no earlier record
        dynamodb.put_item(TableName=name, Item=dict(k(s), marker={"BOOL": True}))

    reader = StreamReader(dynamodbstreams, arn)
    p = reader.read_until_key(item_key(**k("p")), 1)
    u = reader.read_until_key(item_key(**k("u")), 2)
    d = reader.read_until_key(item_key(**k("d")), 2)
    cc = reader.read_until_key(item_key(**k("cc")), 1)
    cancelled = reader.read_until_key(item_key(**k("cancelled")), 1)
    assert [(r["eventName"], r["dynamodb"].get("NewImage")) for r in p] == [("INSERT", dict(k("p"), v={"S": "new"}))]
    assert [r["eventName"] for r in u] == ["INSERT", "MODIFY"]
    assert u[1]["dynamodb"]["OldImage"]["n"] == {"N": "1"} and u[1]["dynamodb"]["NewImage"]["n"] == {"N": "2"}
    assert [r["eventName"] for r in d] == ["INSERT", "REMOVE"]
    assert [r["dynamodb"]["NewImage"] for r in cc] == [dict(k("cc"), marker={"BOOL": True})]
    assert [r["dynamodb"]["NewImage"] for r in cancelled] == [dict(k("cancelled"), marker={"BOOL": True})]
    assert len(reader.records) == 7


# ---------------------------------------------------------------- iterators and paging


@pytest.fixture
def five_changes(dynamodb, dynamodbstreams, table):
    """A KEYS_ONLY stream with five records of ONE item (so they share a shard, in order).
    Returns (table, arn, shard id, shard description, the five records)."""
    name, arn = sh.create_stream_table(dynamodb, dynamodbstreams, table, "KEYS_ONLY")
    key = {"pk": {"S": "k"}}
    for i in range(5):
        dynamodb.put_item(TableName=name, Item=dict(key, v={"N": str(i)}))
    reader = StreamReader(dynamodbstreams, arn)
    recs = reader.read_until_key(item_key(**key), 5)
    shard_id, = [sid for sid, rs in reader.by_shard.items() if rs]
    shard, = [s for s in sh.list_shards(dynamodbstreams, arn) if s["ShardId"] == shard_id]
    assert [r["eventName"] for r in recs] == ["INSERT"] + ["MODIFY"] * 4
    return name, arn, shard_id, shard, recs


def _iterator(streams, arn, shard_id, kind, seq=None):
    kw = dict(StreamArn=arn, ShardId=shard_id, ShardIteratorType=kind)
    if seq is not None:
        kw["SequenceNumber"] = seq
    it = streams.get_shard_iterator(**kw)["ShardIterator"]
    assert isinstance(it, str) and 1 <= len(it) <= 2048
    return it


def _seqs(records):
    return [r["dynamodb"]["SequenceNumber"] for r in records]


def test_iterator_types(dynamodb, dynamodbstreams, five_changes):
    name, arn, shard_id, shard, recs = five_changes
    seqs = _seqs(recs)
    get = lambda it: dynamodbstreams.get_records(ShardIterator=it)  # noqa: E731

    trim = get(_iterator(dynamodbstreams, arn, shard_id, "TRIM_HORIZON"))
    assert _seqs(trim["Records"]) == seqs
    at = get(_iterator(dynamodbstreams, arn, shard_id, "AT_SEQUENCE_NUMBER", seqs[2]))
    assert _seqs(at["Records"]) == seqs[2:]
    after = get(_iterator(dynamodbstreams, arn, shard_id, "AFTER_SEQUENCE_NUMBER", seqs[2]))
    assert _seqs(after["Records"]) == seqs[3:]
    at_start = get(_iterator(dynamodbstreams, arn, shard_id, "AT_SEQUENCE_NUMBER",
                             shard["SequenceNumberRange"]["StartingSequenceNumber"]))
    assert _seqs(at_start["Records"]) == seqs
    # At the end of an open shard: no records, but a NextShardIterator to keep polling.
    end = get(_iterator(dynamodbstreams, arn, shard_id, "AFTER_SEQUENCE_NUMBER", seqs[-1]))
    assert end["Records"] == [] and end["NextShardIterator"]
    latest = get(_iterator(dynamodbstreams, arn, shard_id, "LATEST"))
    assert latest["Records"] == [] and latest["NextShardIterator"]

    # LATEST and the end-of-shard iterator both see the next write of the same item.
    dynamodb.put_item(TableName=name, Item={"pk": {"S": "k"}, "v": {"N": "5"}})
    for it in (latest["NextShardIterator"], end["NextShardIterator"]):
        page = sh.poll(lambda: get(it)["Records"], 60, "record after LATEST")
        assert len(page) == 1 and int(page[0]["dynamodb"]["SequenceNumber"]) > int(seqs[-1])


def test_limit_and_next_shard_iterator(dynamodbstreams, five_changes):
    name, arn, shard_id, shard, recs = five_changes
    first = _iterator(dynamodbstreams, arn, shard_id, "TRIM_HORIZON")
    it, pages = first, []
    for _ in range(10):
        resp = dynamodbstreams.get_records(ShardIterator=it, Limit=2)
        pages.append(_seqs(resp["Records"]))
        it = resp["NextShardIterator"]
        if not resp["Records"]:
            break
    assert pages == [_seqs(recs)[0:2], _seqs(recs)[2:4], _seqs(recs)[4:5], []]
    # An iterator is a position: using it again reads the same records.
    assert _seqs(dynamodbstreams.get_records(ShardIterator=first, Limit=1)["Records"]) == _seqs(recs)[:1]
    assert _seqs(dynamodbstreams.get_records(ShardIterator=first, Limit=1000)["Records"]) == _seqs(recs)


@pytest.mark.parametrize("limit", [0, -1, 1001])
def test_get_records_limit_bounds(unchecked_streams, five_changes, limit):
    name, arn, shard_id, shard, recs = five_changes
    it = _iterator(unchecked_streams, arn, shard_id, "TRIM_HORIZON")
    if limit < 1:
        expect_error(lambda: unchecked_streams.get_records(ShardIterator=it, Limit=limit), "ValidationException",
                     h.coral_either("limit", "Limit", limit, "Member must have value greater than or equal to 1"))
    else:  # above the maximum: the text is not established (see the catalogue)
        expect_error(lambda: unchecked_streams.get_records(ShardIterator=it, Limit=limit), "ValidationException",
                     regex=r"(?s).*[Ll]imit.*")


# A malformed iterator is refused with a ValidationException (exact text not established).
def test_get_records_malformed_iterator(dynamodbstreams):
    expect_error(lambda: dynamodbstreams.get_records(ShardIterator="sdfsdfsgagaddafgagasgasgasdfasdfasdfasdfasdgasdasdgasdg"),
                 "ValidationException")


@dev("'Invalid ShardIterator' instead of the Coral length constraint")
@pytest.mark.parametrize("iterator, rule", [
    ("", "Member must have length greater than or equal to 1"),
    ("x" * 2049, "Member must have length less than or equal to 2048"),
], ids=["empty", "2049-chars"])
def test_get_records_iterator_length(unchecked_streams, iterator, rule):
    expect_error(lambda: unchecked_streams.get_records(ShardIterator=iterator), "ValidationException",
                 regex=r"1 validation error detected: Value (?:'%s' )?at '(?:shardIterator|ShardIterator)' "
                       r"failed to satisfy constraint: %s" % (re.escape(iterator), re.escape(rule)))


# GetShardIterator: SequenceNumber is required for AT/AFTER and refused for TRIM_HORIZON/LATEST.
@pytest.mark.parametrize("kind, with_seq", [
    ("AT_SEQUENCE_NUMBER", False), ("AFTER_SEQUENCE_NUMBER", False), ("TRIM_HORIZON", True), ("LATEST", True)])
def test_get_shard_iterator_sequence_number_rules(dynamodbstreams, five_changes, kind, with_seq):
    name, arn, shard_id, shard, recs = five_changes
    kw = dict(StreamArn=arn, ShardId=shard_id, ShardIteratorType=kind)
    if with_seq:
        kw["SequenceNumber"] = recs[0]["dynamodb"]["SequenceNumber"]
    expect_error(lambda: dynamodbstreams.get_shard_iterator(**kw), "ValidationException")


@dev("500 InternalFailure for an unknown ShardIteratorType")
def test_get_shard_iterator_bad_type(unchecked_streams, five_changes):
    name, arn, shard_id, shard, recs = five_changes
    expect_error(lambda: unchecked_streams.get_shard_iterator(StreamArn=arn, ShardId=shard_id, ShardIteratorType="BOGUS"),
                 "ValidationException",
                 regex=coral_enum_re("shardIteratorType", "ShardIteratorType", "BOGUS",
                                     ["TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"]))


def test_get_shard_iterator_sequence_number_length(unchecked_streams, five_changes):
    name, arn, shard_id, shard, recs = five_changes
    expect_error(lambda: unchecked_streams.get_shard_iterator(StreamArn=arn, ShardId=shard_id,
                                                              ShardIteratorType="AT_SEQUENCE_NUMBER", SequenceNumber="1"),
                 "ValidationException",
                 h.coral_either("sequenceNumber", "SequenceNumber", "1", "Member must have length greater than or equal to 21"))


@dev("message is 'Shard does not exist'")
def test_get_shard_iterator_unknown_shard(dynamodbstreams, five_changes):
    name, arn, shard_id, shard, recs = five_changes
    expect_error(lambda: dynamodbstreams.get_shard_iterator(StreamArn=arn, ShardId="shardId-00000000000000000000-00000000",
                                                            ShardIteratorType="LATEST"),
                 "ResourceNotFoundException", "Requested resource not found: Shard does not exist")


def test_get_shard_iterator_unknown_stream(dynamodbstreams, five_changes):
    name, arn, shard_id, shard, recs = five_changes
    other = arn.replace(":table/%s/" % name, ":table/%s/" % h.unique_name("nope"))
    assert other != arn
    expect_error(lambda: dynamodbstreams.get_shard_iterator(StreamArn=other, ShardId=shard_id, ShardIteratorType="LATEST"),
                 "ResourceNotFoundException")


# ---------------------------------------------------------------- ListStreams / DescribeStream


def test_list_streams_paging(dynamodb, dynamodbstreams, table):
    names = [sh.create_stream_table(dynamodb, dynamodbstreams, table, "KEYS_ONLY")[0] for _ in range(2)]
    arns = {dynamodb.describe_table(TableName=n)["Table"]["LatestStreamArn"]: n for n in names}
    seen, kw = [], {"Limit": 1}
    for _ in range(10000):
        page = dynamodbstreams.list_streams(**kw)
        assert len(page["Streams"]) <= 1
        seen.extend(page["Streams"])
        if "LastEvaluatedStreamArn" not in page:
            break
        assert page["Streams"] and page["LastEvaluatedStreamArn"] == page["Streams"][-1]["StreamArn"]
        kw["ExclusiveStartStreamArn"] = page["LastEvaluatedStreamArn"]
    mine = [s for s in seen if s["StreamArn"] in arns]
    assert sorted(s["StreamArn"] for s in mine) == sorted(arns)
    for s in mine:
        assert s["TableName"] == arns[s["StreamArn"]]
        assert s["StreamArn"].endswith("/stream/" + s["StreamLabel"])


def test_list_streams_table_without_stream(dynamodbstreams, hash_table):
    assert dynamodbstreams.list_streams(TableName=hash_table)["Streams"] == []


@pytest.mark.parametrize("limit", [0, 101])
def test_list_streams_limit_bounds(unchecked_streams, limit):
    if limit < 1:
        expect_error(lambda: unchecked_streams.list_streams(Limit=limit), "ValidationException",
                     h.coral_either("limit", "Limit", limit, "Member must have value greater than or equal to 1"))
    else:
        expect_error(lambda: unchecked_streams.list_streams(Limit=limit), "ValidationException", regex=r"(?s).*[Ll]imit.*")


@dev("a malformed ExclusiveStartStreamArn gives an empty list")
def test_list_streams_malformed_exclusive_start(dynamodbstreams, hash_table):
    expect_error(lambda: dynamodbstreams.list_streams(TableName=hash_table,
                                                      ExclusiveStartStreamArn="kossaapaaasdafsdaasdasdasdasasdasfadfadfasdasdas"),
                 "ValidationException")


@dev("own handling: an empty list instead of the Coral pattern error")
def test_list_streams_bad_table_name(unchecked_streams):
    expect_error(lambda: unchecked_streams.list_streams(TableName="bad name!"), "ValidationException",
                 ["1 validation error detected: Value 'bad name!' at 'tableName' failed to satisfy constraint: "
                  "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"])


def test_describe_stream_paging(dynamodbstreams, five_changes):
    name, arn, shard_id, shard, recs = five_changes
    shards = sh.list_shards(dynamodbstreams, arn, limit=1)
    ids = [s["ShardId"] for s in shards]
    assert shard_id in ids and ids == sorted(ids) and len(set(ids)) == len(ids)
    # Starting after the last shard, or after an id beyond every shard id: no shards.
    for start in (ids[-1], "shardId-99999999999999999999-ffffffff"):
        assert dynamodbstreams.describe_stream(StreamArn=arn, ExclusiveStartShardId=start)["StreamDescription"]["Shards"] == []


@pytest.mark.parametrize("limit", [0, 101])
def test_describe_stream_limit_bounds(unchecked_streams, five_changes, limit):
    name, arn, shard_id, shard, recs = five_changes
    if limit < 1:
        expect_error(lambda: unchecked_streams.describe_stream(StreamArn=arn, Limit=limit), "ValidationException",
                     h.coral_either("limit", "Limit", limit, "Member must have value greater than or equal to 1"))
    else:
        expect_error(lambda: unchecked_streams.describe_stream(StreamArn=arn, Limit=limit), "ValidationException",
                     regex=r"(?s).*[Ll]imit.*")


# A well-formed ARN of a stream that does not exist.
def test_describe_stream_unknown(dynamodbstreams, dynamodb, hash_table):
    table_arn = dynamodb.describe_table(TableName=hash_table)["Table"]["TableArn"]
    arn = table_arn + "/stream/2020-01-01T00:00:00.000"
    expect_error(lambda: dynamodbstreams.describe_stream(StreamArn=arn), "ResourceNotFoundException",
                 "Requested resource not found: Stream: %s not found" % arn)


@dev("ResourceNotFoundException 'Requested resource not found: Stream: <x> not found' for a malformed ARN")
def test_describe_stream_malformed_arn(dynamodbstreams):
    expect_error(lambda: dynamodbstreams.describe_stream(StreamArn="sdfadfsdfnlfkajakfgjalksfgklasjklasdjfklasdfasdfgasf"),
                 "ValidationException")


# ---------------------------------------------------------------- own server: restarts


def _own_clients(server):
    return h.make_client(server.endpoint), h.make_streams_client(server.endpoint)


# A consumer follows a shard across a clean restart of dynamod with a --data-dir: the stream
# (ARN, label, shards) is the same, records written before the restart are still there, the
# NextShardIterator the consumer held keeps working, and new records get larger sequence numbers.
@pytest.mark.needs_own_server
def test_consumer_follows_shard_across_restart(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    c, s = _own_clients(server)
    name = h.unique_name("strestart")
    arn = c.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", StreamSpecification=sh.stream_spec("NEW_IMAGE"),
                         **h.HASH_SCHEMA)["TableDescription"]["LatestStreamArn"]
    h.wait_active(c, name)
    sh.wait_stream_status(s, arn, "ENABLED")
    key = {"pk": {"S": "k"}}
    for i in range(3):
        c.put_item(TableName=name, Item=dict(key, v={"N": str(i)}))
    shards_before = sh.list_shards(s, arn)
    reader = StreamReader(s, arn)
    before = reader.read_until_key(item_key(**key), 3)
    shard_id, = [sid for sid, rs in reader.by_shard.items() if rs]
    # The consumer has read the first two records and holds the next iterator.
    page = s.get_records(ShardIterator=s.get_shard_iterator(StreamArn=arn, ShardId=shard_id,
                                                            ShardIteratorType="TRIM_HORIZON")["ShardIterator"], Limit=2)
    assert _seqs(page["Records"]) == _seqs(before)[:2]
    held = page["NextShardIterator"]
    assert server.stop() == 0

    server = launch_dynamod(data_dir=data_dir)
    c, s = _own_clients(server)
    td = c.describe_table(TableName=name)["Table"]
    assert td["LatestStreamArn"] == arn and td["StreamSpecification"] == sh.stream_spec("NEW_IMAGE")
    assert sh.list_shards(s, arn) == shards_before
    page = s.get_records(ShardIterator=held)
    assert _seqs(page["Records"]) == _seqs(before)[2:]
    for i in range(3, 5):
        c.put_item(TableName=name, Item=dict(key, v={"N": str(i)}))
    page2 = s.get_records(ShardIterator=page["NextShardIterator"])
    assert [r["dynamodb"]["NewImage"]["v"]["N"] for r in page2["Records"]] == ["3", "4"]
    everything = s.get_records(ShardIterator=s.get_shard_iterator(StreamArn=arn, ShardId=shard_id,
                                                                  ShardIteratorType="TRIM_HORIZON")["ShardIterator"])
    assert [r["dynamodb"]["NewImage"]["v"]["N"] for r in everything["Records"]] == ["0", "1", "2", "3", "4"]
    assert sh.strictly_increasing(sh.seq_ints(everything["Records"]))
    assert _seqs(everything["Records"])[:3] == _seqs(before)
    assert len({r["eventID"] for r in everything["Records"]}) == 5


# Every write acknowledged before kill -9 has its stream record after the restart (the record is
# committed with the item), and a disabled stream stays DISABLED and readable.
@pytest.mark.needs_own_server
def test_stream_records_survive_kill9(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    c, s = _own_clients(server)
    name = h.unique_name("stkill")
    arn = c.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", StreamSpecification=sh.stream_spec("KEYS_ONLY"),
                         **h.HASH_SCHEMA)["TableDescription"]["LatestStreamArn"]
    h.wait_active(c, name)
    for i in range(40):
        c.put_item(TableName=name, Item={"pk": {"S": "k%d" % i}})
    c.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    h.wait_active(c, name)
    server.kill9()

    server = launch_dynamod(data_dir=data_dir)
    c, s = _own_clients(server)
    sd = s.describe_stream(StreamArn=arn)["StreamDescription"]
    assert sd["StreamStatus"] == "DISABLED"
    assert "StreamSpecification" not in c.describe_table(TableName=name)["Table"]
    recs = StreamReader(s, arn).read_count(40)
    assert sorted(r["dynamodb"]["Keys"]["pk"]["S"] for r in recs) == sorted("k%d" % i for i in range(40))
    assert all(r["eventName"] == "INSERT" for r in recs)
