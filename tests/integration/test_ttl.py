"""Time to Live: UpdateTimeToLive / DescribeTimeToLive (shapes, errors, the change cooldown) and,
on dynamod's own process, the expiry sweeper (`--ttl-interval SECONDS`).

Expected behaviour and texts come from the real service (sources per case in
/work/notes/errors-streams-ttl.md); DynamoDB Local deviations are marked.  On the service
expired items are deleted within days, so the sweeper tests only run against a dynamod they
start themselves (needs_own_server); they poll with bounded waits and prove that a sweep
happened by waiting for a later "sentinel" item to expire, never by sleeping.
"""
import time

import pytest

import dynamo_helpers as h
import stream_helpers as sh
from dynamo_helpers import expect_error
from stream_helpers import StreamReader, item_key

dev = pytest.mark.dynamodb_local_deviation
COOLDOWN = "Time to live has been modified multiple times within a fixed interval"
YEAR = 365 * 86400


def ttl_spec(attr, enabled=True):
    return {"Enabled": enabled, "AttributeName": attr}


def coral(old_path, new_path, value, rule):
    """Both 2026 Coral generations; value None is the 'Value null at' form."""
    head = "Value null at '%s'" % old_path if value is None else "Value '%s' at '%s'" % (value, old_path)
    return ["1 validation error detected: %s failed to satisfy constraint: %s" % (head, rule),
            "1 validation error detected: Value at '%s' failed to satisfy constraint: %s" % (new_path, rule)]


def wait_ttl_status(client, name, status, timeout=120):
    """The service may show ENABLING/DISABLING briefly (never observed in 2026 probes)."""
    return sh.poll(lambda: (lambda d: d if d["TimeToLiveStatus"] == status else None)(
        client.describe_time_to_live(TableName=name)["TimeToLiveDescription"]), timeout, "TTL " + status)


# ---------------------------------------------------------------- UpdateTimeToLive / DescribeTimeToLive


def test_describe_ttl_never_enabled(dynamodb, table):
    name = table("hash")
    assert dynamodb.describe_time_to_live(TableName=name)["TimeToLiveDescription"] == {"TimeToLiveStatus": "DISABLED"}


# The answer echoes the request's specification; DescribeTimeToLive then says ENABLED with the
# attribute; DescribeTable carries nothing about TTL.
def test_enable_ttl(dynamodb, table):
    name = table("hash")
    before = dynamodb.describe_table(TableName=name)["Table"]
    resp = dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("expires_at"))
    resp.pop("ResponseMetadata")
    assert resp == {"TimeToLiveSpecification": {"Enabled": True, "AttributeName": "expires_at"}}
    desc = wait_ttl_status(dynamodb, name, "ENABLED")
    assert desc == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires_at"}
    after = dynamodb.describe_table(TableName=name)["Table"]
    assert set(after) == set(before)


# Enabling again with the same attribute is refused even though it would change nothing.
def test_enable_again_same_attribute(dynamodb, table):
    name = table("hash")
    dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("exp"))
    expect_error(lambda: dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("exp")),
                 "ValidationException", "TimeToLive is already enabled")


# Only one TTL attribute per table: enabling another one, or disabling with a different name,
# names the current attribute.
@dev("no ': current AttributeName is <attr>' suffix")
@pytest.mark.parametrize("enabled", [True, False], ids=["enable-other", "disable-other"])
def test_other_attribute_while_enabled(dynamodb, table, enabled):
    name = table("hash")
    dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("exp"))
    expect_error(lambda: dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("other", enabled)),
                 "ValidationException", "TimeToLive is active on a different AttributeName: current AttributeName is exp")
    assert dynamodb.describe_time_to_live(TableName=name)["TimeToLiveDescription"]["AttributeName"] == "exp"


def test_disable_never_enabled(dynamodb, table):
    name = table("hash")
    expect_error(lambda: dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("exp", False)),
                 "ValidationException", "TimeToLive is already disabled")


# A second successful change within the cooldown (about 30 minutes measured; "up to one hour"
# documented) is refused; the content checks above come first.
@dev("no cooldown: the disable right after the enable succeeds")
def test_second_change_within_cooldown(dynamodb, table):
    name = table("hash")
    dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("exp"))
    wait_ttl_status(dynamodb, name, "ENABLED")
    expect_error(lambda: dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("exp", False)),
                 "ValidationException", COOLDOWN)
    assert dynamodb.describe_time_to_live(TableName=name)["TimeToLiveDescription"] == \
        {"TimeToLiveStatus": "ENABLED", "AttributeName": "exp"}


# Any attribute name may be chosen, key attributes included (an S key can never expire).
def test_ttl_on_key_attribute(dynamodb, table):
    name = table("range")
    dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("sk"))
    assert wait_ttl_status(dynamodb, name, "ENABLED")["AttributeName"] == "sk"


TTL_PATH = ("timeToLiveSpecification", "TimeToLiveSpecification")


@dev("own sentences ('AttributeName cannot be null when time to live is being enabled', "
     "'Names of key attributes ... between 1 and 255 characters, inclusive', 'TimeToLiveSpecification cannot be null')")
@pytest.mark.parametrize("spec, messages", [
    pytest.param({"Enabled": True}, coral(TTL_PATH[0] + ".attributeName", TTL_PATH[1] + ".AttributeName", None,
                                          "Member must not be null"), id="enable-no-attribute"),
    pytest.param({"Enabled": False}, coral(TTL_PATH[0] + ".attributeName", TTL_PATH[1] + ".AttributeName", None,
                                           "Member must not be null"), id="disable-no-attribute"),
    pytest.param({"AttributeName": "exp"}, coral(TTL_PATH[0] + ".enabled", TTL_PATH[1] + ".Enabled", None,
                                                 "Member must not be null"), id="no-enabled"),
    pytest.param({"Enabled": True, "AttributeName": ""},
                 coral(TTL_PATH[0] + ".attributeName", TTL_PATH[1] + ".AttributeName", "",
                       "Member must have length greater than or equal to 1"), id="empty-attribute"),
    pytest.param({"Enabled": True, "AttributeName": "x" * 256},
                 coral(TTL_PATH[0] + ".attributeName", TTL_PATH[1] + ".AttributeName", "x" * 256,
                       "Member must have length less than or equal to 255"), id="256-chars"),
    pytest.param(None, coral(TTL_PATH[0], TTL_PATH[1], None, "Member must not be null"), id="no-specification"),
])
def test_update_ttl_validation(unchecked, table, spec, messages):
    name = table("hash")
    kw = {"TableName": name}
    if spec is not None:
        kw["TimeToLiveSpecification"] = spec
    expect_error(lambda: unchecked.update_time_to_live(**kw), "ValidationException", messages)


# Enabled must be a JSON boolean (text not established).
@dev("500 InternalFailure")
def test_update_ttl_enabled_not_boolean(unchecked, table):
    name = table("hash")
    expect_error(lambda: unchecked.update_time_to_live(TableName=name, TimeToLiveSpecification={"Enabled": "dog", "AttributeName": "x"}),
                 "SerializationException")


@dev("message is 'Cannot do operations on a non-existent table'")
@pytest.mark.parametrize("op", ["describe", "update"])
def test_ttl_missing_table(dynamodb, op):
    name = h.unique_name("missing")
    call = (lambda: dynamodb.describe_time_to_live(TableName=name)) if op == "describe" else \
        (lambda: dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("exp")))
    expect_error(call, "ResourceNotFoundException",
                 ["Requested resource not found: Table: %s not found" % name, "Requested resource not found"])


# ---------------------------------------------------------------- the sweeper (own dynamod)


FAST = ["--ttl-interval", "0.2"]


def own_clients(server):
    return h.make_client(server.endpoint), h.make_streams_client(server.endpoint)


def make_table(client, schema=h.HASH_SCHEMA, **extra):
    name = h.unique_name("ttl")
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **dict(schema, **extra))
    h.wait_active(client, name)
    return name


def present(client, name, key):
    return "Item" in client.get_item(TableName=name, Key=key, ConsistentRead=True)


def wait_gone(client, name, key, timeout=15):
    sh.poll(lambda: not present(client, name, key), timeout, "expiry of %r" % (key,))


def sweep_passed(client, name, attr="exp", key_attrs=None):
    """Write an already-expired sentinel and wait until the sweeper removed it: every item
    written before it has been looked at since."""
    key = dict(key_attrs or {}, pk={"S": "sentinel-%f" % time.time()})
    client.put_item(TableName=name, Item=dict(key, **{attr: {"N": str(int(time.time()) - 10)}}))
    wait_gone(client, name, key)


# Which items expire: a top-level Number that is an epoch time in the past (integer, fraction or
# exponent notation), but not more than five years back.  Missing attribute, other types, nested
# values, far-past values and future values stay; so do items of tables without TTL.
@pytest.mark.needs_own_server
def test_sweeper_expires_only_past_numbers(launch_dynamod):
    server = launch_dynamod(args=FAST, in_memory=True)
    c, _ = own_clients(server)
    name = make_table(c)
    plain = make_table(c)
    now = int(time.time())
    k = lambda s: {"pk": {"S": s}}  # noqa: E731
    c.put_item(TableName=name, Item=dict(k("written-before-enable"), exp={"N": str(now - 60)}))
    c.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("exp"))
    expiring = {
        "past": {"N": str(now - 60)},
        "fraction": {"N": "%d.5" % (now - 60)},
        "exponent": {"N": "%de1" % ((now - 60) // 10)},
        "four-years-ago": {"N": str(now - 4 * YEAR)},
        "soon": {"N": str(now + 2)},
    }
    staying = {
        "future": {"N": str(now + 3600)},
        "far-future": {"N": "1e30"},
        "string": {"S": str(now - 60)},
        "number-set": {"NS": [str(now - 60)]},
        "list": {"L": [{"N": str(now - 60)}]},
        "map": {"M": {"exp": {"N": str(now - 60)}}},
        "bool": {"BOOL": True},
        "six-years-ago": {"N": str(now - 6 * YEAR)},
        "1975": {"N": "162777600"},
        "zero": {"N": "0"},
        "negative": {"N": "-1"},
    }
    for s, v in list(expiring.items()) + list(staying.items()):
        c.put_item(TableName=name, Item=dict(k(s), exp=v, other={"S": "x"}))
    c.put_item(TableName=name, Item=dict(k("no-attribute"), other={"N": str(now - 60)}))
    c.put_item(TableName=name, Item=dict(k("nested"), meta={"M": {"exp": {"N": str(now - 60)}}}))
    c.put_item(TableName=plain, Item=dict(k("table-without-ttl"), exp={"N": str(now - 60)}))

    for s in ["written-before-enable"] + list(expiring):
        wait_gone(c, name, k(s))
    sweep_passed(c, name)
    for s in list(staying) + ["no-attribute", "nested"]:
        assert present(c, name, k(s)), s
    assert present(c, plain, k("table-without-ttl"))


# A numeric key attribute can be the TTL attribute (ALT test_ttl_expiration_hash).
@pytest.mark.needs_own_server
def test_sweeper_ttl_on_partition_key(launch_dynamod):
    server = launch_dynamod(args=FAST, in_memory=True)
    c, _ = own_clients(server)
    name = make_table(c, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                      AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "N"}])
    c.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("pk"))
    now = int(time.time())
    past, future = {"pk": {"N": str(now - 60)}}, {"pk": {"N": str(now + 3600)}}
    c.put_item(TableName=name, Item=past)
    c.put_item(TableName=name, Item=future)
    wait_gone(c, name, past)
    sentinel = {"pk": {"N": str(now - 30)}}
    c.put_item(TableName=name, Item=sentinel)
    wait_gone(c, name, sentinel)
    assert present(c, name, future)


# With a sort key, a GSI and an LSI: the expired item leaves the table and both indexes; the
# other items of the same partition stay everywhere.
@pytest.mark.needs_own_server
def test_sweeper_range_table_and_indexes(launch_dynamod):
    server = launch_dynamod(args=FAST, in_memory=True)
    c, _ = own_clients(server)
    schema = dict(
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in ("pk", "sk", "g", "l")],
        GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}],
        LocalSecondaryIndexes=[{"IndexName": "lsi", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                                  {"AttributeName": "l", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    name = make_table(c, schema)
    c.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("exp"))
    now = int(time.time())
    gone = {"pk": {"S": "p"}, "sk": {"S": "expired"}}
    kept = {"pk": {"S": "p"}, "sk": {"S": "kept"}}
    c.put_item(TableName=name, Item=dict(gone, g={"S": "G"}, l={"S": "l1"}, exp={"N": str(now - 60)}))
    c.put_item(TableName=name, Item=dict(kept, g={"S": "G"}, l={"S": "l2"}, exp={"N": str(now + 3600)}))

    def keys(**kw):
        return sorted(it["sk"]["S"] for it in c.query(TableName=name, **kw)["Items"])
    gsi = dict(IndexName="gsi", KeyConditionExpression="g = :g", ExpressionAttributeValues={":g": {"S": "G"}})
    lsi = dict(IndexName="lsi", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}})
    base = dict(KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}}, ConsistentRead=True)
    wait_gone(c, name, gone)
    assert keys(**base) == ["kept"]
    sh.poll(lambda: keys(**gsi) == ["kept"], 15, "GSI entry removed")
    assert keys(ConsistentRead=True, **lsi) == ["kept"]
    assert c.scan(TableName=name, IndexName="lsi", ConsistentRead=True)["Count"] == 1


# A TTL deletion writes a REMOVE record with userIdentity {Type: Service, PrincipalId:
# dynamodb.amazonaws.com} and the old image per the view type; an ordinary DeleteItem has none.
@pytest.mark.needs_own_server
def test_sweeper_writes_remove_record_with_service_identity(launch_dynamod):
    server = launch_dynamod(args=FAST, in_memory=True)
    c, s = own_clients(server)
    name = make_table(c, StreamSpecification=sh.stream_spec("NEW_AND_OLD_IMAGES"))
    arn = c.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    c.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("exp"))
    expiring = {"pk": {"S": "e"}, "animal": {"S": "dog"}, "exp": {"N": str(int(time.time()) - 60)}}
    deleted = {"pk": {"S": "d"}}
    c.put_item(TableName=name, Item=expiring)
    c.put_item(TableName=name, Item=deleted)
    c.delete_item(TableName=name, Key=deleted)
    wait_gone(c, name, {"pk": {"S": "e"}})

    reader = StreamReader(s, arn)
    e = reader.read_until_key(item_key(pk={"S": "e"}), 2)
    d = reader.read_until_key(item_key(pk={"S": "d"}), 2)
    assert [r["eventName"] for r in e] == ["INSERT", "REMOVE"]
    insert, remove = e
    assert "userIdentity" not in insert
    assert remove["userIdentity"] == sh.TTL_IDENTITY
    assert remove["dynamodb"]["Keys"] == {"pk": {"S": "e"}}
    assert remove["dynamodb"]["OldImage"] == expiring and "NewImage" not in remove["dynamodb"]
    assert remove["dynamodb"]["SizeBytes"] == sh.images_size(remove)
    assert remove["eventSource"] == "aws:dynamodb" and remove["eventVersion"] == "1.1"
    assert int(remove["dynamodb"]["SequenceNumber"]) > int(insert["dynamodb"]["SequenceNumber"])
    assert [r["eventName"] for r in d] == ["INSERT", "REMOVE"]
    assert all("userIdentity" not in r for r in d)

    # On the wire the members are named as in the API model: PrincipalId and Type.
    shard_id, = [sid for sid, rs in reader.by_shard.items() if any(sh.key_of(r) == item_key(pk={"S": "e"}) for r in rs)]
    it = s.get_shard_iterator(StreamArn=arn, ShardId=shard_id, ShardIteratorType="AT_SEQUENCE_NUMBER",
                              SequenceNumber=remove["dynamodb"]["SequenceNumber"])["ShardIterator"]
    raw = h.raw_request(server.endpoint, "GetRecords", {"ShardIterator": it, "Limit": 1},
                        target_prefix="DynamoDBStreams_20120810.")
    assert raw.status == 200, raw
    assert raw.json["Records"][0]["userIdentity"] == {"PrincipalId": "dynamodb.amazonaws.com", "Type": "Service"}


# Until the sweeper gets to them, expired items are ordinary items: every read returns them.
@pytest.mark.needs_own_server
def test_expired_items_readable_until_swept(launch_dynamod):
    server = launch_dynamod(args=["--ttl-interval", "3600"], in_memory=True)
    c, _ = own_clients(server)
    name = make_table(c, h.RANGE_SCHEMA)
    c.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("exp"))
    item = {"pk": {"S": "p"}, "sk": {"N": "1"}, "exp": {"N": str(int(time.time()) - 3600)}}
    c.put_item(TableName=name, Item=item)
    key = {"pk": item["pk"], "sk": item["sk"]}
    assert c.get_item(TableName=name, Key=key, ConsistentRead=True)["Item"] == item
    assert c.get_item(TableName=name, Key=key)["Item"] == item
    assert c.query(TableName=name, KeyConditionExpression="pk = :p",
                   ExpressionAttributeValues={":p": item["pk"]})["Items"] == [item]
    assert c.scan(TableName=name)["Items"] == [item]
    assert c.batch_get_item(RequestItems={name: {"Keys": [key]}})["Responses"][name] == [item]
    assert c.describe_table(TableName=name)["Table"]["ItemCount"] == 1


# The TTL setting is part of the table: it survives a restart, and the sweeper of the new process
# expires items of tables enabled before it started.
@pytest.mark.needs_own_server
def test_ttl_setting_survives_restart(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    c, _ = own_clients(server)
    name = make_table(c)
    c.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl_spec("exp"))
    assert server.stop() == 0

    server = launch_dynamod(args=FAST, data_dir=data_dir)
    c, _ = own_clients(server)
    assert c.describe_time_to_live(TableName=name)["TimeToLiveDescription"] == \
        {"TimeToLiveStatus": "ENABLED", "AttributeName": "exp"}
    key = {"pk": {"S": "x"}}
    c.put_item(TableName=name, Item=dict(key, exp={"N": str(int(time.time()) - 60)}))
    wait_gone(c, name, key)
