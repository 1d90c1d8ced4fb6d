"""Limits on what an item may hold, on every write path: attribute names of at most 65,535
bytes at any level, and at most 32 levels of nesting, also in the item an update leaves.

The attribute-name texts are the service's as measured in September 2026 (ExtendDB issue 365:
PutItem, nested map keys, UpdateItem SET of a long name and of a map holding one);
DynamoDB Local answers a 500 InternalFailure to any name of 65,535 bytes or more.
"""
import pytest

import dynamo_helpers as h
from dynamo_helpers import check_error, expect_error

dev = pytest.mark.dynamodb_local_deviation
LOCAL_NAME = "answers 500 InternalFailure to an attribute name of 65,535 bytes or more"
NAME_TOO_LARGE = "1 validation error detected: Attribute name is too large, must be less than 65536 bytes"
NESTING = "Nesting Levels have exceeded supported limits"
S = lambda v: {"S": v}  # noqa: E731


def long_name(n):
    return "n" * n


@pytest.fixture(scope="module")
def tbl(module_tables):
    return module_tables("hash", tag="lim")


def deep(levels):
    """An AttributeValue of `levels` levels (a string inside levels-1 lists)."""
    v = S("x")
    for _ in range(levels - 1):
        v = {"L": [v]}
    return v


# Each write path, with an item holding `name` at the top level or one map down (the paths
# named "doc" and the INSERT always nest it).
def writes(dynamodb, tbl, name, nested):
    suffix = "-nested" if nested else "-top"

    def item(k):
        k += suffix
        return {"pk": S(k), "doc": {"M": {name: S("v")}}} if nested else {"pk": S(k), name: S("v")}
    return {
        "PutItem": lambda: dynamodb.put_item(TableName=tbl, Item=item("put")),
        "BatchWriteItem": lambda: dynamodb.batch_write_item(
            RequestItems={tbl: [{"PutRequest": {"Item": item("batch")}}]}),
        "TransactWriteItems Put": lambda: dynamodb.transact_write_items(
            TransactItems=[{"Put": {"TableName": tbl, "Item": item("txput")}}]),
        "UpdateItem SET #n": lambda: dynamodb.update_item(
            TableName=tbl, Key={"pk": S("upd" + suffix)},
            UpdateExpression="SET doc.#n = :v" if nested else "SET #n = :v",
            ExpressionAttributeNames={"#n": name}, ExpressionAttributeValues={":v": S("v")}),
        "UpdateItem SET doc = :v": lambda: dynamodb.update_item(
            TableName=tbl, Key={"pk": S("upd2" + suffix)}, UpdateExpression="SET doc = :v",
            ExpressionAttributeValues={":v": {"M": {name: S("v")}}}),
        "TransactWriteItems Update": lambda: dynamodb.transact_write_items(TransactItems=[{"Update": {
            "TableName": tbl, "Key": {"pk": S("txupd" + suffix)}, "UpdateExpression": "SET #n = :v",
            "ExpressionAttributeNames": {"#n": name}, "ExpressionAttributeValues": {":v": S("v")}}}]),
        "ExecuteStatement INSERT": lambda: dynamodb.execute_statement(
            Statement='INSERT INTO "%s" VALUE {\'pk\': \'pq%s\', \'doc\': ?}' % (tbl, suffix),
            Parameters=[{"M": {name: S("v")}}]),
    }


@dev(LOCAL_NAME)
@pytest.mark.parametrize("nested", [False, True], ids=["top-level", "nested"])
def test_attribute_name_limit_on_every_write_path(dynamodb, tbl, nested):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("upd-nested"), "doc": {"M": {}}})
    always_nested = ("UpdateItem SET doc = :v", "ExecuteStatement INSERT")
    for what, write in writes(dynamodb, tbl, long_name(65535), nested).items():
        if nested or what not in always_nested:
            write()  # 65,535 bytes: the longest name the service takes
    for what, write in writes(dynamodb, tbl, long_name(65536), nested).items():
        if not nested and what in always_nested:
            continue
        try:
            write()
        except Exception as e:  # noqa: BLE001 - checked below
            check_error(e, "ValidationException", NAME_TOO_LARGE)
        else:
            pytest.fail("%s accepted a 65,536-byte attribute name" % what)


@dev(LOCAL_NAME)
def test_long_name_in_a_list_of_maps(dynamodb, tbl):
    item = {"pk": S("lm"), "l": {"L": [S("a"), {"M": {long_name(65536): S("v")}}]}}
    expect_error(lambda: dynamodb.put_item(TableName=tbl, Item=item), "ValidationException", NAME_TOO_LARGE)


def test_item_nesting_limit(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("deep"), "d": deep(32)})
    expect_error(lambda: dynamodb.put_item(TableName=tbl, Item={"pk": S("deep"), "d": deep(33)}),
                 "ValidationException",
                 NESTING + ": Attributes in the item have nested levels beyond supported limit")


# DynamoDB Local 2026: SET a.b.c = :v with a value of 30 levels is refused (2 + 30 > 32)
# with this text, 29 levels are stored.
def test_update_may_not_nest_deeper_than_32(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("un"), "a": {"M": {"b": {"M": {}}}}})
    dynamodb.update_item(TableName=tbl, Key={"pk": S("un")}, UpdateExpression="SET a.b.c = :v",
                         ExpressionAttributeValues={":v": deep(30)})
    got = dynamodb.get_item(TableName=tbl, Key={"pk": S("un")})["Item"]
    assert got["a"]["M"]["b"]["M"]["c"] == deep(30)
    for expression, value in (("SET a.b.c = :v", deep(31)), ("SET a.b.c = list_append(:v, :v)", {"L": [deep(30)]})):
        expect_error(lambda: dynamodb.update_item(TableName=tbl, Key={"pk": S("un")}, UpdateExpression=expression,
                                                  ExpressionAttributeValues={":v": value}),
                     "ValidationException", NESTING)
    # A value deeper than an item may be is refused as it is read, with the item's text.
    expect_error(lambda: dynamodb.update_item(TableName=tbl, Key={"pk": S("un")}, UpdateExpression="SET x = :v",
                                              ExpressionAttributeValues={":v": deep(33)}),
                 "ValidationException", NESTING + ": Attributes in the item have nested levels beyond supported limit")
    # Nothing of the refused updates is kept; an update can never build an item past the limit.
    assert dynamodb.get_item(TableName=tbl, Key={"pk": S("un")})["Item"] == got


# An ExpressionAttributeValue deeper than an item may be is refused before any condition is
# evaluated, with the item's text (32 levels pass; the service in eu-west-2 and five other
# regions, 2026, dynoxide issue 110 and the conformance suite's split registry: the other regions
# evaluate the condition instead; docs/service-fidelity.md).
@dev("evaluates the condition with the deep value")
@pytest.mark.parametrize("op", ["put", "update", "delete", "query", "scan"])
def test_expression_value_nesting_limit(dynamodb, tbl, op):
    key = {"pk": S("eav-" + op)}
    dynamodb.put_item(TableName=tbl, Item=dict(key, a=S("x")))

    def call(levels):
        values = {":v": deep(levels)}
        if op == "put":
            return dynamodb.put_item(TableName=tbl, Item=key, ConditionExpression="a <> :v",
                                     ExpressionAttributeValues=values)
        if op == "update":
            return dynamodb.update_item(TableName=tbl, Key=key, UpdateExpression="SET b = :b",
                                        ConditionExpression="a <> :v",
                                        ExpressionAttributeValues=dict(values, **{":b": S("b")}))
        if op == "delete":
            return dynamodb.delete_item(TableName=tbl, Key=key, ConditionExpression="a = :v",
                                        ExpressionAttributeValues=values)
        if op == "query":
            return dynamodb.query(TableName=tbl, KeyConditionExpression="pk = :p", FilterExpression="a = :v",
                                  ExpressionAttributeValues=dict(values, **{":p": key["pk"]}))
        return dynamodb.scan(TableName=tbl, FilterExpression="a = :v", ExpressionAttributeValues=values)

    expect_error(lambda: call(33), "ValidationException",
                 NESTING + ": Attributes in the item have nested levels beyond supported limit")
    if op == "delete":
        expect_error(lambda: call(32), "ConditionalCheckFailedException")
    else:
        call(32)
