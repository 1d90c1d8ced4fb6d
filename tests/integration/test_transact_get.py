"""TransactGetItems: request validation (whole-call ValidationException versus a cancelled
transaction with ValidationError reasons), the answer's shape (one entry per Get, in order; {} for
a missing item), projections and ConsumedCapacity (2 read units per item, missing ones included).

Catalogue: /work/notes/errors-batch-transact.md ("TransactGetItems").
"""
import uuid

import pytest

from batch_txn_helpers import (DUP_TXN, EMPTY_S_KEY, ENUM_RCC, NOT_FOUND, N, S, by_table, coral_regex,
                               expect_cancelled, pad_item)
from dynamo_helpers import ENVELOPE, expect_error, unique_name

dev = pytest.mark.dynamodb_local_deviation
VE = "ValidationException"
RNF = "ResourceNotFoundException"


def hk(v):
    return {"pk": S(v)}


def get_(table, key, **kw):
    return {"Get": dict(TableName=table, Key=key, **kw)}


@pytest.fixture(scope="module")
def tables(module_tables, dynamodb):
    t = {"h": module_tables("hash", tag="tgh"), "r": module_tables("range", tag="tgr")}
    dynamodb.put_item(TableName=t["h"], Item={"pk": S("i1"), "a": S("x"), "b": N("1"), "m": {"M": {"q": S("deep")}}})
    dynamodb.put_item(TableName=t["h"], Item={"pk": S("i2"), "a": S("y")})
    dynamodb.put_item(TableName=t["r"], Item={"pk": S("p"), "sk": N("1"), "v": S("one")})
    return t


# ---------------------------------------------------------------- whole-call validation


@dev("says 'Value null at 'transactItems' failed to satisfy constraint: Member must not be null'")
def test_empty_transact_items(unchecked):
    expect_error(lambda: unchecked.transact_get_items(TransactItems=[]), VE, regex=coral_regex(
        "transactItems", "TransactItems", "Member must have length greater than or equal to 1", r"\[\]"))


@dev("bare 'Member must have length less than or equal to 100'")
def test_more_than_100(dynamodb, tables):
    expect_error(lambda: dynamodb.transact_get_items(TransactItems=[get_(tables["h"], hk("k%d" % i))
                                                                    for i in range(101)]), VE, regex=coral_regex(
        "transactItems", "TransactItems", "Member must have length less than or equal to 100", r"\[.+\]"))


# 100 Gets are allowed; the answer has one entry per Get, in request order; a missing item is {}.
def test_100_gets(dynamodb, tables):
    keys = [hk("i1") if i == 10 else hk("i2") if i == 77 else hk("none%d" % i) for i in range(100)]
    resp = dynamodb.transact_get_items(TransactItems=[get_(tables["h"], k) for k in keys])
    got = resp["Responses"]
    assert len(got) == 100
    assert got[10] == {"Item": {"pk": S("i1"), "a": S("x"), "b": N("1"), "m": {"M": {"q": S("deep")}}}}
    assert got[77] == {"Item": {"pk": S("i2"), "a": S("y")}}
    assert all(got[i] == {} for i in range(100) if i not in (10, 77))
    assert "ConsumedCapacity" not in resp


def test_same_item_twice(dynamodb, tables):
    expect_error(lambda: dynamodb.transact_get_items(TransactItems=[
        get_(tables["h"], hk("i1")), get_(tables["h"], hk("i1"), ProjectionExpression="a")]), VE, DUP_TXN)


def test_same_key_other_table(dynamodb, tables, table):
    other = table("hash", tag="tgo")
    dynamodb.put_item(TableName=other, Item={"pk": S("i1"), "from": S("other")})
    resp = dynamodb.transact_get_items(TransactItems=[get_(tables["h"], hk("i1"), ProjectionExpression="pk"),
                                                      get_(other, hk("i1"))])
    assert resp["Responses"] == [{"Item": hk("i1")}, {"Item": {"pk": S("i1"), "from": S("other")}}]


@dev("says 'Cannot do operations on a non-existent table'")
def test_missing_table(dynamodb, tables):
    expect_error(lambda: dynamodb.transact_get_items(TransactItems=[
        get_(tables["h"], hk("i1")), get_(unique_name("nope"), hk("x"))]), RNF, NOT_FOUND)


@dev("accepts any ReturnConsumedCapacity")
@pytest.mark.parametrize("which", ["alone", "missing-table", "duplicate"])
def test_bad_return_consumed_capacity(unchecked, tables, which):
    items = {"alone": [get_(tables["h"], hk("i1"))],
             "missing-table": [get_(unique_name("nope"), hk("a"))],
             "duplicate": [get_(tables["h"], hk("i1")), get_(tables["h"], hk("i1"))]}[which]
    expect_error(lambda: unchecked.transact_get_items(TransactItems=items, ReturnConsumedCapacity="BOGUS"), VE,
                 ENVELOPE + ENUM_RCC)


@pytest.mark.parametrize("kw,msg", [
    ({"ProjectionExpression": "!!!"}, 'Invalid ProjectionExpression: Syntax error; token: "!", near: "!!"'),
    ({"ProjectionExpression": "#xx, #zz", "ExpressionAttributeNames": {"#xx": "x"}},
     "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; "
     "attribute name: #zz"),
    ({"ProjectionExpression": "pk", "ExpressionAttributeNames": {"#q": "q"}},
     "Value provided in ExpressionAttributeNames unused in expressions: keys: {#q}"),
    ({"ProjectionExpression": "a, a.b"},
     "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these "
     "paths; path one: [a], path two: [a, b]"),
], ids=["syntax", "undefined-name", "unused-name", "overlap"])
def test_projection_errors(dynamodb, tables, kw, msg):
    expect_error(lambda: dynamodb.transact_get_items(TransactItems=[get_(tables["h"], hk("i1")),
                                                                    get_(tables["h"], hk("i2"), **kw)]), VE, msg)


# Every Get's projection is read before any table is looked up or any key checked, as the service
# reads every TransactWriteItems expression first (paritysuite validation-ordering, 2026-10-09):
# a later Get's projection error wins over an earlier Get's missing table, wrong key or duplicate.
@pytest.mark.parametrize("first", ["missing-table", "wrong-key-type", "duplicate"])
@dev("checks one Get after the other, each one's table, projection and key")
def test_projections_read_first(dynamodb, tables, first):
    earlier = {"missing-table": [get_(unique_name("nope"), hk("a"))],
               "wrong-key-type": [get_(tables["h"], {"pk": N("1")})],
               "duplicate": [get_(tables["h"], hk("i1")), get_(tables["h"], hk("i1"))]}[first]
    expect_error(lambda: dynamodb.transact_get_items(TransactItems=earlier + [
        get_(tables["h"], hk("i2"), ProjectionExpression="a,,")]), VE,
        'Invalid ProjectionExpression: Syntax error; token: ",", near: ",,"')


# After the projections, one Get after the other, all of it before the next: its table, its projection's
# paths into keys, its key; a repeated item ends the call before a later Get's table or paths are looked
# at (DynamoDB Local; the documentation is silent).
KEY_PATH_PK = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: pk"


@pytest.mark.parametrize("actions,code,message", [
    (lambda t: [get_(t, hk("i1")), get_(t, hk("i1")), get_(unique_name("nope"), hk("a"))], VE, DUP_TXN),
    (lambda t: [get_(t, hk("i1")), get_(t, hk("i1")), get_(t, hk("i2"), ProjectionExpression="pk.x")], VE, DUP_TXN),
    (lambda t: [get_(t, hk("i2"), ProjectionExpression="pk.x"), get_(t, hk("i1")), get_(t, hk("i1"))], VE,
     KEY_PATH_PK),
    # (RNF's message: test_missing_table.)
    (lambda t: [get_(unique_name("nope"), hk("a")), get_(t, hk("i2"), ProjectionExpression="pk.x")], RNF, None),
    pytest.param(lambda t: [get_(t, {"pk": N("1")}), get_(t, hk("i2"), ProjectionExpression="pk.x")], VE,
                 KEY_PATH_PK, marks=dev("answers the key's type mismatch at once (test_key_does_not_match_schema)")),
], ids=["duplicate-before-table", "duplicate-before-key-path", "key-path-before-duplicate", "table-before-key-path",
        "key-path-after-wrong-key"])
def test_gets_checked_one_after_the_other(dynamodb, tables, actions, code, message):
    expect_error(lambda: dynamodb.transact_get_items(TransactItems=actions(tables["h"])), code, message)


# ExpressionAttributeNames without a ProjectionExpression are accepted in a transaction.
@dev("rejects them ('ExpressionAttributeNames can only be specified when using expressions')")
def test_names_without_projection(dynamodb, tables):
    resp = dynamodb.transact_get_items(TransactItems=[get_(tables["h"], hk("i2"), ExpressionAttributeNames={"#n": "a"})])
    assert resp["Responses"] == [{"Item": {"pk": S("i2"), "a": S("y")}}]


# Key problems are reported per action: the transaction is cancelled with a ValidationError reason.
@dev("answers TransactionCanceledException without CancellationReasons, the validation text as its message")
@pytest.mark.parametrize("which,key", [
    ("h", {}),
    ("h", {"other": S("a")}),
    ("h", {"pk": S("a"), "extra": S("b")}),
    ("h", {"pk": N("1")}),
    ("r", {"pk": S("p")}),
], ids=["empty", "wrong-name", "extra-attr", "wrong-type", "missing-range"])
def test_key_does_not_match_schema(dynamodb, tables, which, key):
    expect_cancelled(lambda: dynamodb.transact_get_items(TransactItems=[get_(tables["h"], hk("i1")),
                                                                        get_(tables[which], key)]),
                     ["None", "ValidationError"])


@dev("answers a top-level ValidationException with its combined key-size sentence")
def test_hash_key_too_long(dynamodb, tables):
    expect_cancelled(lambda: dynamodb.transact_get_items(TransactItems=[get_(tables["h"], hk("a" * 2049))]),
                     ["ValidationError"])


# An empty key value is refused up front (whole call).
def test_empty_key_value(dynamodb, tables):
    expect_error(lambda: dynamodb.transact_get_items(TransactItems=[get_(tables["h"], hk(""))]), VE, EMPTY_S_KEY)


# ---------------------------------------------------------------- answers


def test_found_missing_and_projected(dynamodb, tables):
    h, r = tables["h"], tables["r"]
    resp = dynamodb.transact_get_items(TransactItems=[
        get_(h, hk("i1"), ProjectionExpression="#m.#q, b", ExpressionAttributeNames={"#m": "m", "#q": "q"}),
        get_(r, {"pk": S("p"), "sk": N("1.0")}),
        get_(h, hk("nothere")),
        get_(r, {"pk": S("p"), "sk": N("2")}),
        get_(h, hk("i2"))])
    assert resp["Responses"] == [
        {"Item": {"m": {"M": {"q": S("deep")}}, "b": N("1")}},
        {"Item": {"pk": S("p"), "sk": N("1"), "v": S("one")}},
        {},
        {},
        {"Item": {"pk": S("i2"), "a": S("y")}}]


# An existing item whose projection selects nothing has no Item (unlike BatchGetItem's {}).
@dev("returns {'Item': {}}")
def test_projection_selects_nothing(dynamodb, tables):
    resp = dynamodb.transact_get_items(TransactItems=[get_(tables["h"], hk("i1"), ProjectionExpression="nothing")])
    assert resp["Responses"] == [{}]


# Reads see the latest committed writes (transactional reads are strongly consistent).
def test_reads_latest_transaction(dynamodb, tables):
    h = tables["h"]
    k1, k2 = uuid.uuid4().hex, uuid.uuid4().hex
    dynamodb.transact_write_items(TransactItems=[{"Put": {"TableName": h, "Item": {"pk": S(k1), "v": N("1")}}},
                                                 {"Put": {"TableName": h, "Item": {"pk": S(k2), "v": N("2")}}}])
    resp = dynamodb.transact_get_items(TransactItems=[get_(h, hk(k1)), get_(h, hk(k2))])
    assert [e["Item"]["v"] for e in resp["Responses"]] == [N("1"), N("2")]


# ---------------------------------------------------------------- ConsumedCapacity


# Two read units per 4 KB of each item, and 2 for a missing item; one entry per table.
def test_capacity(dynamodb, table):
    t1, t2 = table("hash", tag="tgc1"), table("hash", tag="tgc2")
    dynamodb.put_item(TableName=t1, Item=pad_item(hk("small"), 100))
    dynamodb.put_item(TableName=t1, Item=pad_item(hk("big"), 6656))
    resp = dynamodb.transact_get_items(TransactItems=[get_(t1, hk("small")), get_(t1, hk("big"), ProjectionExpression="pk"),
                                                      get_(t1, hk("missing")), get_(t2, hk("missing"))],
                                       ReturnConsumedCapacity="TOTAL")
    got = by_table(resp["ConsumedCapacity"])
    assert set(got) == {t1, t2}
    assert got[t1]["CapacityUnits"] == 2.0 + 4.0 + 2.0
    assert got[t2]["CapacityUnits"] == 2.0
    resp = dynamodb.transact_get_items(TransactItems=[get_(t1, hk("big"))], ReturnConsumedCapacity="INDEXES")
    (entry,) = resp["ConsumedCapacity"]
    assert entry["CapacityUnits"] == 4.0 and entry["Table"]["CapacityUnits"] == 4.0


# Transactional reads add ReadCapacityUnits next to CapacityUnits (top level and in "Table").
@dev("reports CapacityUnits only")
def test_capacity_shape(dynamodb, table):
    t = table("hash", tag="tgs")
    dynamodb.put_item(TableName=t, Item=pad_item(hk("big"), 6656))
    resp = dynamodb.transact_get_items(TransactItems=[get_(t, hk("big")), get_(t, hk("missing"))],
                                       ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == [{"TableName": t, "CapacityUnits": 6.0, "ReadCapacityUnits": 6.0}]
    resp = dynamodb.transact_get_items(TransactItems=[get_(t, hk("big"))], ReturnConsumedCapacity="INDEXES")
    (entry,) = resp["ConsumedCapacity"]
    assert entry["CapacityUnits"] == 4.0 and entry["ReadCapacityUnits"] == 4.0
    assert "WriteCapacityUnits" not in entry
    assert entry["Table"]["ReadCapacityUnits"] == 4.0
    assert entry["Table"].get("CapacityUnits", 4.0) == 4.0


@pytest.mark.parametrize("rcc", [None, "NONE"])
def test_capacity_not_asked(dynamodb, tables, rcc):
    kw = {"ReturnConsumedCapacity": rcc} if rcc else {}
    assert "ConsumedCapacity" not in dynamodb.transact_get_items(TransactItems=[get_(tables["h"], hk("i1"))], **kw)
