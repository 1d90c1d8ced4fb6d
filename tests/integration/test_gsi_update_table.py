"""UpdateTable GlobalSecondaryIndexUpdates: adding a GSI to a table that already holds 3,000 items
(the backfill: states seen in DescribeTable, reads while building, every valid item indexed and the
invalid ones skipped), writes during the build, deleting an index, throughput of indexes on
provisioned tables, the one-create-or-delete-per-call rule and the validation errors.

Specification: /work/notes/errors-indexes.md section 2. On the service an index build takes 8-17
minutes, so the polls are bounded generously (BUILD_TIMEOUT); dynamod and DynamoDB Local build in
well under a second for these sizes.
"""
import re
import time

import pytest

import dynamo_helpers as h
import index_helpers as ix
from dynamo_helpers import check_error, expect_error
from index_helpers import INVALID, VE, N, S, ad, gsi, ks, lsi

dev = pytest.mark.dynamodb_local_deviation
BUILD_TIMEOUT = 1800
LIMIT_EXCEEDED = "LimitExceededException"
ONE_AT_A_TIME = "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"
BACKFILLING = "Cannot read from backfilling global secondary index: %s"


def grp_of(i):
    """Item i's grp: missing (i % 10 == 0), a number (1: wrong type), empty (2), else G0..G3."""
    kind = i % 10
    if kind == 0:
        return None
    if kind == 1:
        return N(i)
    if kind == 2:
        return S("")
    return S("G%d" % (i % 4))


ITEMS = []
for _i in range(3000):
    _item = {"pk": S("P%03d" % (_i % 100)), "sk": N(_i), "v": S("v%d" % _i), "w": S("not projected")}
    if grp_of(_i) is not None:
        _item["grp"] = grp_of(_i)
    ITEMS.append(_item)
VALID = [it for it in ITEMS if "S" in it.get("grp", {}) and it["grp"]["S"]]
EXPECTED_PER_GROUP = {g: sum(1 for it in VALID if it["grp"]["S"] == g) for g in ("G0", "G1", "G2", "G3")}


def create_action(name="by_grp"):
    return {"Create": gsi(name, "grp", kind="INCLUDE", include=["v"])}


def group_count(client, table, group):
    """Outcome of one index read: ('count', n) or ('error', code, message)."""
    try:
        resp = client.query(TableName=table, IndexName="by_grp", KeyConditionExpression="grp = :g",
                            ExpressionAttributeValues={":g": S(group)}, Select="COUNT")
        return ("count", resp["Count"])
    except h.ClientError as e:
        code, message, status = h.error_of(e)
        return ("error", code, message, status)


@pytest.fixture(scope="module")
def backfill(dynamodb, module_tables):
    """Fill a table (no GSI) with 3,000 items, add by_grp with UpdateTable and record everything seen
    until the index is ACTIVE: the UpdateTable answer, every DescribeTable, every read attempt."""
    table = module_tables("range", tag="gsi_bf")
    h.batch_put(dynamodb, table, ITEMS)
    response = dynamodb.update_table(TableName=table, AttributeDefinitions=ad(("grp", "S")),
                                     GlobalSecondaryIndexUpdates=[create_action()])["TableDescription"]
    describes, reads = [], []
    deadline = time.monotonic() + BUILD_TIMEOUT
    delay = 0.02
    while True:
        reads.append(group_count(dynamodb, table, "G1"))
        desc = dynamodb.describe_table(TableName=table)["Table"]
        describes.append(desc)
        index = [g for g in desc.get("GlobalSecondaryIndexes", []) if g["IndexName"] == "by_grp"]
        if desc["TableStatus"] == "ACTIVE" and index and index[0]["IndexStatus"] == "ACTIVE":
            break
        assert time.monotonic() < deadline, "by_grp not ACTIVE after %ss" % BUILD_TIMEOUT
        time.sleep(delay)
        delay = min(delay * 2, 5.0)
    return {"table": table, "response": response, "describes": describes, "reads": reads}


def index_entry(desc, name="by_grp"):
    return next((g for g in desc.get("GlobalSecondaryIndexes", []) if g["IndexName"] == name), None)


# The UpdateTable answer already lists the new index as CREATING (Backfilling false) with its key
# schema, projection and ARN.
def test_create_response_lists_new_index(backfill):
    entry = index_entry(backfill["response"])
    assert entry["IndexStatus"] == "CREATING"
    assert entry.get("Backfilling", False) is False
    assert entry["KeySchema"] == ks(("grp", "HASH"))
    assert entry["Projection"] == {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["v"]}
    assert entry["IndexArn"] == backfill["response"]["TableArn"] + "/index/by_grp"


# The answer says Backfilling false outright (the service's, ACKQ; DynamoDB Local's too), and an
# index CreateTable made never reports Backfilling. Found by the control differential: dynamod left
# Backfilling out until the backfill started.
def test_create_response_backfilling_false(dynamodb, backfill):
    assert index_entry(backfill["response"])["Backfilling"] is False
    name = h.unique_name("bff")
    desc = dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", AttributeDefinitions=ad(("pk", "S"), ("g", "S")),
                                 KeySchema=ks(("pk", "HASH")), GlobalSecondaryIndexes=[gsi("gsg", "g")])["TableDescription"]
    try:
        assert "Backfilling" not in desc["GlobalSecondaryIndexes"][0]
    finally:
        h.drop_table(dynamodb, name)


# The answer counts the new index's items and bytes from zero (ACKQ, errors-indexes.md).
@dev("no IndexSizeBytes or ItemCount for the new index")
def test_create_response_counters(backfill):
    entry = index_entry(backfill["response"])
    assert (entry["IndexSizeBytes"], entry["ItemCount"]) == (0, 0)


# ...and the table itself is UPDATING while the index's resources are allocated.
@dev("TableStatus stays ACTIVE during an index build")
def test_create_response_table_updating(backfill):
    assert backfill["response"]["TableStatus"] == "UPDATING"


# Polling DescribeTable (with a bound) ends with table and index ACTIVE; Backfilling is then absent,
# and the new key attribute is in AttributeDefinitions.
def test_index_becomes_active(backfill):
    final = backfill["describes"][-1]
    entry = index_entry(final)
    assert final["TableStatus"] == "ACTIVE" and entry["IndexStatus"] == "ACTIVE"
    assert "Backfilling" not in entry
    assert {"AttributeName": "grp", "AttributeType": "S"} in final["AttributeDefinitions"]


# Every DescribeTable seen during the build is consistent: the index is CREATING or ACTIVE, never back
# from ACTIVE; Backfilling appears only while CREATING; the table is UPDATING or ACTIVE.
def test_states_seen_while_building(backfill):
    seen_active = False
    for desc in backfill["describes"]:
        entry = index_entry(desc)
        assert desc["TableStatus"] in ("UPDATING", "ACTIVE")
        if entry is None:               # a DescribeTable may lag the UpdateTable answer; never after ACTIVE
            assert not seen_active
            continue
        assert entry["IndexStatus"] in ("CREATING", "ACTIVE")
        if entry["IndexStatus"] == "ACTIVE":
            seen_active = True
            assert "Backfilling" not in entry
        else:
            assert not seen_active, "index went from ACTIVE back to CREATING"
            assert entry.get("Backfilling", False) in (False, True)


# Reads while the index is being built never see a partial index: each either fails with the
# backfilling ValidationException or (once ACTIVE) returns the complete answer.
@dev("Query on an index being built answers 500 InternalFailure")
def test_reads_during_backfill_never_partial(backfill):
    for outcome in backfill["reads"]:
        if outcome[0] == "count":
            assert outcome[1] == EXPECTED_PER_GROUP["G1"], outcome
        else:
            assert outcome[1:] == ("ValidationException", BACKFILLING % "by_grp", 400), outcome


# After the backfill the index holds every pre-existing item with a valid key: each group complete
# across pages, entries = table key + index key + INCLUDEd "v" (not "w").
@pytest.mark.parametrize("group", sorted(EXPECTED_PER_GROUP))
def test_backfill_indexes_every_valid_item(dynamodb, backfill, group):
    items = ix.index_items(dynamodb, backfill["table"], "by_grp", "grp = :g", {":g": S(group)}, Limit=97)
    assert len(items) == EXPECTED_PER_GROUP[group]
    assert {(i["pk"]["S"], i["sk"]["N"]) for i in items} == \
        {(i["pk"]["S"], i["sk"]["N"]) for i in VALID if i["grp"]["S"] == group}
    assert all(set(i) == {"pk", "sk", "grp", "v"} for i in items)


# Items whose grp is missing or empty were accepted before the index existed and are silently
# skipped by the backfill (ALT, run on AWS).
def test_backfill_skips_missing_and_empty_keys(dynamodb, backfill):
    entries = ix.query_all(dynamodb, backfill["table"], "by_grp")[0]
    assert not [e for e in entries if int(e["sk"]["N"]) % 10 in (0, 2)]
    assert len([e for e in entries if "S" in e["grp"]]) == len(VALID)


# So are items whose grp has another type than the new index declares (N instead of S): the index
# holds exactly the valid items.
@dev("the backfill indexes items whose key attribute has the wrong type")
def test_backfill_skips_wrong_type_keys(dynamodb, backfill):
    entries = ix.query_all(dynamodb, backfill["table"], "by_grp")[0]
    assert len(entries) == len(VALID)
    assert all(int(e["sk"]["N"]) % 10 >= 3 for e in entries)


# Once the index exists, writes are validated against it: a numeric grp is refused, an empty one
# too, a missing one is fine; a new valid item shows up in the index.
def test_writes_validated_against_new_index(dynamodb, backfill):
    table = backfill["table"]
    expect_error(lambda: dynamodb.put_item(TableName=table, Item={"pk": S("NEW"), "sk": N(1), "grp": N(5)}), VE)
    expect_error(lambda: dynamodb.put_item(TableName=table, Item={"pk": S("NEW"), "sk": N(2), "grp": S("")}), VE,
                 h.either_envelope("One or more parameter values are not valid. A value specified for a secondary index key "
                                   "is not supported. The AttributeValue for a key attribute cannot contain an empty string "
                                   "value. IndexName: by_grp, IndexKey: grp"))
    dynamodb.put_item(TableName=table, Item={"pk": S("NEW"), "sk": N(3)})
    dynamodb.put_item(TableName=table, Item={"pk": S("NEW"), "sk": N(4), "grp": S("FRESH"), "v": S("x")})
    got = ix.wait_index_count(dynamodb, table, "by_grp", "grp = :g", {":g": S("FRESH")}, 1)
    assert got == [{"pk": S("NEW"), "sk": N(4), "grp": S("FRESH"), "v": S("x")}]


# Writes made while the index is being built are accepted and reflected once it is ACTIVE: a new
# item, an item moved to another group, a deleted item.
@dev("PutItem during the index's resource allocation answers 500 InternalFailure")
def test_writes_during_backfill(dynamodb, table):
    name = table("range", tag="gsi_bfw")
    items = [{"pk": S("P%d" % (i % 10)), "sk": N(i), "grp": S("A" if i % 2 else "B")} for i in range(1000)]
    h.batch_put(dynamodb, name, items)
    dynamodb.update_table(TableName=name, AttributeDefinitions=ad(("grp", "S")),
                          GlobalSecondaryIndexUpdates=[{"Create": gsi("by_grp", "grp", kind="KEYS_ONLY")}])
    dynamodb.put_item(TableName=name, Item={"pk": S("NEW"), "sk": N(0), "grp": S("A")})                  # +1 A
    dynamodb.update_item(TableName=name, Key={"pk": S("P1"), "sk": N(1)}, UpdateExpression="SET grp = :b",
                         ExpressionAttributeValues={":b": S("B")})                                          # A -> B
    dynamodb.delete_item(TableName=name, Key={"pk": S("P3"), "sk": N(3)})                                  # -1 A
    h.wait_active(dynamodb, name, timeout=BUILD_TIMEOUT)
    a = ix.wait_index_count(dynamodb, name, "by_grp", "grp = :g", {":g": S("A")}, 499)
    assert ("NEW", "0") in {(i["pk"]["S"], i["sk"]["N"]) for i in a}
    assert len(ix.index_items(dynamodb, name, "by_grp", "grp = :g", {":g": S("B")})) == 501


# A GSI may be keyed on an attribute that is already a table key (AttributeDefinitions must still
# name it): every item is indexed.
def test_create_index_on_table_sort_key(dynamodb, table):
    name = table(tag="gsi_onsk", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")), AttributeDefinitions=ad(("pk", "S"), ("sk", "S")))
    h.batch_put(dynamodb, name, [{"pk": S("p%d" % i), "sk": S("shared" if i < 5 else "s%d" % i)} for i in range(8)])
    dynamodb.update_table(TableName=name, AttributeDefinitions=ad(("sk", "S")),
                          GlobalSecondaryIndexUpdates=[{"Create": gsi("by_sk", "sk", kind="KEYS_ONLY")}])
    h.wait_active(dynamodb, name, timeout=BUILD_TIMEOUT)
    assert len(ix.wait_index_count(dynamodb, name, "by_sk", "sk = :s", {":s": S("shared")}, 5)) == 5


# ---------------------------------------------------------------- deleting an index
@pytest.fixture
def with_gsi(dynamodb, table):
    name = table(tag="gsi_del", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                 AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("g", "S")),
                 GlobalSecondaryIndexes=[gsi("by_g", "g")])
    h.batch_put(dynamodb, name, [{"pk": S("p%d" % i), "sk": S("s"), "g": S("G")} for i in range(20)])
    return name


# Deleting a GSI: the answer shows it DELETING; it then disappears from DescribeTable, its key
# attribute leaves AttributeDefinitions, queries name it as unknown, and the attribute is no longer
# type-checked. The table keeps all its items.
def test_delete_index(dynamodb, with_gsi):
    resp = dynamodb.update_table(TableName=with_gsi, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by_g"}}])
    assert index_entry(resp["TableDescription"], "by_g")["IndexStatus"] == "DELETING"
    desc = ix.wait_for(lambda: dynamodb.describe_table(TableName=with_gsi)["Table"],
                       lambda d: d["TableStatus"] == "ACTIVE" and not d.get("GlobalSecondaryIndexes"),
                       timeout=BUILD_TIMEOUT, what="by_g gone")
    assert {a["AttributeName"] for a in desc["AttributeDefinitions"]} == {"pk", "sk"}
    expect_error(lambda: dynamodb.query(TableName=with_gsi, IndexName="by_g", KeyConditionExpression="g = :g",
                                        ExpressionAttributeValues={":g": S("G")}),
                 VE, h.either_envelope("The table does not have the specified index: by_g"))
    dynamodb.put_item(TableName=with_gsi, Item={"pk": S("after"), "sk": S("s"), "g": N(7)})
    assert len(ix.query_all(dynamodb, with_gsi, ConsistentRead=True)[0]) == 21


@dev("TableStatus stays ACTIVE while an index is deleted")
def test_delete_index_response_table_updating(dynamodb, with_gsi):
    resp = dynamodb.update_table(TableName=with_gsi, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by_g"}}])
    assert resp["TableDescription"]["TableStatus"] == "UPDATING"


# The answer to a Delete still shows the index (DELETING), and so still defines its key attribute,
# which leaves AttributeDefinitions with the index (test_delete_index). (Not established for the
# service, whose answer lists the DELETING index; the control differential met it.)
@dev("drops the key attribute from the answer's AttributeDefinitions at once")
def test_delete_index_answer(dynamodb, with_gsi):
    resp = dynamodb.update_table(TableName=with_gsi, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by_g"}}])
    assert "g" in {a["AttributeName"] for a in resp["TableDescription"]["AttributeDefinitions"]}


# A Delete or Update of a missing index is named before what is wrong with the table's own changes:
# units on an on-demand table, PROVISIONED without units, a stream change beside an index change.
# (The documentation is silent; DynamoDB Local's order. Found by the control differential:
# dynamod named the table's change.)
@dev("bare 'Requested resource not found' (Delete); 500 InternalFailure (Update)")
@pytest.mark.parametrize("change", [
    pytest.param({"ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}, id="units-on-on-demand"),
    pytest.param({"BillingMode": "PROVISIONED"}, id="provisioned-without-units"),
    pytest.param({"StreamSpecification": {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}}, id="stream"),
])
@pytest.mark.parametrize("action", ["Delete", "Update"])
def test_missing_index_named_first(dynamodb, own_base, change, action):
    update = {"IndexName": "nope"}
    if action == "Update":
        update["ProvisionedThroughput"] = {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
    expect_error(lambda: dynamodb.update_table(TableName=own_base, GlobalSecondaryIndexUpdates=[{action: update}], **change),
                 "ResourceNotFoundException", "Requested resource not found: Index nope for table " + own_base)


# A switch to PROVISIONED gives every GSI units, by an Update of each (ACKQ,
# /work/notes/errors-indexes.md). Found by the control differential: dynamod switched the table
# and left its GSIs without units.
@dev("500 InternalFailure")
def test_switch_to_provisioned_needs_index_units(dynamodb, table):
    name = table("hash", AttributeDefinitions=ad(("pk", "S"), ("g", "S")), GlobalSecondaryIndexes=[gsi("gsg", "g")])
    units = {"ReadCapacityUnits": 2, "WriteCapacityUnits": 3}
    expect_error(lambda: dynamodb.update_table(TableName=name, BillingMode="PROVISIONED", ProvisionedThroughput=units),
                 VE, INVALID + "ProvisionedThroughput must be specified for index: gsg")
    assert "BillingModeSummary" in dynamodb.describe_table(TableName=name)["Table"]
    assert dynamodb.describe_table(TableName=name)["Table"]["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    dynamodb.update_table(TableName=name, BillingMode="PROVISIONED", ProvisionedThroughput=units,
                          GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "gsg", "ProvisionedThroughput": units}}])
    h.wait_active(dynamodb, name)
    g = dynamodb.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"][0]
    assert (g["ProvisionedThroughput"]["ReadCapacityUnits"], g["ProvisionedThroughput"]["WriteCapacityUnits"]) == (2, 3)


# A new index's key attributes must be in the request's AttributeDefinitions, even those the table
# defines already ("If you are adding a new global secondary index to the table,
# AttributeDefinitions must include the key element(s) of the new index": API_UpdateTable).
@pytest.mark.parametrize("key", [pytest.param("y", id="unknown", marks=dev("500 InternalFailure")),
                                 pytest.param("a", id="table-defines-it",
                                              marks=dev("accepted: it takes the table's definition"))])
def test_create_key_must_be_in_definitions(dynamodb, own_base, key):
    expect_error(lambda: dynamodb.update_table(TableName=own_base, AttributeDefinitions=ad(("b", "S")),
                                               GlobalSecondaryIndexUpdates=[{"Create": gsi("gsc", key)}]),
                 VE, INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [%s], "
                               "AttributeDefinitions: [b]" % key)


# An index is not created or deleted together with a change of the table's units (ACKQ).
@dev("accepted")
def test_delete_index_with_table_units(dynamodb, table):
    name = table("hash", BillingMode="PROVISIONED", ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
                 AttributeDefinitions=ad(("pk", "S"), ("g", "S")), GlobalSecondaryIndexes=[gsi("gsg", "g", throughput=(1, 1))])
    expect_error(lambda: dynamodb.update_table(TableName=name, ProvisionedThroughput={"ReadCapacityUnits": 2, "WriteCapacityUnits": 2},
                                               GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "gsg"}}]),
                 VE, INVALID + "You cannot create or delete index while updating table IOPS")
    assert dynamodb.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"][0]["IndexName"] == "gsg"


# AttributeDefinitions entries that the new index does not use are ignored, even one of another type
# than the table's ("AttributeDefinitions: only the new key attribute is needed; unused/stale
# entries are ignored": ACKQ, ALT in /work/notes/errors-indexes.md).
@dev("'invalid attribute, SchemaElement redefined should be of same type as previously defined'")
def test_stale_definition_ignored(dynamodb, table):
    name = table("hash")
    dynamodb.update_table(TableName=name, AttributeDefinitions=ad(("n", "S"), ("pk", "N")),
                          GlobalSecondaryIndexUpdates=[{"Create": gsi("gsn", "n")}])
    h.wait_active(dynamodb, name)
    desc = dynamodb.describe_table(TableName=name)["Table"]
    assert {(a["AttributeName"], a["AttributeType"]) for a in desc["AttributeDefinitions"]} == {("pk", "S"), ("n", "S")}


# A Create's constraint violations are named at its place among the updates, under "create"
# (globalSecondaryIndexUpdates.<n>.member.create.*: errors-indexes.md). Found by the control
# differential: dynamod numbered the Creates alone and left out "create".
@dev("own sentence 'Invalid table/index name. ...'")
def test_create_constraint_path(unchecked, own_base):
    expect_error(lambda: unchecked.update_table(TableName=own_base, AttributeDefinitions=ad(("n", "S")), GlobalSecondaryIndexUpdates=[
        {"Delete": {"IndexName": "gsb"}}, {"Create": gsi("ab", "n")}]),
        VE, "1 validation error detected: Value 'ab' at 'globalSecondaryIndexUpdates.2.member.create.indexName' failed to "
            "satisfy constraint: Member must have length greater than or equal to 3")


# An empty list of index updates is refused, also beside another change (ACKQ).
@dev("accepted")
def test_update_table_empty_index_updates(dynamodb, table):
    name = table("hash")
    expect_error(lambda: dynamodb.update_table(TableName=name, DeletionProtectionEnabled=False, GlobalSecondaryIndexUpdates=[]),
                 VE, INVALID + "List of GlobalSecondaryIndexUpdates is empty")


# ---------------------------------------------------------------- one create/delete per call
BASE_SHAPE = dict(KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                  AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("a", "S"), ("b", "S"), ("l", "S")),
                  GlobalSecondaryIndexes=[gsi("gsa", "a"), gsi("gsb", "b")], LocalSecondaryIndexes=[lsi("lsa", "l")])


@pytest.fixture(scope="module")
def base(dynamodb, module_tables):
    """pk/sk table with GSIs gsa (HASH a), gsb (HASH b) and LSI lsa (RANGE l); the error tests must
    not change it."""
    return module_tables(tag="gsi_ut", **BASE_SHAPE)


@pytest.fixture
def own_base(table):
    """A table shaped as base, for a test whose request DynamoDB Local may accept (an index it then
    leaves CREATING would fail the tests that share base)."""
    return table(tag="gsi_own", **BASE_SHAPE)


def assert_unchanged(client, name):
    desc = client.describe_table(TableName=name)["Table"]
    assert sorted((g["IndexName"], g["IndexStatus"]) for g in desc["GlobalSecondaryIndexes"]) == \
        [("gsa", "ACTIVE"), ("gsb", "ACTIVE")]


# Only one index may be created or deleted per UpdateTable call: two Creates, a Create and a Delete,
# or two Deletes are refused as a whole with LimitExceededException (ALT, ACKQ measured).
@pytest.mark.parametrize("updates", [
    [{"Create": gsi("gsc", "c")}, {"Create": gsi("gsd", "d")}],
    [{"Create": gsi("gsc", "c")}, {"Delete": {"IndexName": "gsa"}}],
    [{"Delete": {"IndexName": "gsa"}}, {"Delete": {"IndexName": "gsb"}}],
], ids=["create-create", "create-delete", "delete-delete"])
def test_one_create_or_delete_per_call(dynamodb, base, updates):
    expect_error(lambda: dynamodb.update_table(TableName=base, AttributeDefinitions=ad(("c", "S"), ("d", "S")),
                                               GlobalSecondaryIndexUpdates=updates), LIMIT_EXCEEDED, ONE_AT_A_TIME)
    assert_unchanged(dynamodb, base)


# ---------------------------------------------------------------- validation errors
# Each request is refused and leaves the table unchanged. Texts: errors-indexes.md 2.1.
CASES = [
    pytest.param(dict(AttributeDefinitions=ad(("n", "S")), GlobalSecondaryIndexUpdates=[{"Create": gsi("gsa", "n")}]),
                 VE, "Attempting to create an index which already exists", id="create-existing-gsi-name"),
    pytest.param(dict(AttributeDefinitions=ad(("n", "S")), GlobalSecondaryIndexUpdates=[{"Create": gsi("lsa", "n")}]),
                 VE, "Attempting to create an index which already exists", id="create-existing-lsi-name"),
    pytest.param(dict(GlobalSecondaryIndexUpdates=[{"Create": gsi("gsn", "n")}]),
                 VE, INVALID + "AttributeDefinitions is not specified for index: gsn", id="create-without-definitions",
                 marks=dev("'No Attribute Schema Defined'")),
    pytest.param(dict(GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "nope"}}]),
                 "ResourceNotFoundException", "Requested resource not found: Index nope for table {table}", id="delete-unknown",
                 marks=dev("bare 'Requested resource not found'")),
    pytest.param(dict(GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "nope", "OnDemandThroughput": {
        "MaxReadRequestUnits": 10, "MaxWriteRequestUnits": 10}}}]),
                 "ResourceNotFoundException", "Requested resource not found: Index nope for table {table}", id="update-unknown",
                 marks=dev("500 InternalFailure")),
    pytest.param(dict(GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "lsa", "ProvisionedThroughput": {
        "ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}}]),
                 VE, "Cannot update an index that is not a GlobalSecondaryIndex: lsa", id="update-lsi",
                 marks=dev("'Invalid global secondary index name'")),
    pytest.param(dict(GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "lsa"}}]),
                 VE, "Cannot delete an index that is not a GlobalSecondaryIndex: lsa", id="delete-lsi",
                 marks=dev("no ': lsa' at the end")),
    pytest.param(dict(GlobalSecondaryIndexUpdates=[{}]),
                 VE, INVALID + "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
                 "GlobalSecondaryIndexUpdate.Delete must not be null", id="empty-entry",
                 marks=dev("'Update global secondary index action is null'")),
    pytest.param(dict(AttributeDefinitions=ad(("n", "S")), GlobalSecondaryIndexUpdates=[
        {"Create": gsi("gsn", "n"), "Delete": {"IndexName": "gsa"}}]),
                 VE, INVALID + "Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object",
                 id="two-actions-in-one-entry", marks=dev("LimitExceededException 'Only 1 online index ...'")),
    pytest.param(dict(AttributeDefinitions=ad(("a", "S")), GlobalSecondaryIndexUpdates=[
        {"Delete": {"IndexName": "gsa"}}, {"Create": gsi("gsa", "a")}]),
                 VE, INVALID + "Only one global secondary index update per index is allowed simultaneously. Index: gsa",
                 id="same-index-twice", marks=dev("no prefix and no 'Index: gsa'")),
    pytest.param(dict(GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "gsa", "ProvisionedThroughput": {
        "ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}}]),
                 VE, INVALID + "The only Updates for index: gsa when TableThroughputMode is PAY_PER_REQUEST can be to "
                 "OnDemandThroughput, WarmThroughput", id="ppr-update-throughput", marks=dev("500 InternalFailure")),
]


@pytest.mark.parametrize("request_,code,message", CASES)
def test_update_table_errors(unchecked, base, request_, code, message):
    expect_error(lambda: unchecked.update_table(TableName=base, **request_), code,
                 h.either_envelope(message.format(table=base)))
    assert_unchanged(unchecked, base)


# Redefining the type of an attribute that is already a key (here gsa's "a" as N) is refused.
@dev("'invalid attribute, SchemaElement redefined should be of same type as previously defined'")
def test_create_redefining_key_type(dynamodb, base):
    err = expect_error(lambda: dynamodb.update_table(TableName=base, AttributeDefinitions=ad(("a", "N")),
                                                     GlobalSecondaryIndexUpdates=[{"Create": gsi("gsn", "a")}]), VE)
    check_error(err, VE, regex=re.escape(INVALID + "Attributes cannot be redefined. Please check that your attribute has "
                                         "the same type as previously defined.") + r".*")
    assert_unchanged(dynamodb, base)


# On an on-demand table an index Create may not carry ProvisionedThroughput.
@dev("accepted")
def test_ppr_create_with_throughput(dynamodb, table):
    name = table(tag="gsi_pprpt")
    expect_error(lambda: dynamodb.update_table(TableName=name, AttributeDefinitions=ad(("b", "S")),
                                               GlobalSecondaryIndexUpdates=[{"Create": gsi("gsb", "b", throughput=(1, 1))}]),
                 VE, h.either_envelope(INVALID + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for "
                                       "index: gsb when BillingMode is PAY_PER_REQUEST"))


# The 21st GSI is refused by UpdateTable with LimitExceededException (CreateTable: ValidationException).
@dev("no 'Subscriber limit exceeded: ' prefix and no 'of 20'")
def test_twenty_first_gsi(dynamodb, table):
    names = ["a%02d" % i for i in range(20)]
    name = table("hash", tag="gsi_21", AttributeDefinitions=ad(("pk", "S"), *[(n, "S") for n in names]),
                 GlobalSecondaryIndexes=[gsi("g_" + n, n, kind="KEYS_ONLY") for n in names])
    expect_error(lambda: dynamodb.update_table(TableName=name, AttributeDefinitions=ad(("zz", "S")),
                                               GlobalSecondaryIndexUpdates=[{"Create": gsi("g_zz", "zz")}]),
                 LIMIT_EXCEEDED, "Subscriber limit exceeded: Number of global secondary indexes exceeds per-table limit of 20")


# ---------------------------------------------------------------- provisioned tables
@pytest.fixture
def provisioned(table):
    return table("range", tag="gsi_prov", BillingMode="PROVISIONED",
                 ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5})


# An Update of a missing index of a provisioned table is ResourceNotFoundException, as on an
# on-demand table (test_update_table_errors[update-unknown]).
@dev("ValidationException 'Invalid global secondary index name'")
def test_update_unknown_index_of_provisioned_table(dynamodb, provisioned):
    expect_error(lambda: dynamodb.update_table(TableName=provisioned, GlobalSecondaryIndexUpdates=[{"Update": {
        "IndexName": "nope", "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 2}}}]),
        "ResourceNotFoundException", "Requested resource not found: Index nope for table " + provisioned)


# On a provisioned table a new index needs its own throughput, which DescribeTable then reports;
# an Update changes it.
def test_provisioned_index_throughput(dynamodb, provisioned):
    dynamodb.update_table(TableName=provisioned, AttributeDefinitions=ad(("g", "S")),
                          GlobalSecondaryIndexUpdates=[{"Create": gsi("by_g", "g", throughput=(2, 3))}])
    desc = h.wait_active(dynamodb, provisioned, timeout=BUILD_TIMEOUT)
    pt = index_entry(desc, "by_g")["ProvisionedThroughput"]
    assert (pt["ReadCapacityUnits"], pt["WriteCapacityUnits"]) == (2, 3)
    dynamodb.update_table(TableName=provisioned, GlobalSecondaryIndexUpdates=[
        {"Update": {"IndexName": "by_g", "ProvisionedThroughput": {"ReadCapacityUnits": 4, "WriteCapacityUnits": 5}}}])
    desc = ix.wait_for(lambda: h.wait_active(dynamodb, provisioned, timeout=BUILD_TIMEOUT),
                       lambda d: index_entry(d, "by_g")["ProvisionedThroughput"]["ReadCapacityUnits"] == 4, timeout=300)
    assert index_entry(desc, "by_g")["ProvisionedThroughput"]["WriteCapacityUnits"] == 5


# ...and a Create without throughput is refused.
@dev("500 InternalFailure")
def test_provisioned_create_without_throughput(dynamodb, provisioned):
    expect_error(lambda: dynamodb.update_table(TableName=provisioned, AttributeDefinitions=ad(("g", "S")),
                                               GlobalSecondaryIndexUpdates=[{"Create": gsi("by_g", "g")}]),
                 VE, h.either_envelope(INVALID + "Both ReadCapacityUnits and WriteCapacityUnits must be specified for index: by_g"))
