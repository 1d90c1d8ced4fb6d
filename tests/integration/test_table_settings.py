"""Settings infrastructure tools write and read back (issue 32 item 1): OnDemandThroughput
(MaxReadRequestUnits / MaxWriteRequestUnits, -1 for no maximum), WarmThroughput (what a table or
GSI serves at once, with a Status Terraform waits on) and SSESpecification -> SSEDescription.

Sources per behaviour in docs/service-fidelity.md ("Table settings"). DynamoDB Local (2026)
describes none of the three and ignores them on input, so the read-back tests are marked.
"""
import re

import pytest

import dynamo_helpers as h
import report_helpers as rh
from dynamo_helpers import check_error, expect_error
from index_helpers import ad, ks
from partiql_helpers import dynamod_only
from report_helpers import S

dev = pytest.mark.dynamodb_local_deviation
LOCAL = "DynamoDB Local describes no OnDemandThroughput, WarmThroughput or SSEDescription"
VE = "ValidationException"
INVALID = "One or more parameter values were invalid: "
ON_DEMAND_INDEX_MSG = ("Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB is "
                       "automatically scaling your index so please try again shortly.")
KEY_ARN_RE = r"arn:aws:kms:us-east-1:\d{12}:key/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def create(dynamodb, tag, **params):
    name = h.unique_name(tag)
    args = dict(h.HASH_SCHEMA, TableName=name)
    args.setdefault("BillingMode", "PAY_PER_REQUEST")
    args.update(params)
    dynamodb.create_table(**args)
    h.wait_active(dynamodb, name)
    return name


def describe(dynamodb, name):
    return dynamodb.describe_table(TableName=name)["Table"]


def gsi(name, key, **extra):
    return dict({"IndexName": name, "KeySchema": ks((key, "HASH")), "Projection": {"ProjectionType": "ALL"}}, **extra)


def warm(read, write, status="ACTIVE"):
    return {"ReadUnitsPerSecond": read, "WriteUnitsPerSecond": write, "Status": status}


def with_gsi(billing, **index_extra):
    params = dict(AttributeDefinitions=ad(("pk", "S"), ("g", "S")), KeySchema=ks(("pk", "HASH")),
                  GlobalSecondaryIndexes=[gsi("g-index", "g", **index_extra)], BillingMode=billing)
    if billing == "PROVISIONED":
        params["ProvisionedThroughput"] = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 3}
        params["GlobalSecondaryIndexes"][0].setdefault(
            "ProvisionedThroughput", {"ReadCapacityUnits": 7, "WriteCapacityUnits": 2})
    return params


# ---------------------------------------------------------------- WarmThroughput


# Every table describes its warm throughput, asked for or not: on demand 12,000 / 4,000 (the floor
# AWS assigns a fresh on-demand table and GSI), provisioned its units (LocalStack issue 13140:
# Terraform polls WarmThroughput.Status forever when it is missing).
@dev(LOCAL)
def test_warm_throughput_described_without_asking(dynamodb):
    on_demand = describe(dynamodb, create(dynamodb, "warm-od", **with_gsi("PAY_PER_REQUEST")))
    assert on_demand["WarmThroughput"] == warm(12000, 4000)
    assert on_demand["GlobalSecondaryIndexes"][0]["WarmThroughput"] == warm(12000, 4000)
    provisioned = describe(dynamodb, create(dynamodb, "warm-pr", **with_gsi("PROVISIONED")))
    assert provisioned["WarmThroughput"] == warm(5, 3)
    assert provisioned["GlobalSecondaryIndexes"][0]["WarmThroughput"] == warm(7, 2)


@dev(LOCAL)
def test_warm_throughput_asked_for_on_create_and_update(dynamodb):
    name = create(dynamodb, "warm-ask", WarmThroughput={"ReadUnitsPerSecond": 15000, "WriteUnitsPerSecond": 5000},
                  **with_gsi("PAY_PER_REQUEST", WarmThroughput={"ReadUnitsPerSecond": 13000}))
    d = describe(dynamodb, name)
    assert d["WarmThroughput"] == warm(15000, 5000)
    assert d["GlobalSecondaryIndexes"][0]["WarmThroughput"] == warm(13000, 4000)
    answer = dynamodb.update_table(
        TableName=name, WarmThroughput={"WriteUnitsPerSecond": 6000},
        GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "g-index",
                                                 "WarmThroughput": {"ReadUnitsPerSecond": 12500}}}])["TableDescription"]
    assert answer["WarmThroughput"] == warm(15000, 6000, "UPDATING")
    h.wait_active(dynamodb, name)
    d = describe(dynamodb, name)
    assert d["WarmThroughput"] == warm(15000, 6000)
    # A GSI's warm throughput may come down (to no less than the floor); a table's may not.
    assert d["GlobalSecondaryIndexes"][0]["WarmThroughput"] == warm(12500, 4000)
    # Re-asserting the same values is accepted.
    dynamodb.update_table(TableName=name, WarmThroughput={"ReadUnitsPerSecond": 15000, "WriteUnitsPerSecond": 6000})


# cdkd issue 1768, measured live: a lower table warm throughput, even of one member, is refused.
@dev(LOCAL)
def test_table_warm_throughput_never_decreases(dynamodb):
    name = create(dynamodb, "warm-down", WarmThroughput={"ReadUnitsPerSecond": 20000, "WriteUnitsPerSecond": 5000})
    for asked in ({"ReadUnitsPerSecond": 19999}, {"ReadUnitsPerSecond": 30000, "WriteUnitsPerSecond": 4000}):
        expect_error(lambda: dynamodb.update_table(TableName=name, WarmThroughput=asked), VE,
                     INVALID + "decreasing WarmThroughput is not supported")
    assert describe(dynamodb, name)["WarmThroughput"] == warm(20000, 5000)


# A provisioned table's warm throughput follows its units up and stays there.
@dev(LOCAL)
def test_provisioned_warm_throughput_ratchets(dynamodb):
    name = create(dynamodb, "warm-up", BillingMode="PROVISIONED",
                  ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
    dynamodb.update_table(TableName=name, ProvisionedThroughput={"ReadCapacityUnits": 50, "WriteCapacityUnits": 40})
    h.wait_active(dynamodb, name)
    dynamodb.update_table(TableName=name, ProvisionedThroughput={"ReadCapacityUnits": 10, "WriteCapacityUnits": 10})
    h.wait_active(dynamodb, name)
    assert describe(dynamodb, name)["WarmThroughput"] == warm(50, 40)


@dev("DynamoDB Local ignores WarmThroughput")
def test_warm_throughput_constraints(dynamodb):
    msg = ("2 validation errors detected: Value '0' at 'warmThroughput.readUnitsPerSecond' failed to satisfy "
           "constraint: Member must have value greater than or equal to 1; Value '-5' at "
           "'warmThroughput.writeUnitsPerSecond' failed to satisfy constraint: Member must have value greater than "
           "or equal to 1")
    expect_error(lambda: dynamodb.create_table(
        TableName=h.unique_name("warm-c"), BillingMode="PAY_PER_REQUEST",
        WarmThroughput={"ReadUnitsPerSecond": 0, "WriteUnitsPerSecond": -5}, **h.HASH_SCHEMA), VE, msg)


# ---------------------------------------------------------------- OnDemandThroughput


@dev(LOCAL)
def test_on_demand_throughput_read_back(dynamodb):
    name = create(dynamodb, "odt", OnDemandThroughput={"MaxReadRequestUnits": 100},
                  **with_gsi("PAY_PER_REQUEST", OnDemandThroughput={"MaxWriteRequestUnits": 50}))
    d = describe(dynamodb, name)
    assert d["OnDemandThroughput"] == {"MaxReadRequestUnits": 100, "MaxWriteRequestUnits": -1}
    assert d["GlobalSecondaryIndexes"][0]["OnDemandThroughput"] == {"MaxReadRequestUnits": -1,
                                                                     "MaxWriteRequestUnits": 50}
    dynamodb.update_table(TableName=name, OnDemandThroughput={"MaxReadRequestUnits": -1, "MaxWriteRequestUnits": 200},
                          GlobalSecondaryIndexUpdates=[{"Update": {
                              "IndexName": "g-index", "OnDemandThroughput": {"MaxReadRequestUnits": 300}}}])
    h.wait_active(dynamodb, name)
    d = describe(dynamodb, name)
    assert d["OnDemandThroughput"] == {"MaxReadRequestUnits": -1, "MaxWriteRequestUnits": 200}
    assert d["GlobalSecondaryIndexes"][0]["OnDemandThroughput"] == {"MaxReadRequestUnits": 300,
                                                                     "MaxWriteRequestUnits": 50}


@dev(LOCAL)
def test_on_demand_throughput_on_a_created_index(dynamodb):
    name = create(dynamodb, "odt-ix")
    dynamodb.update_table(TableName=name, AttributeDefinitions=ad(("g", "S")), GlobalSecondaryIndexUpdates=[{
        "Create": gsi("new-index", "g", OnDemandThroughput={"MaxReadRequestUnits": 10,
                                                                      "MaxWriteRequestUnits": 20},
                      WarmThroughput={"ReadUnitsPerSecond": 14000, "WriteUnitsPerSecond": 4500})}])
    h.wait_active(dynamodb, name)
    ix = describe(dynamodb, name)["GlobalSecondaryIndexes"][0]
    assert ix["OnDemandThroughput"] == {"MaxReadRequestUnits": 10, "MaxWriteRequestUnits": 20}
    assert ix["WarmThroughput"]["ReadUnitsPerSecond"] == 14000 and ix["WarmThroughput"]["WriteUnitsPerSecond"] == 4500


# Terraform provider issue 39760: a maximum of 0 is "outside of valid range"; -1 and >= 1 are in it.
@dev("DynamoDB Local ignores OnDemandThroughput")
def test_on_demand_throughput_range(dynamodb):
    for bad, member in (({"MaxReadRequestUnits": 0}, "MaxReadRequestUnits"),
                        ({"MaxReadRequestUnits": 5, "MaxWriteRequestUnits": -2}, "MaxWriteRequestUnits")):
        expect_error(lambda: dynamodb.create_table(TableName=h.unique_name("odt-r"), BillingMode="PAY_PER_REQUEST",
                                                   OnDemandThroughput=bad, **h.HASH_SCHEMA), VE,
                     INVALID + "Requested %s for OnDemandThroughput for table is outside of valid range" % member)
    name = create(dynamodb, "odt-r", **with_gsi("PAY_PER_REQUEST"))
    expect_error(lambda: dynamodb.update_table(TableName=name, GlobalSecondaryIndexUpdates=[{"Update": {
        "IndexName": "g-index", "OnDemandThroughput": {"MaxWriteRequestUnits": 0}}}]), VE,
        INVALID + "Requested MaxWriteRequestUnits for OnDemandThroughput for index is outside of valid range")


@dev("DynamoDB Local ignores OnDemandThroughput")
def test_on_demand_throughput_on_a_provisioned_table(dynamodb):
    expect_error(lambda: dynamodb.create_table(
        TableName=h.unique_name("odt-p"), BillingMode="PROVISIONED", OnDemandThroughput={"MaxReadRequestUnits": 10},
        ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}, **h.HASH_SCHEMA), VE,
        INVALID + "OnDemandThroughput cannot be specified when BillingMode is PROVISIONED")


# ---------------------------------------------------------------- SSESpecification


@dev(LOCAL)
def test_sse_description(dynamodb):
    owned = describe(dynamodb, create(dynamodb, "sse-own", SSESpecification={"Enabled": False}))
    assert "SSEDescription" not in owned
    managed = describe(dynamodb, create(dynamodb, "sse-aws", SSESpecification={"Enabled": True}))["SSEDescription"]
    assert managed["Status"] == "ENABLED" and managed["SSEType"] == "KMS"
    assert re.fullmatch(KEY_ARN_RE, managed["KMSMasterKeyArn"]), managed
    key_id = "1234abcd-12ab-34cd-56ef-1234567890ab"
    by_id = describe(dynamodb, create(dynamodb, "sse-id", SSESpecification={
        "Enabled": True, "SSEType": "KMS", "KMSMasterKeyId": key_id}))["SSEDescription"]
    assert re.fullmatch(r"arn:aws:kms:us-east-1:\d{12}:key/" + key_id, by_id["KMSMasterKeyArn"])
    arn = "arn:aws:kms:eu-west-1:111122223333:key/" + key_id
    by_arn = describe(dynamodb, create(dynamodb, "sse-arn", SSESpecification={
        "Enabled": True, "SSEType": "KMS", "KMSMasterKeyId": arn}))["SSEDescription"]
    assert by_arn["KMSMasterKeyArn"] == arn
    # An alias names a key: its ARN is the key's, the same each time.
    by_alias = [describe(dynamodb, create(dynamodb, "sse-al", SSESpecification={
        "Enabled": True, "SSEType": "KMS", "KMSMasterKeyId": "alias/mine"}))["SSEDescription"]["KMSMasterKeyArn"]
        for _ in range(2)]
    assert by_alias[0] == by_alias[1] and re.fullmatch(KEY_ARN_RE, by_alias[0])
    assert by_alias[0] != managed["KMSMasterKeyArn"]


@dev(LOCAL)
def test_sse_update_read_back(dynamodb):
    name = create(dynamodb, "sse-up")
    assert "SSEDescription" not in describe(dynamodb, name)
    dynamodb.update_table(TableName=name, SSESpecification={"Enabled": True, "SSEType": "KMS",
                                                            "KMSMasterKeyId": "abcd"})
    h.wait_active(dynamodb, name)
    assert describe(dynamodb, name)["SSEDescription"]["KMSMasterKeyArn"].endswith(":key/abcd")
    dynamodb.update_table(TableName=name, SSESpecification={"Enabled": False})
    h.wait_active(dynamodb, name)
    assert "SSEDescription" not in describe(dynamodb, name)


@dev("DynamoDB Local ignores SSESpecification")
def test_sse_type_constraint(dynamodb):
    expect_error(lambda: dynamodb.create_table(
        TableName=h.unique_name("sse-c"), BillingMode="PAY_PER_REQUEST",
        SSESpecification={"Enabled": True, "SSEType": "RSA"}, **h.HASH_SCHEMA), VE,
        "1 validation error detected: Value 'RSA' at 'sSESpecification.sSEType' failed to satisfy constraint: "
        "Member must satisfy enum value set: [AES256, KMS]")


# AWS CloudFormation user guide pull request 1228: a key without SSEType KMS is refused.
@dev("DynamoDB Local ignores SSESpecification")
def test_sse_key_needs_kms_type(dynamodb):
    expect_error(lambda: dynamodb.create_table(
        TableName=h.unique_name("sse-k"), BillingMode="PAY_PER_REQUEST",
        SSESpecification={"Enabled": True, "KMSMasterKeyId": "alias/mine"}, **h.HASH_SCHEMA), VE,
        "SSEType KMS is required if KMSMasterKeyId is specified")


# ---------------------------------------------------------------- backups and restores


@dev(LOCAL)
def test_restore_keeps_maximums_and_key(dynamodb):
    name = create(dynamodb, "odt-bk", OnDemandThroughput={"MaxWriteRequestUnits": 70},
                  SSESpecification={"Enabled": True, "SSEType": "KMS", "KMSMasterKeyId": "kk"})
    backup = dynamodb.create_backup(TableName=name, BackupName="bk1")["BackupDetails"]["BackupArn"]
    target = h.unique_name("odt-rs")
    dynamodb.restore_table_from_backup(TargetTableName=target, BackupArn=backup)
    h.wait_active(dynamodb, target)
    d = describe(dynamodb, target)
    assert d["OnDemandThroughput"] == {"MaxReadRequestUnits": -1, "MaxWriteRequestUnits": 70}
    assert d["SSEDescription"]["KMSMasterKeyArn"].endswith(":key/kk")
    assert d["WarmThroughput"] == warm(12000, 4000)


# ---------------------------------------------------------------- --throttle


@pytest.fixture
def throttled(launch_dynamod, target):
    dynamod_only(target, "throttling is dynamod's opt-in --throttle model")
    server = launch_dynamod(args=["--throttle"], in_memory=True)
    raw = rh.RawClient(server.endpoint)
    yield server, h.make_client(server.endpoint), raw
    raw.close()


# A maximum caps the table: one-unit writes past MaxWriteRequestUnits in one second are throttled
# with the reason the service names (TableWriteMaxOnDemandThroughputExceeded).
@pytest.mark.needs_own_server
def test_maximum_caps_on_demand_writes(throttled):
    _, client, raw = throttled
    arn = rh.create_table(client, "Capped", OnDemandThroughput={"MaxWriteRequestUnits": 5})["TableArn"]
    keys = iter(range(1000))
    ok, answer, elapsed, _ = rh.pump(lambda: raw.put("Capped", {"pk": S("k%d" % next(keys))}), limit=200,
                                     deadline_s=5)
    assert answer is not None and ok <= 5 * (int(elapsed) + 1), (ok, elapsed)
    rh.check_throttle(answer, rh.THROTTLING, rh.ON_DEMAND_MSG, "TableWriteMaxOnDemandThroughputExceeded", arn)


@pytest.mark.needs_own_server
def test_maximum_caps_index_reads(throttled):
    _, client, raw = throttled
    params = with_gsi("PAY_PER_REQUEST", OnDemandThroughput={"MaxReadRequestUnits": 3})
    arn = rh.create_table(client, "CappedIx", schema={k: params[k] for k in ("AttributeDefinitions", "KeySchema")},
                          GlobalSecondaryIndexes=params["GlobalSecondaryIndexes"])["TableArn"]
    assert raw.put("CappedIx", {"pk": S("a"), "g": S("x")}).status == 200
    ok, answer, elapsed, _ = rh.pump(lambda: raw.call("Query", {
        "TableName": "CappedIx", "IndexName": "g-index", "KeyConditionExpression": "g = :g",
        "ExpressionAttributeValues": {":g": S("x")}}), limit=200, deadline_s=5)
    # Each eventually consistent Query of one small item is half a unit.
    assert answer is not None and ok * 0.5 <= 3 * (int(elapsed) + 1), (ok, elapsed)
    rh.check_throttle(answer, rh.THROTTLING, ON_DEMAND_INDEX_MSG, "IndexReadMaxOnDemandThroughputExceeded",
                      arn + "/index/g-index")


# ---------------------------------------------------------------- kept in the catalog


@pytest.mark.needs_own_server
def test_settings_survive_a_restart(launch_dynamod, data_dir, target):
    dynamod_only(target, "restarts its own dynamod")
    server = launch_dynamod(data_dir=data_dir)
    client = h.make_client(server.endpoint)
    name = create(client, "keep", OnDemandThroughput={"MaxReadRequestUnits": 9},
                  WarmThroughput={"ReadUnitsPerSecond": 20000},
                  SSESpecification={"Enabled": True, "SSEType": "KMS", "KMSMasterKeyId": "alias/mine"},
                  **with_gsi("PAY_PER_REQUEST", OnDemandThroughput={"MaxWriteRequestUnits": 4},
                             WarmThroughput={"WriteUnitsPerSecond": 5000}))
    before = describe(client, name)
    assert server.stop() == 0
    client = h.make_client(launch_dynamod(data_dir=data_dir).endpoint)
    after = describe(client, name)
    for field in ("OnDemandThroughput", "WarmThroughput", "SSEDescription", "GlobalSecondaryIndexes"):
        assert after[field] == before[field], field
    assert after["WarmThroughput"] == warm(20000, 4000)
