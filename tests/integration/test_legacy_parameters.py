"""The legacy (pre-expression) parameters: Expected, AttributeUpdates, AttributesToGet,
KeyConditions, QueryFilter, ScanFilter and ConditionalOperator - their semantics, their
validation messages, and the rule that they cannot be mixed with expression parameters.

Catalogue: /work/notes/errors-query-scan-update.md ("Legacy parameters"). Messages of this
family are sent bare in older regions and wrapped in "1 validation error detected: " in
regions that have the 2026 rewording (captured for DeleteItem in us-east-1 and eu-west-2,
2026-10); both are accepted.
"""
import pytest

import dynamo_helpers as h
from dynamo_helpers import either_envelope, expect_error

dev = pytest.mark.dynamodb_local_deviation
VE = "ValidationException"
CCF = "ConditionalCheckFailedException"
INVALID = "One or more parameter values were invalid: "

S = lambda v: {"S": v}  # noqa: E731
N = lambda v: {"N": v}  # noqa: E731


def cond(op, *values):
    c = {"ComparisonOperator": op}
    if values:
        c["AttributeValueList"] = list(values)
    return c


@pytest.fixture(scope="module")
def tbl(module_tables):
    return module_tables("hash", tag="leg")


@pytest.fixture(scope="module")
def rtbl(dynamodb, module_tables):
    """pk S / sk N with partition "p" holding sk 1..6 and a few attributes."""
    name = module_tables("range", tag="legr")
    h.batch_put(dynamodb, name, [{"pk": S("p"), "sk": N(str(i)), "a": N(str(i % 3)), "s": S("v%d" % i),
                                  "ss": {"SS": ["x", "y%d" % (i % 2)]}} for i in range(1, 7)]
                + [{"pk": S("p"), "sk": N("7"), "note": S("no a")}])
    return name


SEED = {"pk": S("seed"), "n": N("5"), "s": S("abc"), "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "2"]},
        "l": {"L": [S("a")]}, "nul": {"NULL": True}}


def get(dynamodb, table, pk):
    return dynamodb.get_item(TableName=table, Key={"pk": S(pk)}, ConsistentRead=True).get("Item")


# ---------------------------------------------------------------- Expected


# Expected conditions evaluated against SEED through a PutItem that rewrites SEED unchanged.
@pytest.mark.parametrize("expected,extra,passes", [
    ({"n": {"Value": N("5")}}, {}, True),                                   # Value alone = EQ, Exists implied
    ({"n": {"Value": N("6")}}, {}, False),
    ({"n": {"Exists": True, "Value": N("5")}}, {}, True),
    ({"absent": {"Exists": False}}, {}, True),
    ({"n": {"Exists": False}}, {}, False),
    ({"n": cond("EQ", N("5"))}, {}, True),
    ({"n": cond("NE", N("6"))}, {}, True),
    ({"absent": cond("NE", N("6"))}, {}, True),                             # missing is "not equal"
    ({"n": cond("LT", N("10"))}, {}, True),                                 # numeric, not textual
    ({"n": cond("LE", N("5"))}, {}, True),
    ({"n": cond("GT", N("5"))}, {}, False),
    ({"n": cond("GE", N("5"))}, {}, True),
    ({"n": cond("LT", S("9"))}, {}, False),                                 # other type: false, no error
    ({"n": cond("BETWEEN", N("1"), N("5"))}, {}, True),
    ({"n": cond("IN", N("1"), N("5"))}, {}, True),
    ({"n": cond("IN", N("1"), N("2"))}, {}, False),
    ({"absent": cond("NULL")}, {}, True),
    ({"nul": cond("NULL")}, {}, False),                                     # a NULL value exists
    ({"n": cond("NOT_NULL")}, {}, True),
    ({"s": cond("CONTAINS", S("bc"))}, {}, True),
    ({"ss": cond("CONTAINS", S("a"))}, {}, True),
    ({"ns": cond("CONTAINS", N("2"))}, {}, True),
    ({"ss": cond("NOT_CONTAINS", S("z"))}, {}, True),
    ({"s": cond("BEGINS_WITH", S("ab"))}, {}, True),
    ({"s": cond("BEGINS_WITH", S("b"))}, {}, False),
    ({"ss": cond("EQ", {"SS": ["b", "a"]})}, {}, True),                     # set equality ignores order
    ({"n": {"ComparisonOperator": "EQ", "Value": N("5")}}, {}, True),       # Value instead of a list
    ({"n": {"Value": N("5")}, "s": {"Value": S("zzz")}}, {}, False),        # AND by default
    ({"n": {"Value": N("5")}, "s": {"Value": S("zzz")}}, {"ConditionalOperator": "AND"}, False),
    ({"n": {"Value": N("5")}, "s": {"Value": S("zzz")}}, {"ConditionalOperator": "OR"}, True),
    ({"n": {"Value": N("6")}, "s": {"Value": S("zzz")}}, {"ConditionalOperator": "OR"}, False),
    ({"pk": {"Value": S("seed")}}, {}, True),                               # key attributes may be tested
])
def test_expected(dynamodb, tbl, expected, extra, passes):
    dynamodb.put_item(TableName=tbl, Item=SEED)
    call = lambda: dynamodb.put_item(TableName=tbl, Item=dict(SEED, hit=N("1")), Expected=expected, **extra)  # noqa: E731
    if passes:
        call()
        assert get(dynamodb, tbl, "seed")["hit"] == N("1")
    else:
        expect_error(call, CCF, "The conditional request failed")
        assert "hit" not in get(dynamodb, tbl, "seed")


# Expected works the same on UpdateItem (with AttributeUpdates) and DeleteItem, and against a
# missing item (Exists false passes, a Value comparison fails).
def test_expected_on_update_and_delete(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("e2"), "v": N("1")})
    dynamodb.update_item(TableName=tbl, Key={"pk": S("e2")}, Expected={"v": {"Value": N("1")}},
                         AttributeUpdates={"v": {"Action": "ADD", "Value": N("1")}})
    expect_error(lambda: dynamodb.delete_item(TableName=tbl, Key={"pk": S("e2")}, Expected={"v": {"Value": N("1")}}),
                 CCF, "The conditional request failed")
    dynamodb.delete_item(TableName=tbl, Key={"pk": S("e2")}, Expected={"v": {"Value": N("2")}})
    assert get(dynamodb, tbl, "e2") is None
    dynamodb.put_item(TableName=tbl, Item={"pk": S("e2")}, Expected={"pk": {"Exists": False}})
    expect_error(lambda: dynamodb.update_item(TableName=tbl, Key={"pk": S("e3")}, Expected={"v": {"Value": N("1")}},
                                              AttributeUpdates={"v": {"Value": N("1")}}),
                 CCF, "The conditional request failed")
    assert get(dynamodb, tbl, "e3") is None


# ReturnValuesOnConditionCheckFailure works with Expected too.
def test_expected_return_values_on_failure(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("e4"), "v": N("1")})
    err = expect_error(lambda: dynamodb.put_item(TableName=tbl, Item={"pk": S("e4")}, Expected={"pk": {"Exists": False}},
                                                 ReturnValuesOnConditionCheckFailure="ALL_OLD"),
                       CCF, "The conditional request failed")
    assert h.error_item(err) == {"pk": S("e4"), "v": N("1")}


# Malformed Expected entries (same checks on PutItem, UpdateItem and DeleteItem).
@pytest.mark.parametrize("expected,message", [
    ({"a": {"Exists": True}}, INVALID + "Value must be provided when Exists is true for Attribute: a"),
    ({"a": {}}, INVALID + "Value must be provided when Exists is null for Attribute: a"),
    ({"a": {"Exists": False, "Value": S("x")}}, INVALID + "Value cannot be used when Exists is false for Attribute: a"),
    ({"a": {"ComparisonOperator": "EQ", "Exists": True, "AttributeValueList": [S("x")]}},
     INVALID + "Exists and ComparisonOperator cannot be used together for Attribute: a"),
    ({"a": {"ComparisonOperator": "EQ", "Value": S("x"), "AttributeValueList": [S("x")]}},
     INVALID + "Value and AttributeValueList cannot be used together for Attribute: a"),
    ({"a": {"ComparisonOperator": "EQ"}},
     INVALID + "Value or AttributeValueList must be used with ComparisonOperator: EQ for Attribute: a"),
    ({"a": {"AttributeValueList": [S("x")]}},
     INVALID + "AttributeValueList can only be used with a ComparisonOperator for Attribute: a"),
    ({"a": cond("BETWEEN", S("x"))}, INVALID + "Invalid number of argument(s) for the BETWEEN ComparisonOperator"),
    ({"a": cond("NULL", S("x"))}, INVALID + "Invalid number of argument(s) for the NULL ComparisonOperator"),
    ({"a": cond("IN", S("x"), N("1"))}, INVALID + "AttributeValues inside AttributeValueList must be of same type"),
    ({"a": cond("BETWEEN", S("z"), S("a"))},
     "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"),
    ({"a": cond("LT", {"SS": ["x"]})}, INVALID + "ComparisonOperator LT is not valid for SS AttributeValue type"),
    ({"a": cond("BEGINS_WITH", N("1"))}, INVALID + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"),
], ids=["exists-true-no-value", "exists-null-no-value", "exists-false-with-value", "operator-and-exists",
        "value-and-list", "operator-without-value", "list-without-operator", "between-one-value", "null-with-value",
        "mixed-types", "between-reversed", "lt-set", "begins-with-number"])
@pytest.mark.parametrize("op", ["put", "update", "delete"])
def test_expected_validation(unchecked, tbl, op, expected, message):
    if op == "put":
        call = lambda: unchecked.put_item(TableName=tbl, Item={"pk": S("x")}, Expected=expected)  # noqa: E731
    elif op == "update":
        call = lambda: unchecked.update_item(TableName=tbl, Key={"pk": S("x")}, Expected=expected,  # noqa: E731
                                             AttributeUpdates={"b": {"Value": N("1")}})
    else:
        call = lambda: unchecked.delete_item(TableName=tbl, Key={"pk": S("x")}, Expected=expected)  # noqa: E731
    expect_error(call, VE, either_envelope(message))


# ConditionalOperator needs a Filter/Expected with at least two conditions.
@pytest.mark.parametrize("call,message", [
    (lambda c, t: c.put_item(TableName=t, Item={"pk": S("x")}, ConditionalOperator="OR"),
     "ConditionalOperator cannot be used without Filter or Expected"),
    (lambda c, t: c.delete_item(TableName=t, Key={"pk": S("x")}, ConditionalOperator="AND"),
     "ConditionalOperator cannot be used without Filter or Expected"),
    (lambda c, t: c.update_item(TableName=t, Key={"pk": S("x")}, ConditionalOperator="AND"),
     "ConditionalOperator cannot be used without Filter or Expected"),
    (lambda c, t: c.put_item(TableName=t, Item={"pk": S("x")}, ConditionalOperator="OR",
                             Expected={"a": {"Exists": False}}),
     "ConditionalOperator can only be used when Filter or Expected has two or more elements"),
    (lambda c, t: c.scan(TableName=t, ConditionalOperator="AND"),
     "ConditionalOperator cannot be used without Filter or Expected"),
    (lambda c, t: c.scan(TableName=t, ConditionalOperator="OR", ScanFilter={"a": cond("NULL")}),
     "ConditionalOperator can only be used when Filter or Expected has two or more elements"),
    (lambda c, t: c.query(TableName=t, ConditionalOperator="OR", KeyConditions={"pk": cond("EQ", S("x"))}),
     "ConditionalOperator cannot be used without Filter or Expected"),
    # an error in the one element is named first (DynamoDB Local)
    (lambda c, t: c.put_item(TableName=t, Item={"pk": S("x")}, ConditionalOperator="OR",
                             Expected={"a": {"Exists": False, "Value": S("v")}}),
     "One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: a"),
    (lambda c, t: c.scan(TableName=t, ConditionalOperator="AND", ScanFilter={"a": cond("EQ", S("x"), S("y"))}),
     "One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator"),
], ids=["put", "delete", "update", "put-one-element", "scan", "scan-one-element", "query", "element-error-first",
        "filter-element-error-first"])
def test_conditional_operator_rules(unchecked, tbl, call, message):
    expect_error(lambda: call(unchecked, tbl), VE, either_envelope(message))


# ConditionalOperator must be AND or OR.
@dev("500 InternalFailure")
def test_conditional_operator_enum(unchecked, tbl):
    expect_error(lambda: unchecked.put_item(TableName=tbl, Item={"pk": S("x")}, ConditionalOperator="XOR",
                                            Expected={"a": {"Exists": False}, "b": {"Exists": False}}), VE,
                 "1 validation error detected: Value 'XOR' at 'conditionalOperator' failed to satisfy constraint: "
                 "Member must satisfy enum value set: [OR, AND]")


# ---------------------------------------------------------------- AttributeUpdates


# PUT (also the default action) writes values; ADD adds numbers, unions sets and appends to
# lists; DELETE without a value removes the attribute, with a set value removes members.
def test_attribute_updates_actions(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("au"), "n": N("1"), "ss": {"SS": ["a", "b"]}, "l": {"L": [N("1")]},
                                           "gone": S("x"), "ns": {"NS": ["1", "2"]}})
    resp = dynamodb.update_item(TableName=tbl, Key={"pk": S("au")}, ReturnValues="ALL_NEW", AttributeUpdates={
        "p": {"Action": "PUT", "Value": S("put-default")},
        "q": {"Action": "PUT", "Value": {"M": {"k": N("1")}}},
        "n": {"Action": "ADD", "Value": N("2")},
        "cnt": {"Action": "ADD", "Value": N("-3")},
        "ss": {"Action": "ADD", "Value": {"SS": ["b", "c"]}},
        "l": {"Action": "ADD", "Value": {"L": [N("1"), S("two")]}},
        "gone": {"Action": "DELETE"},
        "ns": {"Action": "DELETE", "Value": {"NS": ["1", "2", "9"]}},
        "absent": {"Action": "DELETE", "Value": {"SS": ["z"]}},
    })
    item = resp["Attributes"]
    item["ss"]["SS"].sort()
    assert item == {"pk": S("au"), "p": S("put-default"), "q": {"M": {"k": N("1")}}, "n": N("3"), "cnt": N("-3"),
                    "ss": {"SS": ["a", "b", "c"]}, "l": {"L": [N("1"), N("1"), S("two")]}}


# An AttributeUpdates entry without Action is a PUT (the documented default).
@dev("an entry without Action is ignored (nothing is written)")
def test_attribute_updates_default_action_is_put(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("aud"), "n": N("1")})
    resp = dynamodb.update_item(TableName=tbl, Key={"pk": S("aud")}, ReturnValues="UPDATED_NEW",
                                AttributeUpdates={"p": {"Value": S("x")}, "n": {"Value": N("2")}})
    assert resp["Attributes"] == {"p": S("x"), "n": N("2")}
    assert get(dynamodb, tbl, "aud") == {"pk": S("aud"), "p": S("x"), "n": N("2")}


# AttributeUpdates {} on a missing item creates it with just its key; ALL_NEW shows it and
# UPDATED_NEW returns nothing (alternator test_returnvalues, on AWS).
def test_attribute_updates_empty_creates_item(dynamodb, tbl):
    dynamodb.delete_item(TableName=tbl, Key={"pk": S("au0")})
    resp = dynamodb.update_item(TableName=tbl, Key={"pk": S("au0")}, AttributeUpdates={}, ReturnValues="UPDATED_NEW")
    assert "Attributes" not in resp
    assert get(dynamodb, tbl, "au0") == {"pk": S("au0")}


# Only DELETE actions on a missing item: nothing is created.
@dev("creates the missing item with only its key")
def test_attribute_updates_delete_only_does_not_create(dynamodb, tbl):
    dynamodb.delete_item(TableName=tbl, Key={"pk": S("au1")})
    dynamodb.update_item(TableName=tbl, Key={"pk": S("au1")}, AttributeUpdates={
        "a": {"Action": "DELETE"}, "s": {"Action": "DELETE", "Value": {"SS": ["x"]}}})
    assert get(dynamodb, tbl, "au1") is None


# Invalid AttributeUpdates (value types are named by their wire type: S, N, B, BOOL, NULL, M, L).
@pytest.mark.parametrize("updates,message", [
    pytest.param({"a": {"Action": "PUT"}}, INVALID + "Only DELETE action is allowed when no attribute value is specified",
                 id="put-without-value"),
    pytest.param({"a": {"Action": "ADD"}}, INVALID + "Only DELETE action is allowed when no attribute value is specified",
                 id="add-without-value"),
    pytest.param({"pk": {"Action": "PUT", "Value": S("x")}},
                 INVALID + "Cannot update attribute pk. This attribute is part of the key", id="key-put"),
    pytest.param({"pk": {"Action": "DELETE"}},
                 INVALID + "Cannot update attribute pk. This attribute is part of the key", id="key-delete"),
    pytest.param({"a": {"Action": "DELETE", "Value": S("x")}},
                 INVALID + "DELETE action with value is not supported for the type S", id="delete-string",
                 marks=dev("names the type 'STRING'")),
    pytest.param({"a": {"Action": "DELETE", "Value": {"L": []}}},
                 INVALID + "DELETE action with value is not supported for the type L", id="delete-list",
                 marks=dev("names the type 'LIST'")),
    pytest.param({"a": {"Action": "ADD", "Value": S("x")}},
                 INVALID + "ADD action is not supported for the type S", id="add-string",
                 marks=dev("names the type 'STRING'")),
    pytest.param({"a": {"Action": "ADD", "Value": {"M": {}}}},
                 INVALID + "ADD action is not supported for the type M", id="add-map",
                 marks=dev("names the type 'MAP'")),
])
def test_attribute_updates_validation(unchecked, tbl, updates, message):
    expect_error(lambda: unchecked.update_item(TableName=tbl, Key={"pk": S("au2")}, AttributeUpdates=updates), VE,
                 either_envelope(message))


# AttributeUpdates' own rules are checked before Expected is validated, and the key attributes
# before it is evaluated (dynalite, recorded against the service: validations/updateItem.js checks
# the actions before the conditions, actions/updateItem.js the key attributes before evaluating).
FAILING = {"x": {"ComparisonOperator": "NULL"}}
INVALID_LT = {"x": cond("LT", S("a"), S("b"))}
LOCAL_EXPECTED_FIRST = dev("validates and evaluates Expected before AttributeUpdates")


@pytest.mark.parametrize("updates,expected,message", [
    pytest.param(updates, expected, message, id=name + "-" + which, marks=LOCAL_EXPECTED_FIRST)
    for name, updates, message in [
        ("put-without-value", {"a": {"Action": "PUT"}},
         INVALID + "Only DELETE action is allowed when no attribute value is specified"),
        ("add-bool", {"a": {"Action": "ADD", "Value": {"BOOL": True}}}, INVALID + "ADD action is not supported for the type BOOL"),
        ("delete-string", {"a": {"Action": "DELETE", "Value": S("x")}},
         INVALID + "DELETE action with value is not supported for the type S")]
    for which, expected in [("failing", FAILING), ("invalid", INVALID_LT)]
] + [
    pytest.param({"pk": {"Action": "PUT", "Value": S("x")}}, FAILING,
                 INVALID + "Cannot update attribute pk. This attribute is part of the key", id="key-failing",
                 marks=LOCAL_EXPECTED_FIRST),
    pytest.param({"pk": {"Action": "PUT", "Value": S("x")}}, INVALID_LT,
                 INVALID + "Invalid number of argument(s) for the LT ComparisonOperator", id="key-invalid"),
])
def test_attribute_updates_checked_before_expected(unchecked, tbl, updates, expected, message):
    unchecked.put_item(TableName=tbl, Item={"pk": S("au4"), "x": S("1")})
    expect_error(lambda: unchecked.update_item(TableName=tbl, Key={"pk": S("au4")}, AttributeUpdates=updates,
                                               Expected=expected), VE, either_envelope(message))
    assert get(unchecked, tbl, "au4") == {"pk": S("au4"), "x": S("1")}


# An action's own rule is checked before any action is applied: a DELETE with a string value is
# refused even after an ADD that would fail against the stored type (dynalite's order).
@dev("applies the actions in turn, checking each one's rules as it comes to it")
def test_attribute_updates_rules_before_application(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("au5"), "s": S("x")})
    expect_error(lambda: dynamodb.update_item(TableName=tbl, Key={"pk": S("au5")}, AttributeUpdates={
        "s": {"Action": "ADD", "Value": N("1")}, "t": {"Action": "DELETE", "Value": N("1")}}), VE,
        either_envelope(INVALID + "DELETE action with value is not supported for the type N"))


# ADD/DELETE against a stored attribute of another type.
@pytest.mark.parametrize("updates", [
    {"s": {"Action": "ADD", "Value": N("1")}},
    {"ss": {"Action": "ADD", "Value": {"NS": ["1"]}}},
    {"ss": {"Action": "DELETE", "Value": {"NS": ["1"]}}},
])
def test_attribute_updates_type_mismatch(dynamodb, tbl, updates):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("au3"), "s": S("x"), "ss": {"SS": ["a"]}})
    expect_error(lambda: dynamodb.update_item(TableName=tbl, Key={"pk": S("au3")}, AttributeUpdates=updates), VE,
                 either_envelope("Type mismatch for attribute to update"))


# ---------------------------------------------------------------- AttributesToGet


# GetItem AttributesToGet: only the listed top-level attributes; unknown names are skipped;
# nothing matching gives an empty Item (not a missing one).
def test_attributes_to_get_get_item(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item=SEED)
    key = {"pk": S("seed")}
    assert dynamodb.get_item(TableName=tbl, Key=key, AttributesToGet=["n", "absent"])["Item"] == {"n": N("5")}
    assert dynamodb.get_item(TableName=tbl, Key=key, AttributesToGet=["absent"])["Item"] == {}
    assert "Item" not in dynamodb.get_item(TableName=tbl, Key={"pk": S("nobody")}, AttributesToGet=["n"])


# AttributesToGet names are attribute names, not paths: "m.b" is an attribute called "m.b".
def test_attributes_to_get_names_not_paths(dynamodb, tbl):
    dynamodb.put_item(TableName=tbl, Item={"pk": S("dot"), "m": {"M": {"b": N("1")}}, "m.b": N("2")})
    assert dynamodb.get_item(TableName=tbl, Key={"pk": S("dot")}, AttributesToGet=["m.b"])["Item"] == {"m.b": N("2")}


# AttributesToGet on Query and Scan (with Select=SPECIFIC_ATTRIBUTES or without Select).
def test_attributes_to_get_query_scan(dynamodb, rtbl):
    resp = dynamodb.query(TableName=rtbl, KeyConditions={"pk": cond("EQ", S("p"))}, AttributesToGet=["sk", "a"],
                          ConsistentRead=True)
    assert resp["Items"][0] == {"sk": N("1"), "a": N("1")} and resp["Items"][-1] == {"sk": N("7")}
    resp = dynamodb.scan(TableName=rtbl, AttributesToGet=["s"], Select="SPECIFIC_ATTRIBUTES", ConsistentRead=True)
    assert all(set(it) <= {"s"} for it in resp["Items"])


# Duplicate names and an empty list are rejected.
@pytest.mark.parametrize("names,messages", [
    pytest.param(["a", "a"], either_envelope(INVALID + "Duplicate value in attribute name: a"), id="duplicate",
                 marks=dev("'Cannot have two attributes with the same name'")),
    pytest.param([], ["1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy constraint: "
                      "Member must have length greater than or equal to 1"], id="empty",
                 marks=dev("accepts an empty list and returns the whole item")),
])
def test_attributes_to_get_validation(unchecked, tbl, names, messages):
    expect_error(lambda: unchecked.get_item(TableName=tbl, Key={"pk": S("seed")}, AttributesToGet=names), VE, messages)


# Select rules with AttributesToGet (Query).
@pytest.mark.parametrize("select,message", [
    ("COUNT", "Cannot specify the AttributesToGet when choosing to get only the Count"),
    ("ALL_ATTRIBUTES", "Cannot specify the AttributesToGet when choosing to get ALL_ATTRIBUTES"),
])
def test_attributes_to_get_select(dynamodb, rtbl, select, message):
    expect_error(lambda: dynamodb.query(TableName=rtbl, KeyConditions={"pk": cond("EQ", S("p"))},
                                        AttributesToGet=["a"], Select=select), VE, either_envelope(message))


# ---------------------------------------------------------------- KeyConditions


# Every sort-key operator KeyConditions supports.
@pytest.mark.parametrize("sk_cond,expected", [
    (None, [1, 2, 3, 4, 5, 6, 7]),
    (cond("EQ", N("3")), [3]),
    (cond("LT", N("3")), [1, 2]),
    (cond("LE", N("3")), [1, 2, 3]),
    (cond("GT", N("5")), [6, 7]),
    (cond("GE", N("5")), [5, 6, 7]),
    (cond("BETWEEN", N("2"), N("4")), [2, 3, 4]),
])
def test_key_conditions(dynamodb, rtbl, sk_cond, expected):
    kc = {"pk": cond("EQ", S("p"))}
    if sk_cond:
        kc["sk"] = sk_cond
    resp = dynamodb.query(TableName=rtbl, KeyConditions=kc, ConsistentRead=True)
    assert [int(it["sk"]["N"]) for it in resp["Items"]] == expected
    resp = dynamodb.query(TableName=rtbl, KeyConditions=kc, ScanIndexForward=False, ConsistentRead=True)
    assert [int(it["sk"]["N"]) for it in resp["Items"]] == expected[::-1]


# BEGINS_WITH on a string sort key (table with pk S / sk S).
def test_key_conditions_begins_with(dynamodb, module_tables):
    t = module_tables(tag="legs", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                              {"AttributeName": "sk", "KeyType": "RANGE"}],
                      AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                            {"AttributeName": "sk", "AttributeType": "S"}])
    h.batch_put(dynamodb, t, [{"pk": S("p"), "sk": S(k)} for k in ("a", "ab", "abc", "b")])
    resp = dynamodb.query(TableName=t, KeyConditions={"pk": cond("EQ", S("p")), "sk": cond("BEGINS_WITH", S("ab"))},
                          ConsistentRead=True)
    assert [it["sk"]["S"] for it in resp["Items"]] == ["ab", "abc"]


# KeyConditions may be combined with FilterExpression / ProjectionExpression (it is the only
# legacy parameter exempt from the mixing rule, unless KeyConditionExpression is also given).
def test_key_conditions_with_expressions(dynamodb, rtbl):
    resp = dynamodb.query(TableName=rtbl, KeyConditions={"pk": cond("EQ", S("p"))}, FilterExpression="a = :z",
                          ConsistentRead=True,
                          ProjectionExpression="sk", ExpressionAttributeValues={":z": N("0")})
    assert resp["Items"] == [{"sk": N("3")}, {"sk": N("6")}] and resp["ScannedCount"] == 7


# Invalid KeyConditions.
@pytest.mark.parametrize("kc,messages", [
    pytest.param({}, either_envelope("Conditions can be of length 1 or 2 only"), id="empty",
                 marks=dev("'Conditions must be at least length 1'")),
    pytest.param({"pk": cond("EQ", S("p")), "sk": cond("EQ", N("1")), "a": cond("EQ", N("1"))},
                 either_envelope("Conditions can be of length 1 or 2 only"), id="three"),
    pytest.param({"sk": cond("EQ", N("1"))}, either_envelope("Query condition missed key schema element: pk"),
                 id="sort-key-only", marks=dev("no ': pk' at the end")),
    pytest.param({"pk": cond("GT", S("p"))}, either_envelope("Query key condition not supported"), id="hash-gt"),
    pytest.param({"pk": cond("EQ", N("1"))},
                 either_envelope(INVALID + "Condition parameter type does not match schema type"), id="hash-type"),
    pytest.param({"pk": cond("EQ", S("p"), S("q"))},
                 either_envelope(INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator"), id="eq-two-values"),
    pytest.param({"pk": cond("EQ", S("p")), "sk": cond("BETWEEN", N("5"), N("1"))},
                 either_envelope("The BETWEEN condition was provided a range where the lower bound is greater than "
                                 "the upper bound"), id="between-reversed"),
    pytest.param({"pk": cond("EQ", S("p")), "sk": cond("BEGINS_WITH", N("1"))},
                 either_envelope(INVALID + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"),
                 id="begins-with-number"),
    pytest.param({"pk": cond("EQ", S("p")), "sk": cond("IN", N("1"))},
                 either_envelope("Attempted conditional constraint is not an indexable operation"), id="sk-in"),
    pytest.param({"pk": cond("EQ", S("p")), "sk": cond("CONTAINS", N("1"))},
                 either_envelope("Attempted conditional constraint is not an indexable operation"), id="sk-contains"),
    pytest.param({"pk": cond("EQ", S("p")), "sk": cond("NE", N("1"))},
                 either_envelope("Attempted conditional constraint is not an indexable operation"), id="sk-ne",
                 marks=dev("500 InternalFailure")),
    pytest.param({"pk": cond("EQ", S("p")), "sk": cond("NOT_NULL")},
                 either_envelope("Attempted conditional constraint is not an indexable operation"), id="sk-not-null",
                 marks=dev("'Only scalar types can be used as Range Key values'")),
    pytest.param({"pk": {"AttributeValueList": [S("p")]}},
                 ["1 validation error detected: Value null at 'keyConditions.pk.member.comparisonOperator' failed to "
                  "satisfy constraint: Member must not be null"], id="no-operator",
                 marks=dev("'Comparison type does not exist in DynamoDB'")),
])
def test_key_conditions_validation(unchecked, rtbl, kc, messages):
    expect_error(lambda: unchecked.query(TableName=rtbl, KeyConditions=kc), VE, messages)


# Of errors in KeyConditions and in the rest of a Query, the one named (DynamoDB Local; the
# service's order is not documented): a condition's arguments, then the key schema, come before
# the QueryFilter and AttributesToGet; an operator that cannot serve a key (NE here) is named
# only after the QueryFilter, Select and the rest.
@pytest.mark.parametrize("kw,message", [
    pytest.param(dict(KeyConditions={"pk": cond("EQ", S("p")), "sk": cond("BEGINS_WITH", N("1"))},
                      QueryFilter={"a": cond("EQ", S("b"), S("c"))}),
                 INVALID + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type",
                 id="key-condition-type-before-filter"),
    pytest.param(dict(KeyConditions={"pk": cond("EQ", N("1"))}, QueryFilter={"a": cond("EQ", S("b"), S("c"))}),
                 INVALID + "Condition parameter type does not match schema type", id="key-schema-before-filter"),
    pytest.param(dict(KeyConditions={"pk": cond("EQ")}, AttributesToGet=["a", "a"]),
                 INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator",
                 id="key-condition-before-attributes-to-get"),
    pytest.param(dict(KeyConditions={"pk": cond("EQ", S("p"))}, QueryFilter={"a": cond("EQ", S("b"), S("c"))},
                      AttributesToGet=["a", "a"]),
                 INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator",
                 id="filter-before-attributes-to-get"),
    pytest.param(dict(KeyConditions={"pk": cond("EQ", S("p")), "sk": cond("NE", N("1"), N("2"))}),
                 INVALID + "Invalid number of argument(s) for the NE ComparisonOperator",
                 id="arguments-before-not-indexable"),
    pytest.param(dict(KeyConditions={"pk": cond("EQ", S("p")), "sk": cond("IN")}),
                 INVALID + "Invalid number of argument(s) for the IN ComparisonOperator",
                 id="no-arguments-before-not-indexable"),
    pytest.param(dict(KeyConditions={"pk": cond("EQ", N("1")), "sk": cond("NE", N("1"))}),
                 INVALID + "Condition parameter type does not match schema type", id="key-schema-before-not-indexable"),
    pytest.param(dict(KeyConditions={"pk": cond("EQ", S("p")), "sk": cond("NE", N("1"))},
                      QueryFilter={"a": cond("BEGINS_WITH", N("1"))}),
                 INVALID + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type",
                 id="filter-before-not-indexable"),
    pytest.param(dict(KeyConditions={"pk": cond("EQ", S("p")), "sk": cond("NE", N("1"))},
                      QueryFilter={"sk": cond("EQ", N("1"))}),
                 "QueryFilter can only contain non-primary key attributes: Primary key attribute: sk",
                 id="filter-key-before-not-indexable"),
    pytest.param(dict(KeyConditions={"pk": cond("EQ", S("p")), "sk": cond("NE", N("1"))}, Select="COUNT",
                      AttributesToGet=["a"]),
                 "Cannot specify the AttributesToGet when choosing to get only the Count",
                 id="select-before-not-indexable"),
])
def test_key_conditions_error_order(unchecked, rtbl, kw, message):
    expect_error(lambda: unchecked.query(TableName=rtbl, **kw), VE, either_envelope(message))


# ---------------------------------------------------------------- QueryFilter / ScanFilter


# QueryFilter: conditions on non-key attributes, AND by default, OR with ConditionalOperator.
@pytest.mark.parametrize("qf,extra,expected", [
    ({"a": cond("EQ", N("0"))}, {}, [3, 6]),
    ({"a": cond("NULL")}, {}, [7]),
    ({"a": cond("NOT_NULL"), "s": cond("BEGINS_WITH", S("v1"))}, {}, [1]),
    ({"a": cond("EQ", N("0")), "s": cond("EQ", S("v1"))}, {"ConditionalOperator": "OR"}, [1, 3, 6]),
    ({"ss": cond("CONTAINS", S("y0"))}, {}, [2, 4, 6]),
    ({"ss": cond("NOT_CONTAINS", S("y0")), "a": cond("NOT_NULL")}, {}, [1, 3, 5]),
    ({"a": cond("IN", N("2"), N("9"))}, {}, [2, 5]),
])
def test_query_filter(dynamodb, rtbl, qf, extra, expected):
    resp = dynamodb.query(TableName=rtbl, KeyConditions={"pk": cond("EQ", S("p"))}, QueryFilter=qf,
                          ConsistentRead=True, **extra)
    assert [int(it["sk"]["N"]) for it in resp["Items"]] == expected
    assert resp["ScannedCount"] == 7 and resp["Count"] == len(expected)


# QueryFilter may not name key attributes of the queried table/index.
@pytest.mark.parametrize("attr", ["sk", "pk"])
def test_query_filter_on_key(dynamodb, rtbl, attr):
    expect_error(lambda: dynamodb.query(TableName=rtbl, KeyConditions={"pk": cond("EQ", S("p"))},
                                        QueryFilter={attr: cond("NOT_NULL")}), VE,
                 either_envelope("QueryFilter can only contain non-primary key attributes: Primary key attribute: " + attr))


# ScanFilter: any attribute, keys included.
@pytest.mark.parametrize("sf,extra,expected", [
    ({"sk": cond("BETWEEN", N("2"), N("3"))}, {}, [2, 3]),
    ({"note": cond("NOT_NULL")}, {}, [7]),
    ({"sk": cond("LT", N("2")), "sk2": cond("NULL")}, {}, [1]),
    ({"sk": cond("EQ", N("1")), "a": cond("EQ", N("0"))}, {"ConditionalOperator": "OR"}, [1, 3, 6]),
])
def test_scan_filter(dynamodb, rtbl, sf, extra, expected):
    resp = dynamodb.scan(TableName=rtbl, ScanFilter=sf, ConsistentRead=True, **extra)
    assert sorted(int(it["sk"]["N"]) for it in resp["Items"]) == expected


# Filter validation (shared by QueryFilter, ScanFilter and Expected).
@pytest.mark.parametrize("sf,message", [
    ({"a": cond("EQ")}, INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator"),
    ({"a": cond("NOT_NULL", N("1"))}, INVALID + "Invalid number of argument(s) for the NOT_NULL ComparisonOperator"),
    ({"a": {"ComparisonOperator": "IN", "AttributeValueList": []}},
     INVALID + "Invalid number of argument(s) for the IN ComparisonOperator"),
    ({"a": cond("CONTAINS", {"L": []})}, INVALID + "ComparisonOperator CONTAINS is not valid for L AttributeValue type"),
    ({"a": cond("GT", {"BOOL": True})}, INVALID + "ComparisonOperator GT is not valid for BOOL AttributeValue type"),
])
def test_scan_filter_validation(unchecked, rtbl, sf, message):
    expect_error(lambda: unchecked.scan(TableName=rtbl, ScanFilter=sf), VE, either_envelope(message))


# A ComparisonOperator outside the model's enum (wrongly cased, unknown, empty) or missing where
# it is required is a constraint violation on its member (dynalite's tests, recorded from the
# service; docs/service-fidelity.md). Expected may leave it out (Value / Exists).
ENUM_OPS = "Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, " \
           "BEGINS_WITH, GE, CONTAINS]"
KC = {"pk": cond("EQ", S("p"))}


@dev("'Comparison type does not exist in DynamoDB'")
@pytest.mark.parametrize("call,path,value", [
    pytest.param(lambda c, t: c.query(TableName=t, KeyConditions={"pk": cond("eq", S("p"))}),
                 "keyConditions.pk", "eq", id="key-conditions-lower-case"),
    pytest.param(lambda c, t: c.query(TableName=t, KeyConditions={"pk": cond("EQUALS", S("p"))}),
                 "keyConditions.pk", "EQUALS", id="key-conditions-unknown"),
    pytest.param(lambda c, t: c.query(TableName=t, KeyConditions=KC, QueryFilter={"a": cond("Eq", N("1"))}),
                 "queryFilter.a", "Eq", id="query-filter"),
    pytest.param(lambda c, t: c.query(TableName=t, KeyConditions=KC, QueryFilter={"a": {"AttributeValueList": [N("1")]}}),
                 "queryFilter.a", None, id="query-filter-missing"),
    pytest.param(lambda c, t: c.scan(TableName=t, ScanFilter={"a": cond("", N("1"))}), "scanFilter.a", "", id="scan-filter-empty"),
    pytest.param(lambda c, t: c.scan(TableName=t, ScanFilter={"a": {"AttributeValueList": [N("1")]}}),
                 "scanFilter.a", None, id="scan-filter-missing"),
    pytest.param(lambda c, t: c.put_item(TableName=t, Item={"pk": S("p"), "sk": N("99")},
                                         Expected={"a": cond("ne", N("1"))}), "expected.a", "ne", id="expected"),
])
def test_comparison_operator_enum(unchecked, rtbl, call, path, value):
    shown = "Value null" if value is None else "Value '%s'" % value
    expect_error(lambda: call(unchecked, rtbl), VE,
                 "1 validation error detected: %s at '%s.member.comparisonOperator' failed to satisfy constraint: %s"
                 % (shown, path, "Member must not be null" if value is None else ENUM_OPS))


# ---------------------------------------------------------------- no mixing


def mix(non, expr):
    return either_envelope("Can not use both expression and non-expression parameters in the same request: "
                           "Non-expression parameters: {%s} Expression parameters: {%s}" % (non, expr))


KC = {"pk": cond("EQ", S("p"))}


# A request may not combine legacy and expression parameters; the message lists every
# offending parameter on each side, in a fixed per-operation order.
@pytest.mark.parametrize("op,kw,non,expr", [
    ("get_item", {"AttributesToGet": ["a"], "ProjectionExpression": "a"}, "AttributesToGet", "ProjectionExpression"),
    ("put_item", {"Expected": {"a": {"Exists": False}}, "ConditionExpression": "attribute_not_exists(a)"},
     "Expected", "ConditionExpression"),
    ("put_item", {"Expected": {"a": {"Exists": False}, "b": {"Exists": False}}, "ConditionalOperator": "OR",
                  "ConditionExpression": "attribute_not_exists(a)"}, "Expected, ConditionalOperator", "ConditionExpression"),
    ("delete_item", {"Expected": {"a": {"Exists": False}}, "ConditionExpression": "attribute_not_exists(a)"},
     "Expected", "ConditionExpression"),
    ("update_item", {"AttributeUpdates": {"a": {"Value": N("1")}}, "UpdateExpression": "SET b = :v",
                     "ExpressionAttributeValues": {":v": N("1")}}, "AttributeUpdates", "UpdateExpression"),
    ("update_item", {"AttributeUpdates": {"a": {"Value": N("1")}}, "ConditionExpression": "attribute_exists(a)"},
     "AttributeUpdates", "ConditionExpression"),
    ("update_item", {"Expected": {"a": {"Exists": False}}, "UpdateExpression": "SET b = :v",
                     "ExpressionAttributeValues": {":v": N("1")}}, "Expected", "UpdateExpression"),
    ("update_item", {"AttributeUpdates": {"a": {"Value": N("1")}}, "Expected": {"a": {"Exists": False}},
                     "UpdateExpression": "SET b = :v", "ConditionExpression": "attribute_exists(a)",
                     "ExpressionAttributeValues": {":v": N("1")}},
     "AttributeUpdates, Expected", "UpdateExpression, ConditionExpression"),
    ("query", {"KeyConditions": KC, "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": S("p")}},
     "KeyConditions", "KeyConditionExpression"),
    ("query", {"KeyConditionExpression": "pk = :p", "QueryFilter": {"a": cond("NULL")},
               "ExpressionAttributeValues": {":p": S("p")}}, "QueryFilter", "KeyConditionExpression"),
    ("query", {"KeyConditionExpression": "pk = :p", "AttributesToGet": ["a"],
               "ExpressionAttributeValues": {":p": S("p")}}, "AttributesToGet", "KeyConditionExpression"),
    ("query", {"KeyConditions": KC, "QueryFilter": {"a": cond("NULL")}, "FilterExpression": "attribute_exists(a)"},
     "QueryFilter", "FilterExpression"),
    ("query", {"KeyConditions": KC, "AttributesToGet": ["a"], "ProjectionExpression": "a"},
     "AttributesToGet", "ProjectionExpression"),
    ("query", {"KeyConditionExpression": "pk = :p", "FilterExpression": "attribute_exists(a)",
               "AttributesToGet": ["a"], "QueryFilter": {"a": cond("NULL")}, "ExpressionAttributeValues": {":p": S("p")}},
     "AttributesToGet, QueryFilter", "FilterExpression, KeyConditionExpression"),
    ("scan", {"ScanFilter": {"a": cond("NULL")}, "FilterExpression": "attribute_exists(a)"},
     "ScanFilter", "FilterExpression"),
    ("scan", {"AttributesToGet": ["a"], "ProjectionExpression": "a"}, "AttributesToGet", "ProjectionExpression"),
    ("scan", {"ScanFilter": {"a": cond("NULL")}, "ProjectionExpression": "a"}, "ScanFilter", "ProjectionExpression"),
    ("scan", {"ConditionalOperator": "OR", "FilterExpression": "attribute_exists(a)"},
     "ConditionalOperator", "FilterExpression"),
], ids=lambda v: v if isinstance(v, str) and "_" in v or v in ("query", "scan") else None)
def test_no_mixing(unchecked, rtbl, tbl, op, kw, non, expr):
    table = rtbl if op in ("query", "scan") else tbl
    key = {"pk": S("p"), "sk": N("1")} if table == rtbl else {"pk": S("p")}
    args = dict(TableName=table, **kw)
    if op in ("get_item", "delete_item", "update_item"):
        args["Key"] = key
    elif op == "put_item":
        args["Item"] = key
    expect_error(lambda: getattr(unchecked, op)(**args), VE, mix(non, expr))


# ExpressionAttributeNames / Values need an expression that uses them (legacy-only requests).
@pytest.mark.parametrize("op,kw,messages", [
    ("get_item", {"AttributesToGet": ["a"], "ExpressionAttributeNames": {"#a": "a"}},
     either_envelope("ExpressionAttributeNames can only be specified when using expressions")),
    ("put_item", {"Expected": {"a": {"Exists": False}}, "ExpressionAttributeValues": {":v": N("1")}},
     ["ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null",
      h.ENVELOPE + "ExpressionAttributeValues can only be specified when using expressions"]),
    ("query", {"KeyConditions": KC, "ExpressionAttributeValues": {":v": N("1")}},
     ["ExpressionAttributeValues can only be specified when using expressions: FilterExpression and "
      "KeyConditionExpression are null",
      h.ENVELOPE + "ExpressionAttributeValues can only be specified when using expressions"]),
])
def test_placeholders_without_expressions(unchecked, tbl, rtbl, op, kw, messages):
    if op == "query":
        call = lambda: unchecked.query(TableName=rtbl, **kw)  # noqa: E731
    elif op == "get_item":
        call = lambda: unchecked.get_item(TableName=tbl, Key={"pk": S("p")}, **kw)  # noqa: E731
    else:
        call = lambda: unchecked.put_item(TableName=tbl, Item={"pk": S("p")}, **kw)  # noqa: E731
    expect_error(call, VE, messages)


# The 400 KB item limit applies to items grown by AttributeUpdates too.
def test_attribute_updates_item_too_large(dynamodb, tbl):
    item = h.padded_item({"pk": S("aubig")}, 409000)
    dynamodb.put_item(TableName=tbl, Item=item)
    expect_error(lambda: dynamodb.update_item(TableName=tbl, Key={"pk": S("aubig")},
                                              AttributeUpdates={"e": {"Action": "PUT", "Value": S("y" * 700)}}),
                 VE, either_envelope("Item size to update has exceeded the maximum allowed size"))
    assert get(dynamodb, tbl, "aubig") == item
