"""A key attribute is read and written only whole: an expression path into one ("pk.a", "gsk[0]")
is a ValidationException, `Key attributes must be scalars; list random access '[]' and map lookup
'.' are not allowed: Key: pk` for the table's keys and `... IndexKey: gsk` for an index's.

Projections, conditions, filters and key conditions are checked before anything else about the key or
the item, in every operation; the key attributes are looked at in a fixed order (the table's, then
each local index's, then each global index's keys), whatever the order of the paths. An update's own
paths (what it writes, and what its SET actions read) are checked once its condition has passed.

The rules were found by tests/differential/differential.py against DynamoDB Local (3.3.0) and pinned
down with the requests below; the service's documentation is silent on them, so DynamoDB Local is
the reference here (the notes: /work/notes/expressions.md, "Paths into key attributes").
"""
import pytest

import dynamo_helpers as h
from batch_txn_helpers import expect_cancelled
from dynamo_helpers import expect_error
from index_helpers import VE, N, S, ad, gsi, ks

dev = pytest.mark.dynamodb_local_deviation

KEY = {"pk": S("a"), "sk": N(1)}
MISSING = {"pk": S("missing"), "sk": N(1)}
V = {":v": S("v")}
ITEM = dict(KEY, gpk=S("g"), gsk=S("h"), lsk=N(1), x=S("v"))


def scalar(kind, name):
    return h.either_envelope("Key attributes must be scalars; list random access '[]' and map lookup '.' are "
                             "not allowed: %s: %s" % (kind, name))


@pytest.fixture(scope="module")
def t(module_tables, dynamodb):
    """pk S + sk N; GSI gsi (gpk, gsk) ALL; LSI lsi (pk, lsk) KEYS_ONLY; one item holding every key."""
    name = module_tables(
        "range", tag="keypaths",
        AttributeDefinitions=ad(("pk", "S"), ("sk", "N"), ("gpk", "S"), ("gsk", "S"), ("lsk", "N")),
        GlobalSecondaryIndexes=[gsi("gsi", "gpk", "gsk")],
        LocalSecondaryIndexes=[{"IndexName": "lsi", "KeySchema": ks(("pk", "HASH"), ("lsk", "RANGE")),
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    dynamodb.put_item(TableName=name, Item=ITEM)
    return name

# (id, operation, request without TableName, key kind, key attribute)
READS = [
    ("get-projection-table-partition", "get_item", dict(Key=KEY, ProjectionExpression="pk.x"), "Key", "pk"),
    ("get-projection-table-sort", "get_item", dict(Key=KEY, ProjectionExpression="sk[0]"), "Key", "sk"),
    ("get-projection-gsi-sort", "get_item", dict(Key=KEY, ProjectionExpression="gsk.x"), "IndexKey", "gsk"),
    ("get-projection-placeholder", "get_item",
     dict(Key=KEY, ProjectionExpression="#g.x", ExpressionAttributeNames={"#g": "gsk"}), "IndexKey", "gsk"),
    # the table's keys before the indexes', whatever the order of the paths
    ("get-projection-table-key-first", "get_item", dict(Key=KEY, ProjectionExpression="x, gsk.x, pk.y"), "Key", "pk"),
    # before the key is looked at
    ("get-before-key-check", "get_item", dict(Key={"pk": S("a")}, ProjectionExpression="gsk.x"), "IndexKey", "gsk"),
    ("put-condition", "put_item", dict(Item=KEY, ConditionExpression="attribute_exists(pk.x)"), "Key", "pk"),
    ("put-condition-lsi", "put_item",
     dict(Item=KEY, ConditionExpression="lsk[1] = :v", ExpressionAttributeValues=V), "IndexKey", "lsk"),
    ("put-condition-operand", "put_item", dict(Item=KEY, ConditionExpression="x = gsk.y"), "IndexKey", "gsk"),
    # a missing item: no ConditionalCheckFailedException, the condition is refused first
    ("delete-condition-missing-item", "delete_item",
     dict(Key=MISSING, ConditionExpression="size(gsk[0]) > :n", ExpressionAttributeValues={":n": N(1)}),
     "IndexKey", "gsk"),
    ("update-condition", "update_item",
     dict(Key=KEY, UpdateExpression="SET x = :v", ConditionExpression="gsk.x = :v", ExpressionAttributeValues=V),
     "IndexKey", "gsk"),
    ("query-filter-gsi-key", "query",
     dict(KeyConditionExpression="pk = :p", FilterExpression="gpk.x = :v",
          ExpressionAttributeValues={":p": S("a"), **V}), "IndexKey", "gpk"),
    ("query-filter-lsi-key", "query",
     dict(KeyConditionExpression="pk = :p", FilterExpression="lsk.x = :v",
          ExpressionAttributeValues={":p": S("a"), **V}), "IndexKey", "lsk"),
    ("query-filter-sort-key", "query",
     dict(KeyConditionExpression="pk = :p", FilterExpression="sk.x = :v",
          ExpressionAttributeValues={":p": S("a"), **V}), "Key", "sk"),
    ("query-projection", "query",
     dict(KeyConditionExpression="pk = :p", ProjectionExpression="gsk.x", ExpressionAttributeValues={":p": S("a")}),
     "IndexKey", "gsk"),
    # on an index, its own keys are still index keys, and the table's keys still table keys
    ("query-gsi-filter-own-key", "query",
     dict(IndexName="gsi", KeyConditionExpression="gpk = :p", FilterExpression="gsk.x = :v",
          ExpressionAttributeValues={":p": S("g"), **V}), "IndexKey", "gsk"),
    ("query-gsi-filter-table-key", "query",
     dict(IndexName="gsi", KeyConditionExpression="gpk = :p", FilterExpression="pk.x = :v",
          ExpressionAttributeValues={":p": S("g"), **V}), "Key", "pk"),
    # before the index's projection is looked at...
    ("query-lsi-filter-not-projected", "query",
     dict(IndexName="lsi", KeyConditionExpression="pk = :p", FilterExpression="gsk.x = :v",
          ExpressionAttributeValues={":p": S("a"), **V}), "IndexKey", "gsk"),
    # ...before the key condition's own checks, and before a filter on a key
    ("query-before-key-condition", "query",
     dict(KeyConditionExpression="x = :p", FilterExpression="gsk.x = :v",
          ExpressionAttributeValues={":p": S("a"), **V}), "IndexKey", "gsk"),
    ("query-before-filter-on-key", "query",
     dict(KeyConditionExpression="pk = :p", FilterExpression="sk = :v", ProjectionExpression="gsk.x",
          ExpressionAttributeValues={":p": S("a"), **V}), "IndexKey", "gsk"),
    ("scan-filter-table-key", "scan", dict(FilterExpression="pk.x = :v", ExpressionAttributeValues=V), "Key", "pk"),
    ("scan-filter-index-key", "scan", dict(FilterExpression="gsk.x = :v", ExpressionAttributeValues=V),
     "IndexKey", "gsk"),
    ("scan-projection", "scan", dict(ProjectionExpression="lsk.x"), "IndexKey", "lsk"),
    ("scan-gsi-filter-table-key", "scan",
     dict(IndexName="gsi", FilterExpression="pk.x = :v", ExpressionAttributeValues=V), "Key", "pk"),
    # one expression after the other: the filter's paths before the projection's, whatever their keys
    ("scan-filter-before-projection", "scan",
     dict(FilterExpression="attribute_exists(gsk.x)", ProjectionExpression="lsk[1]"), "IndexKey", "gsk"),
    ("query-projection-before-key-condition", "query",
     dict(KeyConditionExpression="pk.x = :p", ProjectionExpression="gsk.x", ExpressionAttributeValues={":p": S("a")}),
     "IndexKey", "gsk"),
]


@pytest.mark.parametrize("operation,request_,kind,name", [r[1:] for r in READS], ids=[r[0] for r in READS])
def test_read_into_key_refused(dynamodb, t, operation, request_, kind, name):
    expect_error(lambda: getattr(dynamodb, operation)(TableName=t, **request_), VE, scalar(kind, name))
    assert dynamodb.get_item(TableName=t, Key=KEY, ConsistentRead=True)["Item"] == ITEM


def test_query_unknown_index_comes_first(dynamodb, t):
    expect_error(lambda: dynamodb.query(TableName=t, IndexName="nope", KeyConditionExpression="pk = :p",
                                        FilterExpression="gsk.x = :v", ExpressionAttributeValues={":p": S("a"), **V}),
                 VE, h.either_envelope("The table does not have the specified index: nope"))


def test_batch_get_projection(dynamodb, t):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={t: {"Keys": [KEY], "ProjectionExpression": "gsk.x"}}),
                 VE, scalar("IndexKey", "gsk"))


def test_transact_get_projection(dynamodb, t):
    expect_error(lambda: dynamodb.transact_get_items(TransactItems=[
        {"Get": {"TableName": t, "Key": KEY, "ProjectionExpression": "gsk.x"}}]), VE, scalar("IndexKey", "gsk"))


# In a transaction the condition is refused for the whole call, not as a cancellation reason.
@pytest.mark.parametrize("action,kind,name", [
    ({"Put": {"Item": KEY, "ConditionExpression": "attribute_exists(gsk.x)"}}, "IndexKey", "gsk"),
    ({"Delete": {"Key": KEY, "ConditionExpression": "attribute_exists(pk.x)"}}, "Key", "pk"),
    ({"Update": {"Key": KEY, "UpdateExpression": "SET x = :v", "ConditionExpression": "attribute_exists(gsk.x)",
                 "ExpressionAttributeValues": V}}, "IndexKey", "gsk"),
    # DynamoDB Local does not check a ConditionCheck's condition (it answers ConditionalCheckFailed)
    # while it checks the same condition on a Put, Update or Delete; dynamod checks all four alike.
    pytest.param({"ConditionCheck": {"Key": KEY, "ConditionExpression": "attribute_exists(pk.x)"}}, "Key", "pk",
                 marks=dev("a ConditionCheck's condition is not checked: [ConditionalCheckFailed]")),
], ids=["put", "delete", "update", "condition-check"])
def test_transact_write_condition(dynamodb, t, action, kind, name):
    (verb, body), = action.items()
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=[{verb: dict(body, TableName=t)}]),
                 VE, scalar(kind, name))


# ---- an update's own paths, what it writes and what its SET actions read: checked once the
# condition has passed

UPDATE_PATHS = [
    ("set-target", "SET gsk.x = :v", "IndexKey", "gsk"),
    ("remove-target", "REMOVE lsk[0]", "IndexKey", "lsk"),
    ("set-value", "SET x = gsk.y", "IndexKey", "gsk"),
    ("set-value-table-key", "SET x = pk.y", "Key", "pk"),
    ("set-function-argument", "SET x = if_not_exists(gsk.y, :v)", "IndexKey", "gsk"),
    ("set-arithmetic", "SET lsk = lsk[1] + :n", "IndexKey", "lsk"),
]


def update_values(expression):
    values = {k: v for k, v in {":n": N(1), **V}.items() if k in expression}
    return {"ExpressionAttributeValues": values} if values else {}


@pytest.mark.parametrize("expression", [u[1] for u in UPDATE_PATHS], ids=[u[0] for u in UPDATE_PATHS])
def test_update_paths_after_condition(dynamodb, t, expression):
    expect_error(lambda: dynamodb.update_item(TableName=t, Key=KEY, UpdateExpression=expression,
                                              ConditionExpression="attribute_not_exists(pk)",
                                              **update_values(expression)),
                 "ConditionalCheckFailedException", "The conditional request failed")
    assert dynamodb.get_item(TableName=t, Key=KEY, ConsistentRead=True)["Item"] == ITEM


@pytest.mark.parametrize("expression,kind,name", [u[1:] for u in UPDATE_PATHS], ids=[u[0] for u in UPDATE_PATHS])
def test_update_paths_when_condition_passes(dynamodb, t, expression, kind, name):
    expect_error(lambda: dynamodb.update_item(TableName=t, Key=KEY, UpdateExpression=expression,
                                              ConditionExpression="attribute_exists(pk)", **update_values(expression)),
                 VE, scalar(kind, name))
    assert dynamodb.get_item(TableName=t, Key=KEY, ConsistentRead=True)["Item"] == ITEM


# An update that only removes does nothing to a missing item, but a path into a key is refused first.
def test_update_target_on_missing_item(dynamodb, t):
    expect_error(lambda: dynamodb.update_item(TableName=t, Key=MISSING, UpdateExpression="REMOVE lsk[0]"),
                 VE, scalar("IndexKey", "lsk"))


# Local indexes' keys before global ones', a partition key before a sort key: not the order written.
@pytest.mark.parametrize("expression,name", [
    ("ADD lsk.b :n SET gpk[1] = :v", "lsk"),
    ("SET gpk[1] = :v ADD lsk.b :n", "lsk"),
    ("SET gsk.b = :v, gpk[1] = :v", "gpk"),
], ids=["lsi-first", "lsi-first-written-last", "partition-before-sort"])
def test_update_target_order(dynamodb, t, expression, name):
    expect_error(lambda: dynamodb.update_item(TableName=t, Key=KEY, UpdateExpression=expression,
                                              **update_values(expression)),
                 VE, scalar("IndexKey", name))


def test_transact_update_target_after_condition(dynamodb, t):
    expect_cancelled(lambda: dynamodb.transact_write_items(TransactItems=[
        {"Update": {"TableName": t, "Key": KEY, "UpdateExpression": "SET gsk.x = :v",
                    "ConditionExpression": "attribute_not_exists(pk)", "ExpressionAttributeValues": V}}]),
        ["ConditionalCheckFailed"])


# Found when the update is applied, so, as the service does with other apply-time update errors
# (/work/notes/errors-batch-transact.md), a ValidationError cancellation reason.
@dev("answers a ValidationException for the whole call, as it does for every apply-time update error")
def test_transact_update_target(dynamodb, t):
    expect_cancelled(lambda: dynamodb.transact_write_items(TransactItems=[
        {"Update": {"TableName": t, "Key": KEY, "UpdateExpression": "SET gsk.x = :v",
                    "ExpressionAttributeValues": V}}]),
        ["ValidationError"], {0: scalar("IndexKey", "gsk")})
    assert dynamodb.get_item(TableName=t, Key=KEY, ConsistentRead=True)["Item"] == ITEM
