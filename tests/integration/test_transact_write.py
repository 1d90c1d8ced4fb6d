"""TransactWriteItems: request validation (whole-call ValidationException versus per-action
ValidationError cancellation reasons), the 100-action and 4 MB limits, one item at most once,
TransactionCanceledException (message, CancellationReasons, ALL_OLD items, the `Message` body key),
atomicity, ClientRequestToken idempotency, ConsumedCapacity, ItemCollectionMetrics and the
item-collection size limit.

Catalogue: /work/notes/errors-batch-transact.md ("TransactWriteItems").
"""
import uuid

import pytest

import dynamo_helpers as h
from batch_txn_helpers import (CCF_REASON_MSG, DUP_TXN, EMPTY_S_KEY, ENUM_RCC, ENUM_RICM, KEY_SCHEMA, NOT_FOUND, TCE,
                               B, N, S, by_table, cancel_message, coral_regex, expect_cancelled, pad_item, reasons_of)
from dynamo_helpers import ENVELOPE, check_error, either_envelope, expect_error, unique_name

dev = pytest.mark.dynamodb_local_deviation
VE = "ValidationException"
RNF = "ResourceNotFoundException"
CCF = "ConditionalCheckFailed"


def hk(v):
    return {"pk": S(v)}


def put(table, item, **kw):
    return {"Put": dict(TableName=table, Item=item, **kw)}


def update(table, key, expr, **kw):
    return {"Update": dict(TableName=table, Key=key, UpdateExpression=expr, **kw)}


def delete(table, key, **kw):
    return {"Delete": dict(TableName=table, Key=key, **kw)}


def check(table, key, cond, **kw):
    return {"ConditionCheck": dict(TableName=table, Key=key, ConditionExpression=cond, **kw)}


LSI_TABLE = dict(
    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"},
                          {"AttributeName": "l", "AttributeType": "S"}],
    LocalSecondaryIndexes=[{"IndexName": "lsi1", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                               {"AttributeName": "l", "KeyType": "RANGE"}],
                            "Projection": {"ProjectionType": "ALL"}}])
STR_KEYS = dict(
    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}])


@pytest.fixture(scope="module")
def tables(module_tables):
    """h: pk S; h2: pk S (a second table); r: pk S + sk N; n: pk N; b: pk B; lsi: pk S + sk S, LSI on l."""
    return {
        "h": module_tables("hash", tag="twh"),
        "h2": module_tables("hash", tag="twh2"),
        "r": module_tables("range", tag="twr"),
        "n": module_tables("hash", tag="twn", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "N"}]),
        "b": module_tables("hash", tag="twb", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "B"}]),
        "lsi": module_tables("hash", tag="twl", **LSI_TABLE),
    }


def fresh(tag):
    return "%s-%s" % (tag, uuid.uuid4().hex[:8])


def get(dynamodb, table, key):
    return dynamodb.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")


# ---------------------------------------------------------------- whole-call validation


@dev("no '1 validation error detected: ' prefix and no quotes ('Value [] at ...')")
def test_empty_transact_items(unchecked):
    expect_error(lambda: unchecked.transact_write_items(TransactItems=[]), VE, regex=coral_regex(
        "transactItems", "TransactItems", "Member must have length greater than or equal to 1", r"\[\]"))


@dev("bare 'Member must have length less than or equal to 100'")
def test_more_than_100_actions(dynamodb, tables):
    t = tables["h"]
    items = [put(t, hk("a%d" % i)) for i in range(101)]
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=items), VE, regex=coral_regex(
        "transactItems", "TransactItems", "Member must have length less than or equal to 100", r"\[.+\]"))
    assert get(dynamodb, t, hk("a0")) is None


# 100 actions of all four kinds in one transaction.
def test_100_actions(dynamodb, tables):
    t, p = tables["h"], fresh("hundred")
    for i in range(40, 70):
        dynamodb.put_item(TableName=t, Item={"pk": S("%s-%d" % (p, i)), "n": N("1")})
    items = ([put(t, {"pk": S("%s-%d" % (p, i)), "n": N(str(i))}) for i in range(40)]
             + [update(t, {"pk": S("%s-%d" % (p, i))}, "ADD n :one", ExpressionAttributeValues={":one": N("1")},
                       ConditionExpression="attribute_exists(pk)") for i in range(40, 60)]
             + [delete(t, {"pk": S("%s-%d" % (p, i))}, ConditionExpression="attribute_exists(pk)")
                for i in range(60, 70)]
             + [check(t, {"pk": S("%s-%d" % (p, i))}, "attribute_not_exists(pk)") for i in range(70, 100)])
    assert len(items) == 100
    resp = dynamodb.transact_write_items(TransactItems=items)
    resp.pop("ResponseMetadata")
    assert resp == {}
    assert get(dynamodb, t, {"pk": S(p + "-39")}) == {"pk": S(p + "-39"), "n": N("39")}
    assert get(dynamodb, t, {"pk": S(p + "-45")}) == {"pk": S(p + "-45"), "n": N("2")}
    assert get(dynamodb, t, {"pk": S(p + "-65")}) is None
    assert get(dynamodb, t, {"pk": S(p + "-99")}) is None


def test_two_kinds_in_one_action(dynamodb, tables):
    t = tables["h"]
    both = {"Put": {"TableName": t, "Item": hk("k2")}, "Delete": {"TableName": t, "Key": hk("k2")}}
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=[both]), VE,
                 "TransactItems can only contain one of Check, Put, Update or Delete")


def test_no_kind_in_action(dynamodb, tables):
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=[put(tables["h"], hk("k0")), {}]), VE,
                 "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request")
    assert get(dynamodb, tables["h"], hk("k0")) is None


@dev("no '1 validation error detected: ' prefix")
def test_condition_check_without_condition(unchecked, tables):
    expect_error(lambda: unchecked.transact_write_items(TransactItems=[
        {"ConditionCheck": {"TableName": tables["h"], "Key": hk("a")}}]), VE, regex=coral_regex(
        "transactItems.1.member.conditionCheck.conditionExpression",
        "TransactItems.1.member.ConditionCheck.ConditionExpression", "Member must not be null", "null"
    ).replace("Value 'null' at", "Value null at"))


@dev("accepts an Update without UpdateExpression")
def test_update_without_update_expression(unchecked, tables):
    expect_error(lambda: unchecked.transact_write_items(TransactItems=[
        {"Update": {"TableName": tables["h"], "Key": hk("noexpr")}}]), VE, regex=coral_regex(
        "transactItems.1.member.update.updateExpression",
        "TransactItems.1.member.Update.UpdateExpression", "Member must not be null", "null"
    ).replace("Value 'null' at", "Value null at"))
    assert get(unchecked, tables["h"], hk("noexpr")) is None


@dev("no '1 validation error detected: ' prefix and no quotes")
def test_client_request_token_too_long(dynamodb, tables):
    token = "x" * 37
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=[put(tables["h"], hk("tok37"))],
                                                       ClientRequestToken=token), VE, regex=coral_regex(
        "clientRequestToken", "ClientRequestToken", "Member must have length less than or equal to 36", token))
    assert get(dynamodb, tables["h"], hk("tok37")) is None


@dev("accepts an empty ClientRequestToken (and treats it as a token)")
def test_client_request_token_empty(unchecked, tables):
    expect_error(lambda: unchecked.transact_write_items(TransactItems=[put(tables["h"], hk("tok0"))],
                                                        ClientRequestToken=""), VE, regex=coral_regex(
        "clientRequestToken", "ClientRequestToken", "Member must have length greater than or equal to 1", ""))


@dev("accepts any ReturnConsumedCapacity / ReturnItemCollectionMetrics")
@pytest.mark.parametrize("kw,msg", [
    ({"ReturnConsumedCapacity": "BOGUS"}, ENVELOPE + ENUM_RCC),
    ({"ReturnItemCollectionMetrics": "BOGUS2"}, ENVELOPE + ENUM_RICM),
    # Two bad enums: the service stops at the first (eu-west-2 since June 2026; docs/service-fidelity.md).
    ({"ReturnConsumedCapacity": "BOGUS", "ReturnItemCollectionMetrics": "BOGUS2"}, ENVELOPE + ENUM_RCC),
], ids=["rcc", "ricm", "both"])
def test_bad_enums(unchecked, tables, kw, msg):
    t = tables["h"]
    expect_error(lambda: unchecked.transact_write_items(TransactItems=[put(t, hk("enum"))], **kw), VE, msg)
    assert get(unchecked, t, hk("enum")) is None


# Member constraints come before the table lookup and before the duplicate check.
@dev("accepts any ReturnConsumedCapacity (and reports the later problem)")
@pytest.mark.parametrize("which", ["missing-table", "duplicate"])
def test_bad_enum_first(unchecked, tables, which):
    t = unique_name("nope") if which == "missing-table" else tables["h"]
    items = [put(t, hk("ef"))] + ([delete(t, hk("ef"))] if which == "duplicate" else [])
    expect_error(lambda: unchecked.transact_write_items(TransactItems=items, ReturnConsumedCapacity="BOGUS"), VE,
                 ENVELOPE + ENUM_RCC)


# A bad ReturnValuesOnConditionCheckFailure fails the whole call (not a cancellation reason).
@dev("accepts any ReturnValuesOnConditionCheckFailure")
@pytest.mark.parametrize("value", ["none", "dog"])
def test_bad_return_values_on_condition_check_failure(unchecked, tables, value):
    expect_error(lambda: unchecked.transact_write_items(TransactItems=[update(
        tables["h"], hk("rv"), "SET x = :one", ConditionExpression="x = :one", ExpressionAttributeValues={":one": N("1")},
        ReturnValuesOnConditionCheckFailure=value)]), VE, regex=r"(?s).*[rR]eturnValuesOnConditionCheckFailure.*")


# No two actions may target the same item (ConditionCheck included); numbers compare numerically.
@pytest.mark.parametrize("which", [
    "put-put", "update-delete", "check-check", "key-order",
    pytest.param("put-check", marks=dev("a Put followed by a ConditionCheck of the same item is executed (the check "
                                        "sees the put item) instead of being refused")),
    pytest.param("numeric", marks=dev("treats N keys 1 and 1.0 as different items for a Put + Delete")),
    pytest.param("exponent", marks=dev("treats a key number written with an exponent (1E3) as a different item "
                                       "each time, even written alike")),
    pytest.param("failing-condition-first", marks=dev("cancels the transaction for the first action's failing "
                                                      "condition instead of refusing the same item twice")),
])
def test_same_item_twice(dynamodb, tables, which):
    h_, r, n = tables["h"], tables["r"], tables["n"]
    items = {
        "put-put": [put(h_, hk("d")), put(h_, {"pk": S("d"), "x": S("1")})],
        "put-check": [put(h_, hk("d")), check(h_, hk("d"), "attribute_not_exists(pk)")],
        "update-delete": [update(h_, hk("d"), "SET x = :v", ExpressionAttributeValues={":v": S("1")}),
                          put(h_, hk("other")), delete(h_, hk("d"))],
        "check-check": [put(h_, hk("other")), check(h_, hk("d2"), "attribute_not_exists(pk)"),
                        check(h_, hk("d2"), "attribute_not_exists(pk)")],
        "numeric": [put(n, {"pk": N("1")}), delete(n, {"pk": N("1.0")})],
        "exponent": [delete(n, {"pk": N("1E3")}), put(n, {"pk": N("1E3")})],
        "key-order": [put(r, {"pk": S("d"), "sk": N("1")}), delete(r, {"sk": N("1"), "pk": S("d")})],
        "failing-condition-first": [delete(h_, hk("d"), ConditionExpression="attribute_exists(pk)"),
                                    put(h_, hk("d"))],
    }[which]
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=items), VE, DUP_TXN)
    assert get(dynamodb, h_, hk("other")) is None


# An Update that only removes does not create a missing item, in a transaction as alone
# (test_update_item.py, upsert_remove_only_does_not_create).
@dev("creates the missing item with only its key")
def test_remove_only_update_does_not_create(dynamodb, tables):
    h_ = tables["h"]
    dynamodb.transact_write_items(TransactItems=[update(h_, hk("ro"), "REMOVE a"), put(h_, hk("ro2"))])
    assert get(dynamodb, h_, hk("ro")) is None
    assert get(dynamodb, h_, hk("ro2")) == hk("ro2")


# The same key in two tables, or the same partition with another sort key, is fine.
def test_same_key_other_table(dynamodb, tables):
    k = fresh("same")
    dynamodb.transact_write_items(TransactItems=[
        put(tables["h"], hk(k)), put(tables["h2"], hk(k)),
        put(tables["r"], {"pk": S(k), "sk": N("1")}), put(tables["r"], {"pk": S(k), "sk": N("2")})])
    assert get(dynamodb, tables["h2"], hk(k)) == hk(k)
    assert get(dynamodb, tables["r"], {"pk": S(k), "sk": N("2")}) == {"pk": S(k), "sk": N("2")}


@dev("says 'Cannot do operations on a non-existent table'")
def test_missing_table(dynamodb, tables):
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=[
        put(tables["h"], hk("mt")), put(unique_name("nope"), hk("x"))]), RNF, NOT_FOUND)
    assert get(dynamodb, tables["h"], hk("mt")) is None


# Expression problems are found before any table lookup or duplicate check, first action first.
def test_syntax_error_before_missing_table(dynamodb, tables):
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=[
        put(unique_name("nope"), hk("a")), check(tables["h"], hk("a"), "attribute_not_exists(")]), VE,
        'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "("')


# After the expressions, one action after the other, all of it before the next: its table, what its
# condition reads of the keys, the action (a key that does not fit cancels later), a repeated item,
# which ends the call before a later action's table or paths are looked at (DynamoDB Local).
KEY_PATH_PK = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: pk"
PK_PATH = "attribute_exists(pk.x)"


@pytest.mark.parametrize("actions,code,message", [
    (lambda t: [delete(t, hk("oa")), delete(t, hk("oa")), delete(unique_name("nope"), hk("a"))], VE, DUP_TXN),
    (lambda t: [delete(t, hk("oa")), delete(t, hk("oa")), delete(t, hk("ob"), ConditionExpression=PK_PATH)], VE,
     DUP_TXN),
    (lambda t: [delete(t, hk("ob"), ConditionExpression=PK_PATH), delete(unique_name("nope"), hk("a"))], VE,
     KEY_PATH_PK),
    # (RNF's message: test_missing_table.)
    (lambda t: [delete(unique_name("nope"), hk("a")), delete(t, hk("ob"), ConditionExpression=PK_PATH)], RNF, None),
    (lambda t: [delete(t, {"pk": N("1")}), delete(t, hk("ob"), ConditionExpression=PK_PATH)], VE, KEY_PATH_PK),
    (lambda t: [delete(t, {"pk": N("1")}), delete(t, hk("oa")), delete(t, hk("oa"))], VE, DUP_TXN),
], ids=["duplicate-before-table", "duplicate-before-key-path", "key-path-before-table", "table-before-key-path",
        "key-path-after-wrong-key", "duplicate-after-wrong-key"])
def test_actions_checked_one_after_the_other(dynamodb, tables, actions, code, message):
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=actions(tables["h"])), code, message)


UNUSED_V = "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}"


@pytest.mark.parametrize("where", ["missing-table-before", "missing-table-after", "duplicate"])
def test_unused_value_first(dynamodb, tables, where):
    t = tables["h"]
    bad = check(t, hk("uv"), "attribute_not_exists(pk)", ExpressionAttributeValues={":v": S("x")})
    items = {"missing-table-before": [put(unique_name("nope"), hk("a")), bad],
             "missing-table-after": [bad, put(unique_name("nope"), hk("a"))],
             "duplicate": [put(t, hk("uv")), bad]}[where]
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=items), VE, UNUSED_V)
    assert get(dynamodb, t, hk("uv")) is None


@pytest.mark.parametrize("item,msg", [
    (lambda t: put(t, hk("e"), ConditionExpression="attribute_exists(#x)"),
     "Invalid ConditionExpression: An expression attribute name used in the document path is not defined; "
     "attribute name: #x"),
    (lambda t: put(t, hk("e"), ConditionExpression="pk = :x"),
     "Invalid ConditionExpression: An expression attribute value used in expression is not defined; "
     "attribute value: :x"),
    (lambda t: update(t, hk("e"), "SET status = :v", ExpressionAttributeValues={":v": N("1")}),
     "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: status"),
    (lambda t: check(t, hk("e"), "status > :v", ExpressionAttributeValues={":v": N("0")}),
     "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: status"),
    (lambda t: delete(t, hk("e"), ConditionExpression="status = :v", ExpressionAttributeValues={":v": N("1")}),
     "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: status"),
    (lambda t: put(t, hk("e"), ConditionExpression="attribute_not_exists(pk)", ExpressionAttributeNames={"#n": "x"}),
     "Value provided in ExpressionAttributeNames unused in expressions: keys: {#n}"),
], ids=["undefined-name", "undefined-value", "reserved-update", "reserved-check", "reserved-delete", "unused-name"])
def test_expression_errors(dynamodb, tables, item, msg):
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=[item(tables["h"])]), VE, msg)


# Unlike PutItem/DeleteItem, a transaction accepts ExpressionAttributeNames/Values without any expression.
@dev("rejects them ('... can only be specified when using expressions')")
@pytest.mark.parametrize("kw", [{"ExpressionAttributeNames": {"#n": "x"}}, {"ExpressionAttributeValues": {":v": N("1")}}],
                         ids=["names", "values"])
def test_placeholders_without_expression(dynamodb, tables, kw):
    t, k1, k2 = tables["h"], fresh("ph"), fresh("ph")
    dynamodb.put_item(TableName=t, Item=hk(k2))
    dynamodb.transact_write_items(TransactItems=[put(t, hk(k1), **kw), delete(t, hk(k2), **kw)])
    assert get(dynamodb, t, hk(k1)) == hk(k1)
    assert get(dynamodb, t, hk(k2)) is None


def test_item_nested_too_deep(dynamodb, tables):
    deep = S("leaf")
    for _ in range(32):
        deep = {"M": {"n": deep}}
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=[put(tables["h"], {"pk": S("deep"), "d": deep})]),
                 VE, either_envelope("Nesting Levels have exceeded supported limits: Attributes in the item have "
                                     "nested levels beyond supported limit"))


# An empty key value is refused up front (whole call), in every kind of action.
@pytest.mark.parametrize("kind", ["put", "update", "delete", "check"])
@pytest.mark.parametrize("typ", ["S", "B"])
def test_empty_key_value(dynamodb, tables, kind, typ):
    t = tables["h"] if typ == "S" else tables["b"]
    key = {"pk": S("") if typ == "S" else B(b"")}
    action = {"put": put(t, key), "delete": delete(t, key), "check": check(t, key, "attribute_not_exists(pk)"),
              "update": update(t, key, "SET x = :v", ExpressionAttributeValues={":v": S("x")})}[kind]
    msg = EMPTY_S_KEY if typ == "S" else EMPTY_S_KEY.replace("empty string value", "empty binary value")
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=[action]), VE, msg)


# 4 MB is the limit of the request's items (42 items of 100 KB are refused, 41 accepted).
def test_payload_over_4mb(dynamodb, tables):
    t = tables["h"]
    items = [put(t, {"pk": S("big%d" % i), "x": S("x" * 100000)}) for i in range(42)]
    expect_error(lambda: dynamodb.transact_write_items(TransactItems=items), VE,
                 regex=r"Transaction payload size cannot exceed 4MB\. Payload Size: \d+")
    assert get(dynamodb, t, hk("big0")) is None
    dynamodb.transact_write_items(TransactItems=items[:41])
    assert get(dynamodb, t, hk("big40"))["x"]["S"] == "x" * 100000


# ... not of the stored items an action touches: deleting 5 MB of items in one small transaction works.
def test_delete_5mb_of_items(dynamodb, table):
    t = table("hash", tag="tw5m")
    keys = [hk("d%02d" % i) for i in range(13)]
    for k in keys:
        dynamodb.put_item(TableName=t, Item=pad_item(k, 409600))
    dynamodb.transact_write_items(TransactItems=[delete(t, k) for k in keys])
    assert all(get(dynamodb, t, k) is None for k in keys)


# ---------------------------------------------------------------- validation inside actions


# Errors that need the table's schema or the stored item cancel the transaction with a
# ValidationError reason on the action.
@dev("truncates the reason after 'Type mismatch for key'; a list-typed key is a top-level 'Invalid attribute value type'")
@pytest.mark.parametrize("key,actual", [({"pk": N("5")}, "N"), ({"pk": {"L": [S("x")]}}, "L")], ids=["N", "L"])
def test_put_key_wrong_type(dynamodb, tables, key, actual):
    expect_cancelled(lambda: dynamodb.transact_write_items(TransactItems=[put(tables["h"], key)]), ["ValidationError"],
                     {0: "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: %s"
                         % actual})


@dev("reason text is 'One or more parameter values were invalid: Type mismatch for key'; a list-typed key is a "
     "top-level 'Invalid attribute value type'")
@pytest.mark.parametrize("kind", ["update", "delete", "check"])
@pytest.mark.parametrize("key", [{"pk": N("5")}, {"pk": {"L": [S("x")]}}], ids=["N", "L"])
def test_lookup_key_wrong_type(dynamodb, tables, kind, key):
    t = tables["h"]
    action = {"delete": delete(t, key), "check": check(t, key, "attribute_not_exists(pk)"),
              "update": update(t, key, "SET x = :v", ExpressionAttributeValues={":v": S("x")})}[kind]
    expect_cancelled(lambda: dynamodb.transact_write_items(TransactItems=[action]), ["ValidationError"],
                     {0: KEY_SCHEMA})


# Only the first failing action is reported as ValidationError; the others - even one whose
# condition would fail - get None.
@dev("evaluates every action: [ValidationError, ValidationError, ConditionalCheckFailed]")
def test_only_first_validation_error(dynamodb, tables):
    t = tables["h"]
    expect_cancelled(lambda: dynamodb.transact_write_items(TransactItems=[
        put(t, {"pk": N("7")}), put(t, {"pk": N("8")}), put(t, hk(fresh("v")), ConditionExpression="attribute_exists(pk)")]),
        ["ValidationError", "None", "None"])


def test_index_key_wrong_type(dynamodb, tables):
    expect_cancelled(lambda: dynamodb.transact_write_items(TransactItems=[
        put(tables["lsi"], {"pk": S("ix"), "sk": S("1"), "l": N("1")})]), ["ValidationError"])


def test_hash_key_too_long(dynamodb, tables):
    expect_cancelled(lambda: dynamodb.transact_write_items(TransactItems=[put(tables["h"], hk("a" * 2049))]),
                     ["ValidationError"])


# Update errors that depend on the stored item are ValidationError reasons.
@dev("answers a top-level ValidationException")
def test_update_missing_operand(dynamodb, tables):
    t, k = tables["h"], fresh("op")
    dynamodb.put_item(TableName=t, Item={"pk": S(k), "a": N("1")})
    expect_cancelled(lambda: dynamodb.transact_write_items(TransactItems=[
        put(t, hk(fresh("op"))),
        update(t, hk(k), "SET a = b + :v", ExpressionAttributeValues={":v": N("1")})]),
        ["None", "ValidationError"],
        {1: "The provided expression refers to an attribute that does not exist in the item"})
    assert get(dynamodb, t, hk(k)) == {"pk": S(k), "a": N("1")}


def test_update_result_too_large(dynamodb, tables):
    t, k = tables["h"], fresh("big")
    dynamodb.put_item(TableName=t, Item=pad_item(hk(k), 300000))
    expect_cancelled(lambda: dynamodb.transact_write_items(TransactItems=[
        update(t, hk(k), "SET e = :e", ExpressionAttributeValues={":e": S("y" * 200000)})]),
        ["ValidationError"], {0: "Item size to update has exceeded the maximum allowed size"})


# A Put of an item over 400 KB is refused and nothing is written. Whether the service answers
# with a top-level ValidationException or a ValidationError reason is not established: both accepted.
def test_put_item_too_large(dynamodb, tables):
    t, k = tables["h"], fresh("huge")
    with pytest.raises(h.ClientError) as info:
        dynamodb.transact_write_items(TransactItems=[put(t, hk(k + "-ok")), put(t, pad_item(hk(k), 409601))])
    code, msg, status = h.error_of(info.value)
    assert status == 400
    if code == TCE:
        reasons = reasons_of(info.value)
        assert [r["Code"] for r in reasons] == ["None", "ValidationError"]
        assert reasons[1]["Message"] == "Item size has exceeded the maximum allowed size"
    else:
        check_error(info.value, VE, "Item size has exceeded the maximum allowed size")
    assert get(dynamodb, t, hk(k + "-ok")) is None


# ---------------------------------------------------------------- success and atomicity


# Put + Update + Delete + ConditionCheck over two tables; the answer is an empty object.
def test_all_kinds(dynamodb, tables):
    h_, r = tables["h"], tables["r"]
    k = fresh("all")
    dynamodb.put_item(TableName=h_, Item={"pk": S(k + "u"), "n": N("1"), "gone": S("x")})
    dynamodb.put_item(TableName=r, Item={"pk": S(k), "sk": N("1")})
    dynamodb.put_item(TableName=h_, Item={"pk": S(k + "c"), "state": S("open")})
    resp = dynamodb.transact_write_items(TransactItems=[
        put(h_, {"pk": S(k + "p"), "v": S("new")}, ConditionExpression="attribute_not_exists(pk)"),
        update(h_, hk(k + "u"), "SET n = n + :one REMOVE gone", ExpressionAttributeValues={":one": N("1")}),
        delete(r, {"pk": S(k), "sk": N("1")}, ConditionExpression="attribute_exists(pk)"),
        check(h_, hk(k + "c"), "#s = :open", ExpressionAttributeNames={"#s": "state"},
              ExpressionAttributeValues={":open": S("open")})])
    resp.pop("ResponseMetadata")
    assert resp == {}
    assert get(dynamodb, h_, hk(k + "p")) == {"pk": S(k + "p"), "v": S("new")}
    assert get(dynamodb, h_, hk(k + "u")) == {"pk": S(k + "u"), "n": N("2")}
    assert get(dynamodb, r, {"pk": S(k), "sk": N("1")}) is None
    assert get(dynamodb, h_, hk(k + "c")) == {"pk": S(k + "c"), "state": S("open")}


# A Put replaces the whole item; an Update of a missing item creates it (upsert) unless its
# condition fails, in which case nothing is created.
def test_put_replaces_and_update_upserts(dynamodb, tables):
    t, k = tables["h"], fresh("up")
    dynamodb.put_item(TableName=t, Item={"pk": S(k), "a": S("1"), "b": S("2")})
    dynamodb.transact_write_items(TransactItems=[
        put(t, {"pk": S(k), "c": S("3")}),
        update(t, hk(k + "-new"), "SET s = :v", ConditionExpression="attribute_not_exists(pk)",
               ExpressionAttributeValues={":v": S("created")})])
    assert get(dynamodb, t, hk(k)) == {"pk": S(k), "c": S("3")}
    assert get(dynamodb, t, hk(k + "-new")) == {"pk": S(k + "-new"), "s": S("created")}
    expect_cancelled(lambda: dynamodb.transact_write_items(TransactItems=[
        update(t, hk(k + "-ghost"), "ADD hits :one", ConditionExpression="attribute_exists(pk)",
               ExpressionAttributeValues={":one": N("1")})]), [CCF], {0: CCF_REASON_MSG})
    assert get(dynamodb, t, hk(k + "-ghost")) is None


# Adjacency list: a membership is two items (USER#u1 / GROUP#g1 and the inverse) written together.
def test_adjacency_list_membership(dynamodb, table):
    t = table("hash", tag="adj", **STR_KEYS)
    u, g = "USER#" + fresh("u"), "GROUP#" + fresh("g")
    edge = lambda a, b: {"pk": S(a), "sk": S(b)}  # noqa: E731
    add = [put(t, dict(edge(u, g), role=S("member")), ConditionExpression="attribute_not_exists(pk)"),
           put(t, dict(edge(g, u), role=S("member")), ConditionExpression="attribute_not_exists(pk)")]
    dynamodb.transact_write_items(TransactItems=add)
    assert get(dynamodb, t, edge(u, g)) == dict(edge(u, g), role=S("member"))
    assert get(dynamodb, t, edge(g, u)) == dict(edge(g, u), role=S("member"))
    resp = dynamodb.query(TableName=t, KeyConditionExpression="pk = :g", ExpressionAttributeValues={":g": S(g)},
                          ConsistentRead=True)
    assert resp["Items"] == [dict(edge(g, u), role=S("member"))]
    # Adding the membership again fails on both items; nothing changes.
    expect_cancelled(lambda: dynamodb.transact_write_items(TransactItems=add), [CCF, CCF],
                     {0: CCF_REASON_MSG, 1: CCF_REASON_MSG})
    # Removing it removes both.
    dynamodb.transact_write_items(TransactItems=[
        delete(t, edge(u, g), ConditionExpression="attribute_exists(pk)"),
        delete(t, edge(g, u), ConditionExpression="attribute_exists(pk)")])
    assert get(dynamodb, t, edge(u, g)) is None and get(dynamodb, t, edge(g, u)) is None


# ---------------------------------------------------------------- cancellation


# Reasons are listed for every action in order: None for the ones that did not fail, each failing
# condition reported (no short circuit); ALL_OLD adds the current item; nothing is written.
def test_cancellation_mixed_reasons(dynamodb, tables):
    h_, h2 = tables["h"], tables["h2"]
    k = fresh("mix")
    dynamodb.put_item(TableName=h_, Item={"pk": S(k), "v": N("42"), "s": S("dog")})
    dynamodb.put_item(TableName=h2, Item={"pk": S(k), "v": N("1")})
    exc = expect_cancelled(lambda: dynamodb.transact_write_items(TransactItems=[
        put(h_, hk(k + "-n1")),
        check(h_, hk(k), "v = :x", ExpressionAttributeValues={":x": N("1")}, ReturnValuesOnConditionCheckFailure="ALL_OLD"),
        update(h2, hk(k), "SET v = :two", ExpressionAttributeValues={":two": N("2")}),
        delete(h2, hk(k + "-missing"), ConditionExpression="attribute_exists(pk)",
               ReturnValuesOnConditionCheckFailure="ALL_OLD"),
        put(h2, hk(k + "-n2"), ConditionExpression="attribute_not_exists(pk)"),
        update(h_, hk(k + "-n3"), "SET a = :a", ConditionExpression="attribute_exists(pk)",
               ExpressionAttributeValues={":a": S("x")}, ReturnValuesOnConditionCheckFailure="NONE")]),
        ["None", CCF, "None", CCF, "None", CCF],
        # With an Item, DynamoDB Local ends the reason text with a period; which form the service
        # uses there is not established.
        {1: [CCF_REASON_MSG, CCF_REASON_MSG + "."], 3: CCF_REASON_MSG, 5: CCF_REASON_MSG})
    reasons = reasons_of(exc)
    assert reasons[1]["Item"] == {"pk": S(k), "v": N("42"), "s": S("dog")}
    assert "Item" not in reasons[3]   # ALL_OLD, but there is no item
    assert "Item" not in reasons[5]   # NONE
    assert "ConsumedCapacity" not in exc.response
    assert get(dynamodb, h_, hk(k + "-n1")) is None
    assert get(dynamodb, h2, hk(k)) == {"pk": S(k), "v": N("1")}
    assert get(dynamodb, h2, hk(k + "-n2")) is None


# On the wire: HTTP 400, the TransactionCanceledException type, the message under "Message"
# (capital M) and the CancellationReasons array.
def test_cancellation_body(dynamodb_raw, dynamodb, tables):
    t, k = tables["h"], fresh("raw")
    dynamodb.put_item(TableName=t, Item={"pk": S(k), "v": N("1")})
    resp = dynamodb_raw("TransactWriteItems", {"TransactItems": [
        {"Put": {"TableName": t, "Item": {"pk": S(k + "-x")}}},
        {"Put": {"TableName": t, "Item": {"pk": S(k)}, "ConditionExpression": "attribute_not_exists(pk)"}}]})
    assert resp.status == 400
    body = resp.json
    assert body["__type"].split("#")[-1] == TCE
    assert body["Message"] == cancel_message(["None", CCF])
    # (A reason without a message may carry "Message": null on the wire.)
    reasons = [{k: v for k, v in r.items() if v is not None} for r in body["CancellationReasons"]]
    assert reasons == [{"Code": "None"}, {"Code": CCF, "Message": CCF_REASON_MSG}]


# ---------------------------------------------------------------- ClientRequestToken


def counter_txn(table, key, token=None, by="1"):
    kw = {"ClientRequestToken": token} if token else {}
    return dict(TransactItems=[update(table, key, "ADD n :by", ExpressionAttributeValues={":by": N(by)})], **kw)


# Without a token every call applies; with a token the same request applies once (the replay
# succeeds without effect); another token applies again.
def test_token_idempotent(dynamodb, tables):
    t, k = tables["h"], hk(fresh("ctr"))
    dynamodb.transact_write_items(**counter_txn(t, k))
    dynamodb.transact_write_items(**counter_txn(t, k))
    assert get(dynamodb, t, k)["n"] == N("2")
    token = uuid.uuid4().hex + "abcd"   # 36 characters
    assert len(token) == 36
    dynamodb.transact_write_items(**counter_txn(t, k, token))
    replay = dynamodb.transact_write_items(**counter_txn(t, k, token))
    assert replay["ResponseMetadata"]["HTTPStatusCode"] == 200
    assert get(dynamodb, t, k)["n"] == N("3")
    dynamodb.transact_write_items(**counter_txn(t, k, uuid.uuid4().hex))
    assert get(dynamodb, t, k)["n"] == N("4")


# The same token with a different request is refused (the message is not established).
def test_token_mismatch(dynamodb, tables):
    t, k = tables["h"], hk(fresh("mm"))
    token = uuid.uuid4().hex
    dynamodb.transact_write_items(**counter_txn(t, k, token))
    expect_error(lambda: dynamodb.transact_write_items(**counter_txn(t, k, token, by="2")),
                 "IdempotentParameterMismatchException")
    expect_error(lambda: dynamodb.transact_write_items(
        TransactItems=[put(t, dict(k, other=S("x")))], ClientRequestToken=token), "IdempotentParameterMismatchException")
    assert get(dynamodb, t, k)["n"] == N("1")


# ---------------------------------------------------------------- ConsumedCapacity


def entry_units(entry):
    return entry["CapacityUnits"]


# Every item costs twice its write units: a 1.5 KB put is 2 x 2 = 4; a passing condition adds nothing.
@pytest.mark.parametrize("cond", [None, "attribute_not_exists(pk)"])
def test_capacity_doubled(dynamodb, table, cond):
    t = table("hash", tag="twc")
    kw = {"ConditionExpression": cond} if cond else {}
    resp = dynamodb.transact_write_items(TransactItems=[put(t, pad_item(hk("a"), 1536), **kw)],
                                         ReturnConsumedCapacity="TOTAL")
    assert [entry_units(e) for e in resp["ConsumedCapacity"]] == [4.0]
    resp = dynamodb.transact_write_items(TransactItems=[put(t, hk("small"), **kw)], ReturnConsumedCapacity="TOTAL")
    assert [entry_units(e) for e in resp["ConsumedCapacity"]] == [2.0]
    # An Update bills the larger of before and after (1.5 KB): 4.
    resp = dynamodb.transact_write_items(TransactItems=[update(t, hk("a"), "SET q = :q",
                                                               ExpressionAttributeValues={":q": S("1")})],
                                         ReturnConsumedCapacity="TOTAL")
    assert [entry_units(e) for e in resp["ConsumedCapacity"]] == [4.0]


# Items are rounded one by one: two tiny puts in one table cost 2 + 2.
@dev("sums the sizes of a table's items before rounding (reports 2.0)")
def test_capacity_per_item_rounding(dynamodb, table):
    t = table("hash", tag="twc2")
    resp = dynamodb.transact_write_items(TransactItems=[put(t, hk("a")), put(t, hk("b"))],
                                         ReturnConsumedCapacity="TOTAL")
    assert [entry_units(e) for e in resp["ConsumedCapacity"]] == [4.0]


# A ConditionCheck costs 2 units, billed as a write (checked on a table of its own).
def test_capacity_condition_check(dynamodb, table):
    t1, t2 = table("hash", tag="twcc1"), table("hash", tag="twcc2")
    dynamodb.put_item(TableName=t2, Item=hk("present"))
    resp = dynamodb.transact_write_items(TransactItems=[put(t1, pad_item(hk("a"), 1536)),
                                                        check(t2, hk("present"), "attribute_exists(pk)")],
                                         ReturnConsumedCapacity="INDEXES")
    got = by_table(resp["ConsumedCapacity"])
    assert set(got) == {t1, t2}
    assert got[t1]["CapacityUnits"] == 4.0 and got[t1]["Table"]["CapacityUnits"] == 4.0
    assert got[t2]["CapacityUnits"] == 2.0 and got[t2]["Table"]["CapacityUnits"] == 2.0


# Transactions add WriteCapacityUnits next to CapacityUnits (top level and in "Table").
@dev("reports CapacityUnits only")
def test_capacity_shape(dynamodb, table):
    t1, t2 = table("hash", tag="tws1"), table("hash", tag="tws2")
    dynamodb.put_item(TableName=t2, Item=hk("present"))
    resp = dynamodb.transact_write_items(TransactItems=[put(t1, pad_item(hk("a"), 1536)),
                                                        check(t2, hk("present"), "attribute_exists(pk)")],
                                         ReturnConsumedCapacity="TOTAL")
    assert by_table(resp["ConsumedCapacity"]) == {
        t1: {"TableName": t1, "CapacityUnits": 4.0, "WriteCapacityUnits": 4.0},
        t2: {"TableName": t2, "CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}}
    resp = dynamodb.transact_write_items(TransactItems=[put(t1, pad_item(hk("b"), 1536))],
                                         ReturnConsumedCapacity="INDEXES")
    (entry,) = resp["ConsumedCapacity"]
    assert entry["TableName"] == t1
    assert entry["CapacityUnits"] == 4.0 and entry["WriteCapacityUnits"] == 4.0
    assert "ReadCapacityUnits" not in entry
    assert entry["Table"]["WriteCapacityUnits"] == 4.0
    assert entry["Table"].get("CapacityUnits", 4.0) == 4.0


@pytest.mark.parametrize("rcc", [None, "NONE"])
def test_capacity_not_asked(dynamodb, tables, rcc):
    kw = {"ReturnConsumedCapacity": rcc} if rcc else {}
    resp = dynamodb.transact_write_items(TransactItems=[put(tables["h"], hk(fresh("cna")))], **kw)
    assert "ConsumedCapacity" not in resp


# A cancelled transaction reports no ConsumedCapacity.
def test_capacity_cancelled(dynamodb, tables):
    with pytest.raises(h.ClientError) as info:
        dynamodb.transact_write_items(TransactItems=[put(tables["h"], hk(fresh("cc")), ConditionExpression="attribute_exists(pk)")],
                                      ReturnConsumedCapacity="TOTAL")
    check_error(info.value, TCE, cancel_message([CCF]))
    assert "ConsumedCapacity" not in info.value.response


# A token replay reports the read of the stored result (2 x ceil(1.5 KB / 4 KB) = 2 read units),
# not the first call's 4 write units.
@dev("repeats CapacityUnits 2.0 without Read/WriteCapacityUnits")
def test_capacity_token_replay(dynamodb, table):
    t = table("hash", tag="twrp")
    req = dict(TransactItems=[put(t, pad_item(hk("r"), 1536))], ClientRequestToken=uuid.uuid4().hex,
               ReturnConsumedCapacity="INDEXES")
    (first,) = dynamodb.transact_write_items(**req)["ConsumedCapacity"]
    (replay,) = dynamodb.transact_write_items(**req)["ConsumedCapacity"]
    assert first["WriteCapacityUnits"] == 4.0 and "ReadCapacityUnits" not in first
    assert replay["ReadCapacityUnits"] == 2.0 and "WriteCapacityUnits" not in replay


# ---------------------------------------------------------------- item collections


@dev("never returns ItemCollectionMetrics")
def test_item_collection_metrics(dynamodb, tables):
    t, k = tables["lsi"], fresh("icm")
    resp = dynamodb.transact_write_items(TransactItems=[
        put(t, {"pk": S(k), "sk": S("1"), "l": S("x")}), put(tables["h"], hk(k))], ReturnItemCollectionMetrics="SIZE")
    assert resp["ItemCollectionMetrics"] == {
        t: [{"ItemCollectionKey": {"pk": S(k)}, "SizeEstimateRangeGB": [0.0, 1.0]}]}


def test_item_collection_metrics_not_asked(dynamodb, tables):
    resp = dynamodb.transact_write_items(TransactItems=[put(tables["lsi"], {"pk": S(fresh("n")), "sk": S("1")})])
    assert "ItemCollectionMetrics" not in resp


# With the item-collection limit lowered to 64 KB, a transaction that would grow a full collection
# is cancelled with an ItemCollectionSizeLimitExceeded reason; writes that shrink it still succeed.
@pytest.mark.needs_own_server
def test_item_collection_size_limit(launch_dynamod):
    server = launch_dynamod(args=["--item-collection-limit", "64KB"], in_memory=True)
    client = h.make_client(server.endpoint)
    t = unique_name("coll")
    client.create_table(TableName=t, BillingMode="PAY_PER_REQUEST", **LSI_TABLE)
    h.wait_active(client, t)
    for i in range(3):   # 60,000 bytes in collection "full"
        client.put_item(TableName=t, Item=pad_item({"pk": S("full"), "sk": S("s%d" % i)}, 20000))
    expect_cancelled(lambda: client.transact_write_items(TransactItems=[
        put(t, {"pk": S("other"), "sk": S("1")}),
        put(t, pad_item({"pk": S("full"), "sk": S("s9")}, 10000))]),
        ["None", "ItemCollectionSizeLimitExceeded"], {1: "Collection size exceeded."})
    assert get(client, t, {"pk": S("other"), "sk": S("1")}) is None
    assert get(client, t, {"pk": S("full"), "sk": S("s9")}) is None
    # Shrinking writes are allowed: replace an item with a smaller one, delete another.
    client.transact_write_items(TransactItems=[
        put(t, {"pk": S("full"), "sk": S("s0")}), delete(t, {"pk": S("full"), "sk": S("s1")})])
    assert get(client, t, {"pk": S("full"), "sk": S("s0")}) == {"pk": S("full"), "sk": S("s0")}
