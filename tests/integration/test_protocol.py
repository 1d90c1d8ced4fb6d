"""Wire protocol: framing errors, JSON type errors, targets, authentication header
errors, response headers and the health check.

Protocol-level errors come from the service's Coral front end: their __type is
"com.amazon.coral.service#<Code>" and some carry no message at all.
"""
import re
import urllib.parse

import pytest

import dynamo_helpers as h
from dynamo_helpers import check_error, crc32_of, error_of

dev = pytest.mark.dynamodb_local_deviation


def coral_type(resp):
    return (resp.json or {}).get("__type", "")


# ---------------------------------------------------------------- body framing / JSON


# A body that is not JSON is a SerializationException (400), never a 500.
@pytest.mark.parametrize("body", [b"{not json", b'{"TableName": "x"', b"\xff\xfe\x00"], ids=["garbage", "truncated", "binary"])
@dev("answers 500 InternalFailure")
def test_malformed_json(dynamodb_raw, body):
    r = dynamodb_raw("ListTables", body)
    check_error(r, "SerializationException", None, status=400)
    assert coral_type(r) == "com.amazon.coral.service#SerializationException"


# The whole body must be JSON, members no operation reads included: the service's parser
# (Jackson, as DynamoDB Local's, whose parse errors are 500s) reads every token, skipped ones
# too, before any member is looked at. Known members of the wrong shape are checked elsewhere.
@pytest.mark.parametrize("value", [b'"\\x"', b'"\\u12"', b"tru", b"01", b"1.", b"[1,,2]", b'{"k": [nul]}'],
                         ids=["bad-escape", "short-unicode-escape", "bad-literal", "leading-zero",
                              "no-fraction-digits", "empty-element", "nested"])
@dev("answers 500 InternalFailure")
def test_malformed_json_in_unread_member(dynamodb_raw, value):
    r = dynamodb_raw("DescribeTable", b'{"TableName": "no_such_table", "NotAMember": ' + value + b"}")
    check_error(r, "SerializationException", None, status=400)
    assert coral_type(r) == "com.amazon.coral.service#SerializationException"


# Numbers inside AttributeValues are JSON strings; a JSON number is a SerializationException.
@pytest.mark.parametrize("value", [{"N": 5}, {"S": 5}, {"NS": [1, 2]}], ids=["N", "S", "NS"])
@dev("silently accepts JSON numbers")
def test_json_number_in_attribute_value(dynamodb_raw, hash_table, value):
    r = dynamodb_raw("PutItem", {"TableName": hash_table, "Item": {"pk": {"S": "j"}, "x": value}})
    check_error(r, "SerializationException", "NUMBER_VALUE cannot be converted to String")


# A structure where a string belongs.
@dev("answers 500 InternalFailure")
def test_object_where_string_expected(dynamodb_raw, hash_table):
    r = dynamodb_raw("PutItem", {"TableName": hash_table, "Item": {"pk": {"S": {"S": "a"}}}})
    check_error(r, "SerializationException", "Start of structure or map found where not expected")


# Other wrong JSON types are SerializationExceptions too (texts not established; see the
# catalogue): a string for an integer, a string for a boolean, a list for a map, a number
# for the table name.
@pytest.mark.parametrize("op,body", [
    pytest.param("ListTables", {"Limit": "5"}, id="string-for-integer", marks=dev("accepted")),
    pytest.param("ListTables", {"Limit": True}, id="bool-for-integer", marks=dev("500 InternalFailure")),
    pytest.param("PutItem", {"TableName": "TABLE", "Item": {"pk": {"S": "a"}, "x": {"BOOL": "maybe"}}},
                 id="string-for-boolean", marks=dev("500 InternalFailure")),
    pytest.param("PutItem", {"TableName": "TABLE", "Item": []}, id="list-for-map", marks=dev("500 InternalFailure")),
    pytest.param("PutItem", {"TableName": "TABLE", "Item": {"pk": {"S": "a"}, "x": {"M": []}}},
                 id="list-for-M", marks=dev("500 InternalFailure")),
    pytest.param("GetItem", {"TableName": "TABLE", "Key": {"pk": {"S": "a"}}, "ConsistentRead": "yes"},
                 id="string-for-ConsistentRead", marks=dev("500 InternalFailure")),
    pytest.param("DescribeTable", {"TableName": 5}, id="number-for-TableName",
                 marks=dev("ValidationException 'Invalid table/index name'")),
])
def test_wrong_json_types(dynamodb_raw, hash_table, op, body):
    import json
    body = json.loads(json.dumps(body).replace('"TABLE"', json.dumps(hash_table)))
    r = dynamodb_raw(op, body)
    check_error(r, "SerializationException", None)


# Invalid base64 in a B value is a SerializationException, not a 500 or a silent decode.
@pytest.mark.parametrize("b64", ["!!!!", "abc", "YQ="], ids=["bad-char", "bad-length", "bad-padding"])
@dev("answers 500 InternalFailure")
def test_invalid_base64(dynamodb_raw, hash_table, b64):
    r = dynamodb_raw("PutItem", {"TableName": hash_table, "Item": {"pk": {"S": "b"}, "x": {"B": b64}}})
    check_error(r, "SerializationException", None)


# Requests over 16 MB are refused with HTTP 413 before being parsed.
def test_body_too_large(dynamodb_raw):
    r = dynamodb_raw("ListTables", b"{" + b" " * (16 * 1024 * 1024) + b"}", sign=False)
    assert r.status == 413


# ---------------------------------------------------------------- targets


# An unknown operation (or wrong casing) is UnknownOperationException, HTTP 400, no message.
@pytest.mark.parametrize("op", ["FooBar", "listTables", "ListTable"])
@dev("__type is com.amazonaws.dynamodb.v20120810#UnknownOperationException and a message is added")
def test_unknown_operation(dynamodb_raw, op):
    r = dynamodb_raw(op, {})
    check_error(r, "UnknownOperationException", None)
    assert coral_type(r) == "com.amazon.coral.service#UnknownOperationException"
    assert error_of(r)[1] is None


# No X-Amz-Target at all is also an unknown operation.
@dev("answers 500 InternalFailure")
def test_missing_target(dynamodb_raw):
    r = dynamodb_raw(None, {})
    check_error(r, "UnknownOperationException", None)


# ---------------------------------------------------------------- authentication header


# No Authorization header at all.
@dev("type MissingAuthenticationToken with 'Request must contain either a valid (registered) AWS access key ID or X.509 certificate.'")
def test_missing_authorization(dynamodb_raw):
    r = dynamodb_raw("ListTables", {}, sign=False)
    check_error(r, "MissingAuthenticationTokenException", "Request is missing Authentication Token")


# An Authorization header that is not SigV4 at all counts as missing.
@pytest.mark.parametrize("value", ["AWS4", "garbage"])
@dev("answers 500 InternalFailure")
def test_non_sigv4_authorization(dynamodb_raw, value):
    r = dynamodb_raw("ListTables", {}, sign=False, headers={"Authorization": value})
    check_error(r, "MissingAuthenticationTokenException", "Request is missing Authentication Token")


# A SigV4 header without its parts lists everything that is missing.
@dev("answers 500 InternalFailure")
def test_incomplete_authorization(dynamodb_raw):
    r = dynamodb_raw("ListTables", {}, sign=False, headers={"Authorization": "AWS4-"})
    check_error(r, "IncompleteSignatureException",
                "Authorization header requires 'Credential' parameter. "
                "Authorization header requires 'Signature' parameter. "
                "Authorization header requires 'SignedHeaders' parameter. "
                "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
                "Authorization=AWS4-")


# ---------------------------------------------------------------- response headers


def check_common_headers(r):
    assert r.headers.get("x-amzn-requestid"), r.headers
    assert r.headers.get("content-type") == "application/x-amz-json-1.0"
    assert int(r.headers["content-length"]) == len(r.body)


# Successful answers carry a request id, the JSON content type and a CRC32 of the body
# (botocore verifies it and retries on mismatch).
def test_success_headers(dynamodb_raw, hash_table):
    for op, body in (("ListTables", {}), ("DescribeTable", {"TableName": hash_table}),
                     ("GetItem", {"TableName": hash_table, "Key": {"pk": {"S": "none"}}})):
        r = dynamodb_raw(op, body)
        assert r.status == 200
        check_common_headers(r)
        assert r.headers["x-amz-crc32"] == crc32_of(r.body)


# Error answers carry the same headers, including a correct x-amz-crc32.
@dev("no x-amz-crc32 on error answers")
def test_error_headers(dynamodb_raw):
    r = dynamodb_raw("DescribeTable", {"TableName": h.unique_name("missing")})
    assert r.status == 400
    check_common_headers(r)
    assert r.headers["x-amz-crc32"] == crc32_of(r.body)


# Request ids are unique per request.
def test_request_ids_unique(dynamodb_raw):
    ids = {dynamodb_raw("ListTables", {}).headers["x-amzn-requestid"] for _ in range(5)}
    assert len(ids) == 5


# Errors use the JSON 1.0 error shape: {"__type": "<namespace>#<Code>", "message"/"Message": ...}.
def test_error_body_shape(dynamodb_raw, hash_table):
    r = dynamodb_raw("GetItem", {"TableName": hash_table, "Key": {}})
    assert r.status == 400
    assert re.fullmatch(r"com\.amazon(aws\.dynamodb\.v20120810|\.coral\.validate)#ValidationException", coral_type(r))
    assert error_of(r)[1]


# ---------------------------------------------------------------- health check


# GET / is an unauthenticated health check used by load balancers and SDK tooling. It names
# the Host it was reached at (on AWS "healthy: dynamodb.us-east-1.amazonaws.com", once seen
# with a trailing space).
@dev("GET / answers 400 MissingAuthenticationToken")
def test_health_check(endpoint):
    status, headers, body = h.http_get(endpoint)
    assert status == 200
    host = urllib.parse.urlsplit(endpoint).netloc
    assert re.fullmatch(r"healthy: %s ?" % re.escape(host), body.decode()), body
