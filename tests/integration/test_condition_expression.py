"""ConditionExpression on PutItem / UpdateItem / DeleteItem: every comparator and function
against every relevant type, missing items and missing attributes, nested paths, AND/OR/NOT
precedence, the ConditionalCheckFailedException shape and ReturnValuesOnConditionCheckFailure.

Expression *syntax* errors and their messages are covered by the expression-language
catalogue (/work/notes/expressions.md); this file pins what a well-formed condition does.
Catalogue: /work/notes/errors-query-scan-update.md ("Conditional writes").
"""
import pytest

from dynamo_helpers import check_error, either_envelope, error_item, expect_error

dev = pytest.mark.dynamodb_local_deviation
CCF = "ConditionalCheckFailedException"
CCF_MSG = "The conditional request failed"

S = lambda v: {"S": v}  # noqa: E731
N = lambda v: {"N": v}  # noqa: E731
B = lambda v: {"B": v}  # noqa: E731

# One item holding every type; conditions below are evaluated against it.
SEED = {
    "pk": S("seed"),
    "n": N("5"),
    "s": S("abc"),
    "e": S(""),
    "b": B(b"\x01\x02"),
    "t": {"BOOL": True},
    "nul": {"NULL": True},
    "l": {"L": [N("1"), S("two"), {"L": [N("3")]}]},
    "m": {"M": {"x": N("1"), "y": {"M": {"z": S("deep")}}, "k.dot": S("v")}},
    "ss": {"SS": ["a", "b"]},
    "ns": {"NS": ["1", "2"]},
    "bs": {"BS": [b"\x01", b"\x02"]},
}


@pytest.fixture(scope="module")
def tbl(module_tables):
    return module_tables("hash", tag="cond")


def sorted_sets(item):
    """Set members have no order on the wire: compare them sorted."""
    return {k: ({t: sorted(v)} if t in ("SS", "NS", "BS") else {t: v})
            for k, val in item.items() for t, v in val.items()}


def reset(dynamodb, table, item=SEED):
    dynamodb.put_item(TableName=table, Item=item)


def get(dynamodb, table, pk):
    return dynamodb.get_item(TableName=table, Key={"pk": S(pk)}, ConsistentRead=True).get("Item")


def check_update(dynamodb, table, cond, values, names, passes):
    """Run a conditional UpdateItem against SEED; a pass writes `hit`, a failure changes nothing."""
    kw = {"ConditionExpression": cond,
          "ExpressionAttributeValues": dict(values, **{":hit": N("1")})}
    if names:
        kw["ExpressionAttributeNames"] = names
    call = lambda: dynamodb.update_item(TableName=table, Key={"pk": S("seed")},  # noqa: E731
                                        UpdateExpression="SET hit = :hit", **kw)
    reset(dynamodb, table)
    if passes:
        call()
        assert get(dynamodb, table, "seed")["hit"] == N("1")
    else:
        err = expect_error(call, CCF, CCF_MSG)
        assert error_item(err) is None
        assert sorted_sets(get(dynamodb, table, "seed")) == sorted_sets(SEED)


def case(cond, passes, values=None, names=None, id=None):
    return pytest.param(cond, values or {}, names, passes, id=id or cond)


# ---------------------------------------------------------------- comparators


# =, <>, <, <=, >, >= on numbers compare numerically (not as text), strings by UTF-8
# bytes, binaries by unsigned bytes; values of another type are never equal/ordered.
@pytest.mark.parametrize("cond,values,names,passes", [
    case("n = :v", True, {":v": N("5")}, id="N-eq"),
    case("n = :v", True, {":v": N("5.000")}, id="N-eq-numeric-not-textual"),
    case("n = :v", False, {":v": N("6")}, id="N-eq-false"),
    case("n = :v", False, {":v": S("5")}, id="N-eq-S-other-type"),
    case("n <> :v", True, {":v": N("6")}, id="N-ne"),
    case("n <> :v", False, {":v": N("5")}, id="N-ne-false"),
    case("n <> :v", True, {":v": S("5")}, id="N-ne-S-other-type"),
    case("n < :v", True, {":v": N("10")}, id="N-lt-numeric-5<10"),
    case("n < :v", False, {":v": N("5")}, id="N-lt-false"),
    case("n <= :v", True, {":v": N("5")}, id="N-le"),
    case("n > :v", True, {":v": N("-100")}, id="N-gt-negative"),
    case("n > :v", True, {":v": N("4.99999999999999999999999999999999999")}, id="N-gt-38-digits"),
    case("n >= :v", True, {":v": N("5")}, id="N-ge"),
    case("n >= :v", False, {":v": N("5.1")}, id="N-ge-false"),
    case("n < :v", False, {":v": S("9")}, id="N-lt-S-other-type"),
    case("s = :v", True, {":v": S("abc")}, id="S-eq"),
    case("s < :v", True, {":v": S("abd")}, id="S-lt"),
    case("s < :v", False, {":v": S("abc")}, id="S-lt-equal"),
    case("s > :v", True, {":v": S("ab")}, id="S-gt-prefix"),
    case("s < :v", True, {":v": S("b")}, id="S-lt-first-byte"),
    case("s > :v", True, {":v": S("ABC")}, id="S-gt-case-sensitive"),
    case("e = :v", True, {":v": S("")}, id="S-empty-eq"),
    case("b = :v", True, {":v": B(b"\x01\x02")}, id="B-eq"),
    case("b < :v", True, {":v": B(b"\x80")}, id="B-lt-unsigned"),
    case("b > :v", True, {":v": B(b"\x01")}, id="B-gt-prefix"),
    case("t = :v", True, {":v": {"BOOL": True}}, id="BOOL-eq"),
    case("t = :v", False, {":v": {"BOOL": False}}, id="BOOL-eq-false"),
    case("nul = :v", True, {":v": {"NULL": True}}, id="NULL-eq"),
    case("l = :v", True, {":v": {"L": [N("1"), S("two"), {"L": [N("3")]}]}}, id="L-eq"),
    case("l = :v", False, {":v": {"L": [S("two"), N("1"), {"L": [N("3")]}]}}, id="L-eq-order-matters"),
    case("m = :v", True, {":v": {"M": {"y": {"M": {"z": S("deep")}}, "x": N("1"), "k.dot": S("v")}}}, id="M-eq"),
    case("ss = :v", True, {":v": {"SS": ["b", "a"]}}, id="SS-eq-unordered"),
    case("ns = :v", True, {":v": {"NS": ["2", "1.0"]}}, id="NS-eq-numeric"),
    case("ss <> :v", True, {":v": {"SS": ["a"]}}, id="SS-ne-subset"),
    case("absent = :v", False, {":v": N("5")}, id="missing-eq"),
    case("absent <> :v", True, {":v": N("5")}, id="missing-ne"),
    case("absent < :v", False, {":v": N("5")}, id="missing-lt"),
    case("absent >= :v", False, {":v": N("5")}, id="missing-ge"),
    case("n < absent", False, id="path-lt-missing-path"),
    case("s = m.y.z", False, id="path-eq-other-path"),
])
def test_comparators(dynamodb, tbl, cond, values, names, passes):
    check_update(dynamodb, tbl, cond, values, names, passes)


# BETWEEN is inclusive at both ends; IN is true when any listed value equals the operand
# (values of other types in the list are simply unequal).
@pytest.mark.parametrize("cond,values,names,passes", [
    case("n BETWEEN :a AND :b", True, {":a": N("1"), ":b": N("10")}, id="N-between"),
    case("n BETWEEN :a AND :b", True, {":a": N("5"), ":b": N("5")}, id="N-between-inclusive"),
    case("n BETWEEN :a AND :b", False, {":a": N("6"), ":b": N("9")}, id="N-between-false"),
    case("s BETWEEN :a AND :b", True, {":a": S("abb"), ":b": S("abd")}, id="S-between"),
    case("s BETWEEN :a AND :b", False, {":a": S("abca"), ":b": S("abd")}, id="S-between-longer-lower"),
    case("b BETWEEN :a AND :b", True, {":a": B(b"\x01"), ":b": B(b"\x01\x03")}, id="B-between"),
    case("absent BETWEEN :a AND :b", False, {":a": N("1"), ":b": N("10")}, id="missing-between"),
    case("n BETWEEN :a AND :b", False, {":a": S("1"), ":b": S("9")}, id="N-between-S-bounds"),
    case("n IN (:a, :b)", True, {":a": N("1"), ":b": N("5")}, id="N-in"),
    case("n IN (:a, :b)", False, {":a": N("1"), ":b": N("2")}, id="N-in-false"),
    case("n IN (:a, :b)", True, {":a": S("x"), ":b": N("5")}, id="N-in-mixed-types"),
    case("s IN (:a)", True, {":a": S("abc")}, id="S-in-single"),
    case("ss IN (:a)", True, {":a": {"SS": ["b", "a"]}}, id="SS-in-set-equality"),
    case("absent IN (:a)", False, {":a": N("1")}, id="missing-in"),
])
def test_between_and_in(dynamodb, tbl, cond, values, names, passes):
    check_update(dynamodb, tbl, cond, values, names, passes)


# ---------------------------------------------------------------- functions


# attribute_exists / attribute_not_exists look at the path only (NULL and "" exist).
@pytest.mark.parametrize("cond,values,names,passes", [
    case("attribute_exists(n)", True),
    case("attribute_exists(absent)", False),
    case("attribute_not_exists(absent)", True),
    case("attribute_not_exists(n)", False),
    case("attribute_exists(nul)", True, id="NULL-value-exists"),
    case("attribute_exists(e)", True, id="empty-string-exists"),
    case("attribute_exists(m.y.z)", True, id="nested-map"),
    case("attribute_exists(m.y.q)", False, id="nested-map-missing"),
    case("attribute_exists(l[2][0])", True, id="nested-list"),
    case("attribute_exists(l[3])", False, id="list-index-past-end"),
    case("attribute_exists(n.x)", False, id="map-path-through-number"),
    case("attribute_exists(s[0])", False, id="list-path-through-string"),
    case("attribute_exists(m.#d)", True, names={"#d": "k.dot"}, id="name-with-dot-via-placeholder"),
    case("attribute_exists(#d)", False, names={"#d": "m.x"}, id="placeholder-is-one-name-not-a-path"),
    case("attribute_exists(pk)", True, id="key-attribute"),
])
def test_attribute_exists(dynamodb, tbl, cond, values, names, passes):
    check_update(dynamodb, tbl, cond, values, names, passes)


# attribute_type compares the stored type with a type name given as a string value.
@pytest.mark.parametrize("attr,type_name,passes", [
    ("n", "N", True), ("s", "S", True), ("b", "B", True), ("t", "BOOL", True), ("nul", "NULL", True),
    ("l", "L", True), ("m", "M", True), ("ss", "SS", True), ("ns", "NS", True), ("bs", "BS", True),
    ("n", "S", False), ("ss", "L", False), ("l", "SS", False), ("absent", "S", False),
    ("m.y", "M", True), ("l[1]", "S", True),
])
def test_attribute_type(dynamodb, tbl, attr, type_name, passes):
    check_update(dynamodb, tbl, "attribute_type(%s, :t)" % attr, {":t": S(type_name)}, None, passes)


# begins_with works on S and B attributes; any other stored type simply does not match.
@pytest.mark.parametrize("cond,values,names,passes", [
    case("begins_with(s, :v)", True, {":v": S("ab")}, id="S"),
    case("begins_with(s, :v)", True, {":v": S("abc")}, id="S-whole"),
    case("begins_with(s, :v)", False, {":v": S("abcd")}, id="S-longer"),
    case("begins_with(s, :v)", False, {":v": S("AB")}, id="S-case"),
    case("begins_with(b, :v)", True, {":v": B(b"\x01")}, id="B"),
    case("begins_with(b, :v)", False, {":v": B(b"\x02")}, id="B-false"),
    case("begins_with(absent, :v)", False, {":v": S("a")}, id="missing"),
    case("begins_with(ss, :v)", False, {":v": S("a")}, id="SS-not-a-string"),
    case("begins_with(m.y.z, :v)", True, {":v": S("de")}, id="nested"),
])
def test_begins_with(dynamodb, tbl, cond, values, names, passes):
    check_update(dynamodb, tbl, cond, values, names, passes)


# contains: substring of S, member of SS/NS/BS, element of L (whole-value equality),
# byte substring of B.
@pytest.mark.parametrize("cond,values,names,passes", [
    case("contains(s, :v)", True, {":v": S("bc")}, id="S-substring"),
    case("contains(s, :v)", False, {":v": S("ac")}, id="S-not-substring"),
    case("contains(ss, :v)", True, {":v": S("a")}, id="SS-member"),
    case("contains(ss, :v)", False, {":v": S("c")}, id="SS-not-member"),
    case("contains(ns, :v)", True, {":v": N("2.0")}, id="NS-member-numeric"),
    case("contains(ns, :v)", False, {":v": S("2")}, id="NS-member-other-type"),
    case("contains(bs, :v)", True, {":v": B(b"\x02")}, id="BS-member"),
    case("contains(l, :v)", True, {":v": S("two")}, id="L-element"),
    case("contains(l, :v)", True, {":v": {"L": [N("3")]}}, id="L-element-list"),
    case("contains(l, :v)", False, {":v": N("3")}, id="L-no-deep-search"),
    case("contains(b, :v)", True, {":v": B(b"\x02")}, id="B-substring"),
    case("contains(absent, :v)", False, {":v": S("a")}, id="missing"),
    case("contains(n, :v)", False, {":v": N("5")}, id="N-never-contains"),
    case("NOT contains(ss, :v)", True, {":v": S("z")}, id="not-contains"),
])
def test_contains(dynamodb, tbl, cond, values, names, passes):
    check_update(dynamodb, tbl, cond, values, names, passes)


# size(): UTF-8 bytes of S, bytes of B, elements of L/M/sets.
@pytest.mark.parametrize("cond,values,names,passes", [
    case("size(s) = :v", True, {":v": N("3")}, id="S"),
    case("size(e) = :v", True, {":v": N("0")}, id="S-empty"),
    case("size(b) = :v", True, {":v": N("2")}, id="B"),
    case("size(l) = :v", True, {":v": N("3")}, id="L"),
    case("size(m) = :v", True, {":v": N("3")}, id="M"),
    case("size(ss) = :v", True, {":v": N("2")}, id="SS"),
    case("size(ns) > :v", True, {":v": N("1")}, id="NS"),
    case("size(bs) < :v", True, {":v": N("3")}, id="BS"),
    case("size(m.y) = :v", True, {":v": N("1")}, id="nested"),
    case("size(absent) >= :v", False, {":v": N("0")}, id="missing-is-false"),
    case("size(absent) < :v", False, {":v": N("10")}, id="missing-is-false-lt"),
])
def test_size(dynamodb, tbl, cond, values, names, passes):
    check_update(dynamodb, tbl, cond, values, names, passes)


# ---------------------------------------------------------------- logic


# AND binds tighter than OR; NOT tighter than AND; parentheses override.
@pytest.mark.parametrize("cond,values,names,passes", [
    case("n = :five AND s = :abc", True, id="and"),
    case("n = :five AND s = :zzz", False, id="and-false"),
    case("n = :six OR s = :abc", True, id="or"),
    case("n = :five OR n = :six AND s = :zzz", True, id="and-binds-tighter"),
    case("(n = :five OR n = :six) AND s = :zzz", False, id="parentheses"),
    case("NOT n = :six AND s = :abc", True, id="not-binds-tighter-than-and"),
    case("NOT (n = :five AND s = :zzz)", True, id="not-group"),
    case("NOT attribute_exists(absent) AND NOT attribute_not_exists(n)", True, id="not-functions"),
], )
def test_logic(dynamodb, tbl, cond, values, names, passes):
    vals = {":five": N("5"), ":six": N("6"), ":abc": S("abc"), ":zzz": S("zzz")}
    used = {k: v for k, v in vals.items() if k in cond}
    check_update(dynamodb, tbl, cond, used, names, passes)


# Reserved words need a placeholder; the placeholder resolves to the stored attribute.
def test_reserved_word_via_placeholder(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("rw"), "status": S("open")})
    dynamodb.update_item(TableName=tbl, Key={"pk": S("rw")}, UpdateExpression="SET #s = :new",
                         ConditionExpression="#s = :old", ExpressionAttributeNames={"#s": "status"},
                         ExpressionAttributeValues={":old": S("open"), ":new": S("closed")})
    assert get(dynamodb, tbl, "rw")["status"] == S("closed")


# ---------------------------------------------------------------- per operation


# PutItem: the condition sees the item being replaced; attribute_not_exists(pk) is the
# "create only" idiom.
def test_put_create_only(dynamodb, tbl):
    item = {"pk": S("put-once"), "v": N("1")}
    dynamodb.delete_item(TableName=tbl, Key={"pk": S("put-once")})
    dynamodb.put_item(TableName=tbl, Item=item, ConditionExpression="attribute_not_exists(pk)")
    err = expect_error(lambda: dynamodb.put_item(TableName=tbl, Item={"pk": S("put-once"), "v": N("2")},
                                                 ConditionExpression="attribute_not_exists(pk)"), CCF, CCF_MSG)
    assert error_item(err) is None
    assert get(dynamodb, tbl, "put-once") == item


# PutItem: the condition is evaluated against the OLD item, not the new one.
def test_put_condition_sees_old_item(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("put-old"), "v": N("1")})
    dynamodb.put_item(TableName=tbl, Item={"pk": S("put-old"), "v": N("2")},
                      ConditionExpression="v = :one", ExpressionAttributeValues={":one": N("1")})
    expect_error(lambda: dynamodb.put_item(TableName=tbl, Item={"pk": S("put-old"), "v": N("3")},
                                           ConditionExpression="v = :three",
                                           ExpressionAttributeValues={":three": N("3")}), CCF, CCF_MSG)
    assert get(dynamodb, tbl, "put-old")["v"] == N("2")


# DeleteItem with a failing condition keeps the item; a passing one deletes it and
# ReturnValues ALL_OLD still works.
def test_delete_conditional(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("del"), "v": N("1")})
    expect_error(lambda: dynamodb.delete_item(TableName=tbl, Key={"pk": S("del")}, ConditionExpression="v > :v",
                                              ExpressionAttributeValues={":v": N("1")}), CCF, CCF_MSG)
    assert get(dynamodb, tbl, "del") is not None
    resp = dynamodb.delete_item(TableName=tbl, Key={"pk": S("del")}, ConditionExpression="v >= :v",
                                ExpressionAttributeValues={":v": N("1")}, ReturnValues="ALL_OLD")
    assert resp["Attributes"] == {"pk": S("del"), "v": N("1")}
    assert get(dynamodb, tbl, "del") is None


# Against a missing item every attribute is missing: existence checks and <> pass, every
# comparison and function on a value fails. Same for all three write operations.
@pytest.mark.parametrize("cond,values,passes", [
    ("attribute_not_exists(pk)", {}, True),
    ("attribute_exists(pk)", {}, False),
    ("a <> :v", {":v": N("1")}, True),
    ("a = :v", {":v": N("1")}, False),
    ("NOT a = :v", {":v": N("1")}, True),
    ("size(a) >= :v", {":v": N("0")}, False),
    ("attribute_type(a, :t)", {":t": S("NULL")}, False),
    ("NOT contains(a, :v)", {":v": S("x")}, True),
])
@pytest.mark.parametrize("op", ["put", "update", "delete"])
def test_missing_item(dynamodb, tbl, op, cond, values, passes):
    pk = "missing-%s" % op
    key = {"pk": S(pk)}
    dynamodb.delete_item(TableName=tbl, Key=key)
    kw = {"ConditionExpression": cond}
    if op == "update":
        values = dict(values, **{":w": N("7")})
    if values:
        kw["ExpressionAttributeValues"] = values
    if op == "put":
        call = lambda: dynamodb.put_item(TableName=tbl, Item={"pk": S(pk), "w": N("7")}, **kw)  # noqa: E731
    elif op == "update":
        call = lambda: dynamodb.update_item(TableName=tbl, Key=key, UpdateExpression="SET w = :w", **kw)  # noqa: E731
    else:
        call = lambda: dynamodb.delete_item(TableName=tbl, Key=key, ReturnValues="ALL_OLD", **kw)  # noqa: E731
    if passes:
        resp = call()
        assert "Attributes" not in resp
        expected = None if op == "delete" else {"pk": S(pk), "w": N("7")}
        assert get(dynamodb, tbl, pk) == expected
    else:
        err = expect_error(call, CCF, CCF_MSG)
        assert error_item(err) is None
        assert get(dynamodb, tbl, pk) is None


# ---------------------------------------------------------------- the failure response


# The error is ConditionalCheckFailedException (HTTP 400) with exactly "The conditional
# request failed"; ReturnValuesOnConditionCheckFailure=ALL_OLD adds the whole current item
# as "Item" in the error body, for all three operations.
@pytest.mark.parametrize("op", ["put", "update", "delete"])
def test_return_values_on_condition_check_failure(dynamodb, dynamodb_raw, tbl, op):
    reset(dynamodb, tbl)
    key = {"pk": S("seed")}
    cond = dict(ConditionExpression="n = :six", ExpressionAttributeValues={":six": N("6")})
    if op == "put":
        body = dict(TableName=tbl, Item={"pk": S("seed")}, **cond)
        call = dynamodb.put_item
    elif op == "update":
        body = dict(TableName=tbl, Key=key, UpdateExpression="REMOVE n", **cond)
        call = dynamodb.update_item
    else:
        body = dict(TableName=tbl, Key=key, **cond)
        call = dynamodb.delete_item
    err = expect_error(lambda: call(ReturnValuesOnConditionCheckFailure="ALL_OLD", **body), CCF, CCF_MSG)
    assert sorted_sets(error_item(err)) == sorted_sets(SEED)
    err = expect_error(lambda: call(ReturnValuesOnConditionCheckFailure="NONE", **body), CCF, CCF_MSG)
    assert error_item(err) is None
    assert sorted_sets(get(dynamodb, tbl, "seed")) == sorted_sets(SEED)
    # on the wire: the body carries __type, message and Item (Item as a map of AttributeValues)
    op_name = {"put": "PutItem", "update": "UpdateItem", "delete": "DeleteItem"}[op]
    raw_body = dict(body, ReturnValuesOnConditionCheckFailure="ALL_OLD")
    resp = dynamodb_raw(op_name, raw_body)
    check_error(resp, CCF, CCF_MSG)
    assert resp.json["Item"]["pk"] == {"S": "seed"} and resp.json["Item"]["n"] == {"N": "5"}


# When the item does not exist there is nothing to return: no Item member even with ALL_OLD.
@pytest.mark.parametrize("op", ["put", "update", "delete"])
def test_return_values_on_condition_check_failure_missing_item(dynamodb, tbl, op):
    key = {"pk": S("rvoccf-missing")}
    dynamodb.delete_item(TableName=tbl, Key=key)
    kw = dict(ConditionExpression="attribute_exists(pk)", ReturnValuesOnConditionCheckFailure="ALL_OLD")
    if op == "put":
        call = lambda: dynamodb.put_item(TableName=tbl, Item=key, **kw)  # noqa: E731
    elif op == "update":
        call = lambda: dynamodb.update_item(TableName=tbl, Key=key, UpdateExpression="SET a = :a",  # noqa: E731
                                            ExpressionAttributeValues={":a": N("1")}, **kw)
    else:
        call = lambda: dynamodb.delete_item(TableName=tbl, Key=key, **kw)  # noqa: E731
    err = expect_error(call, CCF, CCF_MSG)
    assert error_item(err) is None


# ReturnValuesOnConditionCheckFailure accepts only ALL_OLD and NONE (Coral enum message).
def test_return_values_on_condition_check_failure_enum(unchecked, tbl):
    expect_error(lambda: unchecked.put_item(TableName=tbl, Item={"pk": S("x")},
                                            ConditionExpression="attribute_exists(pk)",
                                            ReturnValuesOnConditionCheckFailure="ALL_NEW"),
                 "ValidationException",
                 "1 validation error detected: Value 'ALL_NEW' at 'returnValuesOnConditionCheckFailure' "
                 "failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]")


# A failed conditional write is billed, but the error response carries no ConsumedCapacity
# (documented; the only observable part). A passing one reports it as usual.
def test_failed_condition_has_no_consumed_capacity(dynamodb, tbl):
    reset(dynamodb, tbl)
    err = expect_error(lambda: dynamodb.put_item(TableName=tbl, Item={"pk": S("seed")},
                                                 ConditionExpression="attribute_not_exists(pk)",
                                                 ReturnConsumedCapacity="TOTAL"), CCF, CCF_MSG)
    assert "ConsumedCapacity" not in err.response
    resp = dynamodb.put_item(TableName=tbl, Item=SEED, ConditionExpression="attribute_exists(pk)",
                             ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 1.0


# ExpressionAttributeValues / Names supplied but not used by the condition are rejected
# before the item is read (the message text belongs to the expression catalogue).
def test_unused_value_rejected(dynamodb, tbl):
    expect_error(lambda: dynamodb.put_item(TableName=tbl, Item={"pk": S("x")},
                                           ConditionExpression="attribute_not_exists(pk)",
                                           ExpressionAttributeValues={":u": N("1")}),
                 "ValidationException",
                 either_envelope("Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}"))


# Conditions may test key attributes (unlike filters): pk = :v on the seed item passes.
def test_condition_on_key_attribute(dynamodb, tbl):
    reset(dynamodb, tbl)
    dynamodb.delete_item(TableName=tbl, Key={"pk": S("seed")}, ConditionExpression="pk = :p",
                         ExpressionAttributeValues={":p": S("seed")})
    assert get(dynamodb, tbl, "seed") is None
