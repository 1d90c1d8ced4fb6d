"""Key and attribute-value validation for PutItem / GetItem / DeleteItem, and the size
limits (item 400 KB, partition key 2048 bytes, sort key 1024 bytes).

Bespoke value-validation texts are accepted both bare and wrapped in
"1 validation error detected: " (the service is rolling that rewording out region by
region; see the catalogue).
"""

import pytest

import dynamo_helpers as h
from dynamo_helpers import either_envelope, expect_error

dev = pytest.mark.dynamodb_local_deviation
INVALID = "One or more parameter values were invalid: "
NOT_MATCH = "The provided key element does not match the schema"
EMPTY_S_KEY = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: "
EMPTY_B_KEY = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: "


@pytest.fixture(scope="module")
def binary_table(dynamodb):
    name = h.unique_name("hb")
    dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                          KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                          AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "B"}])
    h.wait_active(dynamodb, name)
    yield name
    h.drop_table(dynamodb, name)


@pytest.fixture(scope="module")
def str_range_table(dynamodb):
    name = h.unique_name("hrs")
    dynamodb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                          KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                          AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                {"AttributeName": "sk", "AttributeType": "S"}])
    h.wait_active(dynamodb, name)
    yield name
    h.drop_table(dynamodb, name)


# ---------------------------------------------------------------- keys in PutItem


# The item must carry every key attribute, with the declared type and a non-empty value.
@pytest.mark.parametrize("which,item,messages", [
    pytest.param("hash", {"x": {"S": "a"}}, INVALID + "Missing the key pk in the item", id="missing-hash",
                 marks=dev("'One of the required keys was not given a value'")),
    pytest.param("range", {"pk": {"S": "a"}}, INVALID + "Missing the key sk in the item", id="missing-range",
                 marks=dev("'One of the required keys was not given a value'")),
    pytest.param("hash", {"pk": {"N": "1"}}, INVALID + "Type mismatch for key pk expected: S actual: N", id="hash-type-N",
                 marks=dev("message truncated after 'Type mismatch for key'")),
    pytest.param("hash", {"pk": {"B": "YQ=="}}, INVALID + "Type mismatch for key pk expected: S actual: B", id="hash-type-B",
                 marks=dev("message truncated after 'Type mismatch for key'")),
    pytest.param("hash", {"pk": {"SS": ["a"]}}, INVALID + "Type mismatch for key pk expected: S actual: SS", id="hash-type-SS",
                 marks=dev("'Invalid attribute value type'")),
    pytest.param("range", {"pk": {"S": "a"}, "sk": {"S": "1"}}, INVALID + "Type mismatch for key sk expected: N actual: S",
                 id="range-type-S", marks=dev("message truncated after 'Type mismatch for key'")),
    pytest.param("hash", {"pk": {"S": ""}}, EMPTY_S_KEY + "pk", id="empty-string-hash"),
    pytest.param("range", {"pk": {"S": "a"}, "sk": {"N": "1"}, "x": {"S": ""}}, None, id="empty-string-non-key-is-fine"),
])
def test_put_item_key_errors(unchecked, hash_table, range_table, which, item, messages):
    name = hash_table if which == "hash" else range_table
    if messages is None:
        unchecked.put_item(TableName=name, Item=item)
        return
    expect_error(lambda: unchecked.put_item(TableName=name, Item=item), "ValidationException", messages)


# Empty binary values are fine outside keys but not as a key.
def test_empty_binary_key(unchecked, binary_table):
    expect_error(lambda: unchecked.put_item(TableName=binary_table, Item={"pk": {"B": ""}}),
                 "ValidationException", EMPTY_B_KEY + "pk")
    expect_error(lambda: unchecked.get_item(TableName=binary_table, Key={"pk": {"B": ""}}),
                 "ValidationException", EMPTY_B_KEY + "pk")
    unchecked.put_item(TableName=binary_table, Item={"pk": {"B": "YQ=="}, "b": {"B": ""}})


# ---------------------------------------------------------------- keys in GetItem / DeleteItem


# Key must name exactly the key attributes with their declared types; anything else is
# the single generic schema-mismatch error.
@pytest.mark.parametrize("which,key", [
    pytest.param("range", {"pk": {"S": "a"}}, id="missing-range",
                 marks=dev("'The number of conditions on the keys is invalid'")),
    pytest.param("hash", {"pk": {"S": "a"}, "x": {"S": "b"}}, id="extra-attribute",
                 marks=dev("'The number of conditions on the keys is invalid'")),
    pytest.param("hash", {"zz": {"S": "a"}}, id="wrong-name",
                 marks=dev("'One of the required keys was not given a value'")),
    pytest.param("hash", {}, id="empty-key", marks=dev("'The number of conditions on the keys is invalid'")),
    pytest.param("hash", {"pk": {"N": "1"}}, id="wrong-type", marks=dev("'Type mismatch for key' (truncated)")),
    pytest.param("range", {"pk": {"S": "a"}, "sk": {"S": "1"}}, id="range-wrong-type",
                 marks=dev("'Type mismatch for key' (truncated)")),
])
@pytest.mark.parametrize("op", ["get_item", "delete_item"])
def test_key_schema_mismatch(unchecked, hash_table, range_table, op, which, key):
    name = hash_table if which == "hash" else range_table
    expect_error(lambda: getattr(unchecked, op)(TableName=name, Key=key), "ValidationException", NOT_MATCH)


@pytest.mark.parametrize("op", ["get_item", "delete_item"])
def test_empty_string_key_in_key(unchecked, hash_table, op):
    # An empty string is never a valid key value, whatever the operation.
    expect_error(lambda: getattr(unchecked, op)(TableName=hash_table, Key={"pk": {"S": ""}}),
                 "ValidationException", EMPTY_S_KEY + "pk")


# ---------------------------------------------------------------- key sizes


HASH_TOO_BIG = INVALID + "Size of hashkey has exceeded the maximum size limit of2048 bytes"
RANGE_TOO_BIG = INVALID + "Aggregated size of all range keys has exceeded the size limit of 1024 bytes"


# Partition keys may be 2048 bytes (UTF-8 bytes, not characters), sort keys 1024.
@pytest.mark.parametrize("value", ["x" * 2048, "\u00e9" * 1024], ids=["ascii", "2-byte-chars"])
def test_hash_key_at_limit(dynamodb, hash_table, value):
    dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": value}})
    assert dynamodb.get_item(TableName=hash_table, Key={"pk": {"S": value}}, ConsistentRead=True)["Item"]["pk"]["S"] == value
    dynamodb.delete_item(TableName=hash_table, Key={"pk": {"S": value}})


@pytest.mark.parametrize("value", ["x" * 2049, "\u00e9" * 1024 + "x"], ids=["ascii", "2-byte-chars"])
@dev("'Hash primary key values must be under 2048 bytes, and range primary key values must be under 1024 bytes'")
def test_hash_key_over_limit(dynamodb, hash_table, value):
    expect_error(lambda: dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": value}}), "ValidationException", HASH_TOO_BIG)


@pytest.mark.parametrize("value", ["x" * 1024, "\u00e9" * 512], ids=["ascii", "2-byte-chars"])
def test_range_key_at_limit(dynamodb, str_range_table, value):
    key = {"pk": {"S": "r"}, "sk": {"S": value}}
    dynamodb.put_item(TableName=str_range_table, Item=key)
    assert dynamodb.get_item(TableName=str_range_table, Key=key, ConsistentRead=True)["Item"] == key


@pytest.mark.parametrize("value", ["x" * 1025, "\u00e9" * 512 + "x"], ids=["ascii", "2-byte-chars"])
@dev("'Hash primary key values must be under 2048 bytes, and range primary key values must be under 1024 bytes'")
def test_range_key_over_limit(dynamodb, str_range_table, value):
    expect_error(lambda: dynamodb.put_item(TableName=str_range_table, Item={"pk": {"S": "r"}, "sk": {"S": value}}),
                 "ValidationException", RANGE_TOO_BIG)


# A binary partition key is limited by its raw byte length (not the base64 text).
def test_binary_hash_key_at_limit(dynamodb, binary_table):
    value = bytes(range(256)) * 8  # 2048 raw bytes, 2732 base64 characters
    dynamodb.put_item(TableName=binary_table, Item={"pk": {"B": value}})
    assert dynamodb.get_item(TableName=binary_table, Key={"pk": {"B": value}}, ConsistentRead=True)["Item"]["pk"]["B"] == value


# ---------------------------------------------------------------- item size


# 400 KB = 409,600 bytes counting attribute names: pk(2)+"x"(1) + big(3)+value.
def test_item_size_exactly_at_limit(dynamodb, hash_table):
    value = "a" * (409600 - 2 - 1 - 3)
    dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": "x"}, "big": {"S": value}})
    got = dynamodb.get_item(TableName=hash_table, Key={"pk": {"S": "x"}}, ConsistentRead=True)["Item"]
    assert len(got["big"]["S"]) == len(value)


def test_item_size_one_byte_over(dynamodb, hash_table):
    value = "a" * (409600 - 2 - 1 - 3 + 1)
    expect_error(lambda: dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": "y"}, "big": {"S": value}}),
                 "ValidationException", "Item size has exceeded the maximum allowed size")


# Attribute names count towards the size: a long name pushes the same value over.
def test_item_size_counts_attribute_names(dynamodb, hash_table):
    value = "a" * (409600 - 2 - 1 - 3)
    expect_error(lambda: dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": "z"}, "bigger": {"S": value}}),
                 "ValidationException", "Item size has exceeded the maximum allowed size")


# ---------------------------------------------------------------- attribute values


def put_value(client, table, value):
    return client.put_item(TableName=table, Item={"pk": {"S": "v"}, "x": value})


VALUE_CASES = [
    pytest.param({}, either_envelope("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"), id="no-type"),
    pytest.param({"S": "a", "N": "1"}, either_envelope("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"), id="two-types"),
    pytest.param({"SS": []}, either_envelope(INVALID + "An string set  may not be empty"), id="empty-SS"),
    pytest.param({"NS": []}, either_envelope(INVALID + "An number set  may not be empty"), id="empty-NS"),
    pytest.param({"BS": []}, either_envelope(INVALID + "Binary sets should not be empty"), id="empty-BS"),
    pytest.param({"M": {"in": {"SS": []}}}, either_envelope(INVALID + "An string set  may not be empty"), id="empty-SS-nested"),
    pytest.param({"SS": ["a", "a"]}, either_envelope(INVALID + "Input collection [a, a] contains duplicates.")
                 + [h.ENVELOPE + INVALID + 'Input collection ["a", "a"] contains duplicates.'], id="dup-SS",
                 marks=dev("no final '.' after 'contains duplicates'")),
    pytest.param({"NS": ["1", "1"]}, either_envelope("Input collection contains duplicates"), id="dup-NS"),
    pytest.param({"NS": ["1", "1.0"]}, either_envelope("Input collection contains duplicates"), id="dup-NS-numerically"),
    # boto3 base64-encodes bytes: b"b" travels as "Yg==", which the message echoes.
    pytest.param({"BS": [b"b", b"b"]}, either_envelope(INVALID + "Input collection [Yg==, Yg==]of type BS contains duplicates."),
                 id="dup-BS", marks=dev("'Input collection of type BS contains duplicates.' (no values)")),
    pytest.param({"N": "abc"}, either_envelope("The parameter cannot be converted to a numeric value: abc"), id="N-abc",
                 marks=dev("'A value provided cannot be converted into a number'")),
    pytest.param({"N": ""}, either_envelope("The parameter cannot be converted to a numeric value"), id="N-empty",
                 marks=dev("'A value provided cannot be converted into a number'")),
    pytest.param({"N": "NaN"}, either_envelope("The parameter cannot be converted to a numeric value: NaN"), id="N-NaN",
                 marks=dev("'A value provided cannot be converted into a number'")),
    pytest.param({"N": "Infinity"}, either_envelope("The parameter cannot be converted to a numeric value: Infinity"),
                 id="N-Infinity", marks=dev("'A value provided cannot be converted into a number'")),
    pytest.param({"N": "1e"}, either_envelope("The parameter cannot be converted to a numeric value: 1e"), id="N-1e",
                 marks=dev("'A value provided cannot be converted into a number'")),
    pytest.param({"NS": ["1", "b"]}, either_envelope("The parameter cannot be converted to a numeric value: b"), id="NS-member",
                 marks=dev("'A value provided cannot be converted into a number'")),
    pytest.param({"N": "1" * 39}, either_envelope("Attempting to store more than 38 significant digits in a Number"),
                 id="N-39-digits", marks=dev("'DynamoDB only supports precision up to 38 digits'")),
    pytest.param({"N": "-1." + "2" * 38}, either_envelope("Attempting to store more than 38 significant digits in a Number"),
                 id="N-39-digits-fraction", marks=dev("'DynamoDB only supports precision up to 38 digits'")),
    pytest.param({"N": "1e126"}, either_envelope("Number overflow. Attempting to store a number with magnitude larger than supported range"), id="N-1e126"),
    pytest.param({"N": "-1e126"}, either_envelope("Number overflow. Attempting to store a number with magnitude larger than supported range"), id="N-minus-1e126"),
    pytest.param({"N": "1e-131"}, either_envelope("Number underflow. Attempting to store a number with magnitude smaller than supported range"), id="N-1e-131"),
]


# Every malformed AttributeValue is a ValidationException with the service's text.
@pytest.mark.parametrize("value,messages", VALUE_CASES)
def test_attribute_value_errors(unchecked, hash_table, value, messages):
    expect_error(lambda: put_value(unchecked, hash_table, value), "ValidationException", messages)


# Values at the documented edges are accepted.
@pytest.mark.parametrize("value", [
    {"N": "1" * 38 + "0" * 88},      # 38 digits, magnitude 1e125
    {"N": "1e-130"},
    {"N": "-9.9999999999999999999999999999999999999E+125"},
    {"N": "0.000"},
    {"S": ""},
    {"B": ""},
    {"L": []},
    {"M": {}},
], ids=["N-max-digits", "N-smallest", "N-most-negative", "N-zero-fraction", "empty-S", "empty-B", "empty-L", "empty-M"])
def test_attribute_value_edges_accepted(unchecked, hash_table, value):
    put_value(unchecked, hash_table, value)


# NULL must be true. Two regions accepted {"NULL": false} for a month (2026-06 captures); by the
# 2026-07-17 sweep every region refuses it again (nubo-db/dynamodb-conformance CHANGELOG 2.0.0).
def test_null_false(unchecked, hash_table):
    expect_error(lambda: put_value(unchecked, hash_table, {"NULL": False}), "ValidationException",
                 either_envelope(INVALID + "Null attribute value types must have the value of true"))


def nest(levels, container="M"):
    v = {"S": "leaf"}
    for _ in range(levels):
        v = {"M": {"a": v}} if container == "M" else {"L": [v]}
    return v


# Documents nest at most 32 levels counting the item itself: an attribute may hold 31
# nested maps or lists, not 32.
@pytest.mark.parametrize("container", ["M", "L"])
def test_nesting_depth(unchecked, hash_table, container):
    put_value(unchecked, hash_table, nest(31, container))
    expect_error(lambda: put_value(unchecked, hash_table, nest(32, container)), "ValidationException",
                 either_envelope("Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"))


# ---------------------------------------------------------------- request parameters


# PutItem and DeleteItem only return the old item: other known ReturnValues are refused,
# unknown ones fail the enum constraint.
@pytest.mark.parametrize("op", ["put_item", "delete_item"])
@pytest.mark.parametrize("rv", ["ALL_NEW", "UPDATED_OLD", "UPDATED_NEW"])
@dev("'Return values set to invalid value'")
def test_return_values_not_allowed(unchecked, hash_table, op, rv):
    kw = {"Item" if op == "put_item" else "Key": {"pk": {"S": "rv"}}}
    expect_error(lambda: getattr(unchecked, op)(TableName=hash_table, ReturnValues=rv, **kw),
                 "ValidationException", either_envelope("ReturnValues can only be ALL_OLD or NONE"))


RV_ENUM_LEGACY = ("1 validation error detected: Value 'BOGUS' at 'returnValues' failed to satisfy constraint: "
                  "Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]")
RV_ENUM_NEW = ("1 validation error detected: Failed to satisfy constraint: "
               "Member must satisfy enum value set: [ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, NONE]")


@pytest.mark.parametrize("op", ["put_item", "delete_item"])
@dev("'Return values set to invalid value'")
def test_return_values_not_in_enum(unchecked, hash_table, op):
    kw = {"Item" if op == "put_item" else "Key": {"pk": {"S": "rv"}}}
    expect_error(lambda: getattr(unchecked, op)(TableName=hash_table, ReturnValues="BOGUS", **kw),
                 "ValidationException", [RV_ENUM_LEGACY, RV_ENUM_NEW])


@pytest.mark.parametrize("op", ["put_item", "get_item", "delete_item"])
@dev("an unknown ReturnConsumedCapacity is accepted")
def test_return_consumed_capacity_not_in_enum(unchecked, hash_table, op):
    kw = {"Item" if op == "put_item" else "Key": {"pk": {"S": "rcc"}}}
    expect_error(lambda: getattr(unchecked, op)(TableName=hash_table, ReturnConsumedCapacity="BOGUS", **kw),
                 "ValidationException",
                 "1 validation error detected: Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: "
                 "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]")


# Data-plane table names are checked by pattern and length (1..255 here, since ARNs are
# accepted); a 2-character name is just a missing table.
@pytest.mark.parametrize("name,code,messages", [
    pytest.param("bad table!@#", "ValidationException",
                 "1 validation error detected: Value 'bad table!@#' at 'tableName' failed to satisfy constraint: "
                 "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+", id="bad-chars",
                 marks=dev("own sentence 'Invalid table/index name'")),
    pytest.param("a" * 256, "ValidationException",
                 "1 validation error detected: Value '%s' at 'tableName' failed to satisfy constraint: "
                 "Member must have length less than or equal to 255" % ("a" * 256), id="256-chars",
                 marks=dev("own sentence 'Invalid table/index name'")),
    pytest.param("ab", "ResourceNotFoundException", "Requested resource not found", id="2-chars",
                 marks=dev("own sentence 'Invalid table/index name'")),
])
def test_item_table_name_validation(unchecked, name, code, messages):
    expect_error(lambda: unchecked.put_item(TableName=name, Item={"pk": {"S": "a"}}), code, messages)


# ExpressionAttributeValues/Names without any expression are refused.
def test_expression_attributes_without_expression(unchecked, hash_table):
    expect_error(lambda: unchecked.put_item(TableName=hash_table, Item={"pk": {"S": "e"}},
                                            ExpressionAttributeValues={":v": {"S": "x"}}),
                 "ValidationException",
                 ["ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null",
                  h.ENVELOPE + "ExpressionAttributeValues can only be specified when using expressions"])
    expect_error(lambda: unchecked.get_item(TableName=hash_table, Key={"pk": {"S": "e"}},
                                            ExpressionAttributeNames={"#n": "x"}),
                 "ValidationException", either_envelope("ExpressionAttributeNames can only be specified when using expressions"))
    expect_error(lambda: unchecked.delete_item(TableName=hash_table, Key={"pk": {"S": "e"}},
                                               ExpressionAttributeValues={":v": {"S": "x"}}),
                 "ValidationException",
                 ["ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null",
                  h.ENVELOPE + "ExpressionAttributeValues can only be specified when using expressions"])


# ---------------------------------------------------------------- ProjectionExpression


PE_CASES = [
    pytest.param("!!! INVALID !!!", None, 'Invalid ProjectionExpression: Syntax error; token: "!", near: "!!"', id="syntax"),
    pytest.param("", None, "Invalid ProjectionExpression: The expression can not be empty;", id="empty"),
    pytest.param("a,", None, 'Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: ","', id="trailing-comma"),
    pytest.param("a[x]", None, 'Invalid ProjectionExpression: Syntax error; token: "x", near: "[x]"', id="non-numeric-index"),
    pytest.param(":v", None, 'Invalid ProjectionExpression: Syntax error; token: ":v", near: ":v"', id="value-placeholder"),
    pytest.param("#n", None, "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #n", id="undefined-name"),
    pytest.param("a", {"#n": "x"}, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#n}", id="unused-name"),
    pytest.param("a", {}, "ExpressionAttributeNames must not be empty", id="empty-names"),
    pytest.param("a", {"n": "x"}, 'ExpressionAttributeNames contains invalid key: Syntax error; key: "n"', id="name-without-hash"),
    pytest.param("name", None, "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name", id="reserved-word"),
    pytest.param("a, a.b", None, "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]", id="overlap"),
    pytest.param("a, a", None, "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]", id="duplicate"),
    # Of several pairs, the one whose later path comes last, then whose earlier one does.
    pytest.param("l.x, l[0], l", None, "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [l, [0]], path two: [l]", id="last-pair-overlap"),
    pytest.param("l, a, l.x, b, l[0]", None, "Invalid ProjectionExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [l, x], path two: [l, [0]]", id="last-pair-conflict"),
]


# ProjectionExpression parse and placeholder errors, with their exact texts.
@pytest.mark.parametrize("expr,names,message", PE_CASES)
def test_projection_expression_errors(unchecked, hash_table, expr, names, message):
    kw = {"ProjectionExpression": expr}
    if names is not None:
        kw["ExpressionAttributeNames"] = names
    expect_error(lambda: unchecked.get_item(TableName=hash_table, Key={"pk": {"S": "p"}}, **kw),
                 "ValidationException", either_envelope(message))


# Mixing the legacy AttributesToGet with ProjectionExpression is refused.
def test_projection_with_attributes_to_get(unchecked, hash_table):
    expect_error(lambda: unchecked.get_item(TableName=hash_table, Key={"pk": {"S": "p"}}, ProjectionExpression="a",
                                            AttributesToGet=["a"]),
                 "ValidationException",
                 either_envelope("Can not use both expression and non-expression parameters in the same request: "
                                 "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"))
