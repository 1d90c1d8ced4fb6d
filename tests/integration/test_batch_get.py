"""BatchGetItem: request validation (exact messages), the answer's shape (Responses per table,
UnprocessedKeys always present), projections, the 16 MB partial answer and ConsumedCapacity.

Catalogue: /work/notes/errors-batch-transact.md ("BatchGetItem").
"""
import pytest

from batch_txn_helpers import (DUP_BATCH, EMPTY_S_KEY, ENUM_RCC, KEY_SCHEMA, NOT_FOUND, B, N, S,
                               batch_get_all, batch_write_all, by_table, coral_regex, key_sorted, pad_item)
from dynamo_helpers import ENVELOPE, either_envelope, expect_error, unique_name

dev = pytest.mark.dynamodb_local_deviation
VE = "ValidationException"
RNF = "ResourceNotFoundException"


@pytest.fixture(scope="module")
def tables(module_tables, dynamodb):
    """h: pk S; r: pk S + sk N; n: pk N; b: pk B — with a few items."""
    t = {
        "h": module_tables("hash", tag="bgh"),
        "r": module_tables("range", tag="bgr"),
        "n": module_tables("hash", tag="bgn", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "N"}]),
        "b": module_tables("hash", tag="bgb", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "B"}]),
    }
    batch_write_all(dynamodb, {
        t["h"]: [{"PutRequest": {"Item": {"pk": S("i1"), "a": S("x"), "b": N("1"), "m": {"M": {"q": S("deep")}}}}},
                 {"PutRequest": {"Item": {"pk": S("i2"), "a": S("y")}}},
                 {"PutRequest": {"Item": {"pk": S("i3")}}}],
        t["r"]: [{"PutRequest": {"Item": {"pk": S("p"), "sk": N("1"), "v": S("one")}}},
                 {"PutRequest": {"Item": {"pk": S("p"), "sk": N("2"), "v": S("two")}}}],
    })
    return t


def hk(v):
    return {"pk": S(v)}


# ---------------------------------------------------------------- request validation


# An empty RequestItems map. The service is moving from the bespoke sentence to the generic
# constraint message (32 of 33 regions answered the generic one by 2026-09).
@dev("says 'BatchGetItem must have some requests set'")
def test_empty_request_items(unchecked):
    expect_error(lambda: unchecked.batch_get_item(RequestItems={}), VE, [
        ENVELOPE + "Value at 'RequestItems' failed to satisfy constraint: Member must have length greater than or equal to 1",
        "The requestItems parameter is required for BatchGetItem"])


@dev("says 'The list of keys in RequestItems for BatchGetItem is required: <t> has empty list'")
def test_empty_keys(unchecked, tables):
    t = tables["h"]
    expect_error(lambda: unchecked.batch_get_item(RequestItems={t: {"Keys": []}}), VE, regex=coral_regex(
        "requestItems.%s.member.keys" % t, "RequestItems.%s.member.Keys" % t,
        "Member must have length greater than or equal to 1", r"\[\]"))


@dev("says 'Too many items requested for the BatchGetItem call' for one table too")
def test_more_than_100_keys_in_one_table(dynamodb, tables):
    t = tables["h"]
    keys = [hk("k%d" % i) for i in range(101)]
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={t: {"Keys": keys}}), VE, regex=coral_regex(
        "requestItems.%s.member.keys" % t, "RequestItems.%s.member.Keys" % t,
        "Member must have length less than or equal to 100", r"\[.+\]"))


# At most 100 per table, but 101 in the whole request.
def test_more_than_100_keys_across_tables(dynamodb, tables):
    req = {tables["h"]: {"Keys": [hk("k%d" % i) for i in range(60)]},
           tables["r"]: {"Keys": [{"pk": S("p"), "sk": N(str(i))} for i in range(41)]}}
    expect_error(lambda: dynamodb.batch_get_item(RequestItems=req), VE,
                 "Too many items requested for the BatchGetItem call")


# Exactly 100 keys are allowed; missing keys are simply absent from the answer.
def test_100_keys_allowed(dynamodb, tables):
    t = tables["h"]
    keys = [hk("i1"), hk("i2")] + [hk("none%d" % i) for i in range(98)]
    got, _ = batch_get_all(dynamodb, {t: {"Keys": keys}})
    assert sorted(it["pk"]["S"] for it in got[t]) == ["i1", "i2"]


@pytest.mark.parametrize("keys", [
    [hk("dup"), hk("dup")],
    [hk("dup"), hk("other"), hk("dup")],
], ids=["adjacent", "apart"])
def test_duplicate_keys(dynamodb, tables, keys):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={tables["h"]: {"Keys": keys}}), VE, DUP_BATCH)


# A key is the same key whatever the order of its attributes in the map.
def test_duplicate_keys_attribute_order(dynamodb, tables):
    keys = [{"pk": S("p"), "sk": N("1")}, {"sk": N("1"), "pk": S("p")}]
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={tables["r"]: {"Keys": keys}}), VE, DUP_BATCH)


# Keys sharing only the partition key are not duplicates; the same key in two tables neither.
def test_not_duplicates(dynamodb, tables, table):
    other = table("hash", tag="bgo")
    dynamodb.put_item(TableName=other, Item={"pk": S("i1"), "from": S("other")})
    got, _ = batch_get_all(dynamodb, {
        tables["r"]: {"Keys": [{"pk": S("p"), "sk": N("1")}, {"pk": S("p"), "sk": N("2")}], "ConsistentRead": True},
        tables["h"]: {"Keys": [hk("i1")], "ProjectionExpression": "pk", "ConsistentRead": True},
        other: {"Keys": [hk("i1")], "ConsistentRead": True}})
    assert key_sorted(got[tables["r"]]) == [{"pk": S("p"), "sk": N("1"), "v": S("one")},
                                            {"pk": S("p"), "sk": N("2"), "v": S("two")}]
    assert got[tables["h"]] == [hk("i1")]
    assert got[other] == [{"pk": S("i1"), "from": S("other")}]


@dev("says 'Cannot do operations on a non-existent table'")
def test_missing_table(dynamodb, tables):
    missing = unique_name("nope")
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={
        tables["h"]: {"Keys": [hk("i1")]}, missing: {"Keys": [hk("a")]}}), RNF, NOT_FOUND)


# BatchGetItem checks for duplicate keys while validating the request, before the table lookup
# (BatchWriteItem does it the other way round).
def test_duplicates_before_missing_table(dynamodb):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={
        unique_name("nope"): {"Keys": [hk("a"), hk("a")]}}), VE, DUP_BATCH)


@dev("own texts: 'The number of conditions on the keys is invalid', 'Type mismatch for key' (truncated), "
     "'Invalid attribute value type', 'One of the required keys was not given a value', '... may not contain null "
     "or empty values ...'")
@pytest.mark.parametrize("which,key", [
    ("h", {}),
    ("h", {"other": S("a")}),
    ("h", {"pk": S("a"), "extra": S("b")}),
    ("h", {"pk": N("1")}),
    ("h", {"pk": {"SS": ["a"]}}),
    ("h", {"pk": {"L": [S("a")]}}),
    ("r", {"pk": S("p")}),
    ("r", {"pk": S("p"), "sk": S("1")}),
], ids=["empty", "wrong-name", "extra-attr", "wrong-type", "set", "list", "missing-range", "range-wrong-type"])
def test_key_does_not_match_schema(dynamodb, tables, which, key):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={tables[which]: {"Keys": [key]}}), VE, KEY_SCHEMA)


def test_empty_string_key(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={tables["h"]: {"Keys": [hk("")]}}), VE, EMPTY_S_KEY)


def test_empty_binary_key(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={tables["b"]: {"Keys": [{"pk": B(b"")}]}}), VE,
                 EMPTY_S_KEY.replace("empty string value", "empty binary value"))


@dev("one combined sentence for both key-size limits")
def test_hash_key_too_long(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={tables["h"]: {"Keys": [hk("a" * 2049)]}}), VE,
                 "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes")


@dev("own table-name sentence ('Invalid table/index name. ...')")
def test_bad_table_name(dynamodb):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={"bad!name": {"Keys": [hk("a")]}}), VE,
                 ENVELOPE + "Value '{\"bad!name\":{\"Keys\":[{\"pk\":{\"S\":\"a\"}}]}}' at 'requestItems' failed to "
                 "satisfy constraint: Map keys must satisfy constraint: [Member must have length less than or equal "
                 "to 255, Member must have length greater than or equal to 3, Member must satisfy regular expression "
                 "pattern: [a-zA-Z0-9_.-]+]")


@dev("accepts any ReturnConsumedCapacity")
def test_bad_return_consumed_capacity(unchecked, tables):
    expect_error(lambda: unchecked.batch_get_item(RequestItems={tables["h"]: {"Keys": [hk("i1")]}},
                                                  ReturnConsumedCapacity="BOGUS"), VE, ENVELOPE + ENUM_RCC)


# Member constraints are checked before the table lookup.
@dev("accepts any ReturnConsumedCapacity (and then reports the missing table)")
def test_bad_return_consumed_capacity_before_missing_table(unchecked):
    expect_error(lambda: unchecked.batch_get_item(RequestItems={unique_name("nope"): {"Keys": [hk("a")]}},
                                                  ReturnConsumedCapacity="BOGUS"), VE, ENVELOPE + ENUM_RCC)


# ---------------------------------------------------------------- projections: validation


@pytest.mark.parametrize("expr,msg", [
    ("!!", 'Invalid ProjectionExpression: Syntax error; token: "!", near: "!!"'),
    ("", "Invalid ProjectionExpression: The expression can not be empty;"),
    ("#a", "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; "
           "attribute name: #a"),
    ("a, a", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one "
             "of these paths; path one: [a], path two: [a]"),
    ("a, a.b", "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite "
               "one of these paths; path one: [a], path two: [a, b]"),
], ids=["syntax", "empty", "undefined-name", "duplicate", "overlap"])
def test_projection_errors(dynamodb, tables, expr, msg):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={tables["h"]: {"Keys": [hk("i1")],
                                                                             "ProjectionExpression": expr}}), VE, msg)


# Duplicate keys, in any table, are named before any table's projection error (DynamoDB Local).
@pytest.mark.parametrize("projection", ["!!", "a, a", "#a"], ids=["syntax", "overlap", "undefined-name"])
def test_duplicates_before_projection_errors(dynamodb, tables, projection):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={
        tables["h"]: {"Keys": [hk("i1")], "ProjectionExpression": projection},
        tables["r"]: {"Keys": [{"pk": S("p"), "sk": N("1")}, {"pk": S("p"), "sk": N("1")}]}}), VE,
        DUP_BATCH)


# One bad projection fails the whole call, even with a clean entry for another table.
def test_bad_projection_on_one_table_fails_all(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={
        tables["r"]: {"Keys": [{"pk": S("p"), "sk": N("1")}], "ProjectionExpression": "v"},
        tables["h"]: {"Keys": [hk("i1")], "ProjectionExpression": "a, a"}}), VE,
        "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of "
        "these paths; path one: [a], path two: [a]")


def test_unused_expression_attribute_name(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={tables["h"]: {
        "Keys": [hk("i1")], "ProjectionExpression": "#p", "ExpressionAttributeNames": {"#p": "pk", "#u": "u"}}}), VE,
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#u}")


def test_expression_attribute_names_without_projection(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={tables["h"]: {
        "Keys": [hk("i1")], "ExpressionAttributeNames": {"#p": "pk"}}}), VE,
        either_envelope("ExpressionAttributeNames can only be specified when using expressions"))


MIXED = ("Can not use both expression and non-expression parameters in the same request: "
         "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}")


def test_attributes_to_get_with_projection(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={tables["h"]: {
        "Keys": [hk("i1")], "AttributesToGet": ["pk"], "ProjectionExpression": "pk"}}), VE, either_envelope(MIXED))


# The mixing rule applies to the whole request: a projection on one table and AttributesToGet on another.
def test_attributes_to_get_and_projection_across_tables(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={
        tables["h"]: {"Keys": [hk("i1")], "ProjectionExpression": "pk"},
        tables["r"]: {"Keys": [{"pk": S("p"), "sk": N("1")}], "AttributesToGet": ["pk"]}}), VE, either_envelope(MIXED))


def test_attributes_to_get_duplicate(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_get_item(RequestItems={tables["h"]: {
        "Keys": [hk("i1")], "AttributesToGet": ["a", "a"]}}), VE,
        either_envelope("One or more parameter values were invalid: Duplicate value in attribute name: a"))


# ---------------------------------------------------------------- answers


# Missing keys are left out; a table whose keys are all missing still has its (empty) list;
# UnprocessedKeys is always present and {} when everything was read.
def test_found_and_missing(dynamodb, tables):
    resp = dynamodb.batch_get_item(RequestItems={
        tables["h"]: {"Keys": [hk("i2"), hk("nothere"), hk("i3")], "ConsistentRead": True},
        tables["r"]: {"Keys": [{"pk": S("nothere"), "sk": N("1")}], "ConsistentRead": True}})
    assert resp["UnprocessedKeys"] == {}
    assert set(resp["Responses"]) == {tables["h"], tables["r"]}
    assert key_sorted(resp["Responses"][tables["h"]], ("pk",)) == [{"pk": S("i2"), "a": S("y")}, {"pk": S("i3")}]
    assert resp["Responses"][tables["r"]] == []
    assert "ConsumedCapacity" not in resp


# A projection does not add the key attributes; an existing item that has none of the projected
# attributes comes back as {} (unlike a missing key, which is left out).
@pytest.mark.parametrize("proj", [
    {"ProjectionExpression": "a, m.q"},
    {"ProjectionExpression": "#a, #m.#q", "ExpressionAttributeNames": {"#a": "a", "#m": "m", "#q": "q"}},
], ids=["plain", "names"])
def test_projection(dynamodb, tables, proj):
    resp = dynamodb.batch_get_item(RequestItems={tables["h"]: dict(
        Keys=[hk("i1"), hk("i3"), hk("nothere")], ConsistentRead=True, **proj)})
    got = resp["Responses"][tables["h"]]
    assert sorted(got, key=len) == [{}, {"a": S("x"), "m": {"M": {"q": S("deep")}}}]


def test_attributes_to_get(dynamodb, tables):
    resp = dynamodb.batch_get_item(RequestItems={tables["h"]: {
        "Keys": [hk("i1"), hk("i2")], "AttributesToGet": ["pk", "b"], "ConsistentRead": True}})
    assert key_sorted(resp["Responses"][tables["h"]], ("pk",)) == [{"pk": S("i1"), "b": N("1")}, {"pk": S("i2")}]


# Numbers in keys are matched numerically and returned normalised.
def test_number_keys(dynamodb, tables):
    dynamodb.put_item(TableName=tables["n"], Item={"pk": N("1000"), "v": S("k")})
    resp = dynamodb.batch_get_item(RequestItems={tables["n"]: {"Keys": [{"pk": N("1e3")}], "ConsistentRead": True}})
    assert resp["Responses"][tables["n"]] == [{"pk": N("1000"), "v": S("k")}]


# ---------------------------------------------------------------- ConsumedCapacity


# AWS's worked example: items of 1.5 KB and 6.5 KB are rounded separately (4 KB + 8 KB = 12 KB):
# 3 RCU strongly consistent, 1.5 eventually consistent. Projections do not reduce it.
@pytest.fixture(scope="module")
def sized(module_tables, dynamodb):
    t = module_tables("hash", tag="bgc")
    dynamodb.put_item(TableName=t, Item=pad_item(hk("k1536"), 1536))
    dynamodb.put_item(TableName=t, Item=pad_item(hk("k6656"), 6656))
    return t


@pytest.mark.parametrize("consistent,units", [(True, 3.0), (False, 1.5)])
def test_capacity_aws_example(dynamodb, sized, consistent, units):
    resp = dynamodb.batch_get_item(RequestItems={sized: {"Keys": [hk("k1536"), hk("k6656")],
                                                         "ConsistentRead": consistent,
                                                         "ProjectionExpression": "pk"}},
                                   ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == [{"TableName": sized, "CapacityUnits": units}]
    resp = dynamodb.batch_get_item(RequestItems={sized: {"Keys": [hk("k1536"), hk("k6656")],
                                                         "ConsistentRead": consistent}},
                                   ReturnConsumedCapacity="INDEXES")
    assert resp["ConsumedCapacity"] == [{"TableName": sized, "CapacityUnits": units, "Table": {"CapacityUnits": units}}]


# One entry per table; only CapacityUnits (no Read/WriteCapacityUnits on batches).
def test_capacity_one_entry_per_table(dynamodb, sized, tables):
    resp = dynamodb.batch_get_item(RequestItems={
        sized: {"Keys": [hk("k6656")], "ConsistentRead": True},
        tables["h"]: {"Keys": [hk("i1"), hk("i2")], "ConsistentRead": True}}, ReturnConsumedCapacity="TOTAL")
    assert by_table(resp["ConsumedCapacity"]) == {
        sized: {"TableName": sized, "CapacityUnits": 2.0},
        tables["h"]: {"TableName": tables["h"], "CapacityUnits": 2.0}}


@pytest.mark.parametrize("rcc", [None, "NONE"])
def test_capacity_not_asked(dynamodb, sized, rcc):
    kw = {"ReturnConsumedCapacity": rcc} if rcc else {}
    assert "ConsumedCapacity" not in dynamodb.batch_get_item(RequestItems={sized: {"Keys": [hk("k1536")]}}, **kw)


# A missing key is billed like a GetItem of a missing item (1 strong / 0.5 eventual), also for a
# table none of whose keys exist.
@dev("bills missing keys 0.0")
@pytest.mark.parametrize("consistent,each", [(True, 1.0), (False, 0.5)])
def test_capacity_missing_keys_billed(dynamodb, sized, tables, consistent, each):
    resp = dynamodb.batch_get_item(RequestItems={
        sized: {"Keys": [hk("k1536"), hk("nothere")], "ConsistentRead": consistent},
        tables["r"]: {"Keys": [{"pk": S("nothere"), "sk": N("1")}], "ConsistentRead": consistent}},
        ReturnConsumedCapacity="TOTAL")
    assert by_table(resp["ConsumedCapacity"]) == {
        sized: {"TableName": sized, "CapacityUnits": 2 * each},
        tables["r"]: {"TableName": tables["r"], "CapacityUnits": each}}


# ---------------------------------------------------------------- the 16 MB answer


# 45 items of 400 KB (18 MB) in one request: at most 16 MB comes back, the remaining keys are
# returned in UnprocessedKeys together with the table's other request members; reading those
# returns the rest, every item exactly once.
def test_16mb_partial_answer(dynamodb, table):
    t = table("hash", tag="bg16")
    keys = [hk("big%02d" % i) for i in range(45)]
    for i in range(0, 45, 5):
        batch_write_all(dynamodb, {t: [{"PutRequest": {"Item": pad_item(k, 409600)}} for k in keys[i:i + 5]]})
    request = {t: {"Keys": keys, "ConsistentRead": True, "ProjectionExpression": "pk, #d",
                   "ExpressionAttributeNames": {"#d": "d"}}}
    first = dynamodb.batch_get_item(RequestItems=request)
    got = first["Responses"][t]
    assert 0 < len(got) < 45
    assert len(got) * 409600 <= 16 * 1024 * 1024
    pending = first["UnprocessedKeys"]
    assert set(pending) == {t}
    assert pending[t]["ConsistentRead"] is True
    assert pending[t]["ProjectionExpression"] == "pk, #d"
    assert pending[t]["ExpressionAttributeNames"] == {"#d": "d"}
    assert len(got) + len(pending[t]["Keys"]) == 45
    rest, _ = batch_get_all(dynamodb, pending)
    seen = sorted(it["pk"]["S"] for it in got + rest[t])
    assert seen == sorted(k["pk"]["S"] for k in keys)
    assert all(len(it["d"]["S"]) == 409600 - 2 - 5 - 1 for it in got + rest[t])
