"""Hostile bodies: nesting far past any valid request, very wide objects and lists, and
the same compressed, sent to every operation dynamod implements. None may crash, hang or
change the server's data: each is answered (400, or 200 where the shape sits in a member
the operation ignores and the request is otherwise valid), and afterwards the server
answers a GetItem and the sentinel items are unchanged.

The service's JSON parser (Jackson) refuses objects and arrays nested more than 1,000
levels; dynamod answers those as it answers any body its parser cannot read, a
SerializationException with no message. DynamoDB Local answers them 500 InternalFailure.
"""
import gzip
import http.client
import json

import pytest

import dynamo_helpers as h
from test_request_mutations import STREAM_OPS, check_intact, storm, valid_requests  # noqa: F401 (storm: a fixture)

dev = pytest.mark.dynamodb_local_deviation
LOCAL_DEEP = "answers 500 InternalFailure to JSON nested more than 1,000 levels (Jackson's limit)"

# Every operation dynamod implements (server/*operations.cpp).
OPERATIONS = [
    "CreateTable", "DescribeTable", "UpdateTable", "DeleteTable", "ListTables",
    "PutItem", "GetItem", "UpdateItem", "DeleteItem", "Query", "Scan",
    "BatchGetItem", "BatchWriteItem", "TransactWriteItems", "TransactGetItems",
    "ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction",
    "UpdateTimeToLive", "DescribeTimeToLive", "TagResource", "UntagResource", "ListTagsOfResource",
    "DescribeLimits", "DescribeEndpoints",
    "CreateBackup", "DescribeBackup", "ListBackups", "DeleteBackup", "RestoreTableFromBackup",
    "RestoreTableToPointInTime", "DescribeContinuousBackups", "UpdateContinuousBackups",
    "UpdateContributorInsights", "DescribeContributorInsights", "ListContributorInsights",
    "PutResourcePolicy", "GetResourcePolicy", "DeleteResourcePolicy",
    "ListStreams", "DescribeStream", "GetShardIterator", "GetRecords",
]
STREAM_OPS_ALL = STREAM_OPS | {"GetShardIterator", "GetRecords"}

# A member no operation knows: the decoders skip it unread, so only the first walk over
# the body's tokens meets it.
JUNK = "HostileJunk"


def deep(shape, depth):
    """JSON text nested `depth` levels: arrays, objects, or AttributeValues L / M."""
    if shape == "array":
        return "[" * depth + "]" * depth
    if shape == "object":
        return '{"a":' * depth + "1" + "}" * depth
    if shape == "L":
        return '{"L":[' * depth + '{"S":"x"}' + "]}" * depth
    if shape == "M":
        return '{"M":{"a":' * depth + '{"S":"x"}' + "}}" * depth
    raise ValueError(shape)


def with_member(body, name, text):
    """The JSON text of `body` with one more member whose value is the raw JSON `text`."""
    encoded = json.dumps(body)
    inner = encoded[1:-1]
    return "{" + inner + ("," if inner else "") + json.dumps(name) + ":" + text + "}"


def body_for(storm, op):
    return valid_requests(storm).get(op, {})


def first_attribute_value(body, path=()):
    """The path of the first AttributeValue in a request body (an Item's, a Key's or an
    ExpressionAttributeValue's), or None."""
    if isinstance(body, dict):
        if len(body) == 1 and next(iter(body)) in ("S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"):
            return path
        for k, v in body.items():
            found = first_attribute_value(v, path + (k,))
            if found is not None:
                return found
    elif isinstance(body, list):
        for i, v in enumerate(body):
            found = first_attribute_value(v, path + (i,))
            if found is not None:
                return found
    return None


MARK = "\u0000hostile\u0000"


def replaced_at(body, path, text):
    """JSON text of `body` with the value at `path` replaced by the raw JSON `text`."""
    copy = json.loads(json.dumps(body))
    node = copy
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = MARK
    return json.dumps(copy).replace(json.dumps(MARK), text, 1)


@pytest.fixture(scope="module")
def hostile_send(dynamodb_raw):
    """hostile_send(op, data, headers=None) -> RawResponse; a missing answer fails the test."""
    def go(op, data, headers=None):
        assert len(data) <= 16 * 1024 * 1024, "%s: a %d-byte body is past the limit" % (op, len(data))
        prefix = "DynamoDBStreams_20120810." if op in STREAM_OPS_ALL else "DynamoDB_20120810."
        try:
            return dynamodb_raw(op, data, headers=headers, target_prefix=prefix)
        except (OSError, http.client.HTTPException) as e:
            pytest.fail("%s: no answer to a %d-byte body: %r" % (op, len(data), e))
    return go


def assert_refused_as_unparsable(op, resp):
    assert resp.status == 400, (op, resp)
    assert resp.json is not None and resp.json.get("__type", "").endswith("#SerializationException"), (op, resp)


@dev(LOCAL_DEEP)
@pytest.mark.parametrize("op", OPERATIONS)
def test_deep_bodies(storm, hostile_send, dynamodb, op):
    """10^5 and 10^6 levels of arrays, objects, L and M, in a member the operation does not
    know and in its first AttributeValue; and the 10^6-level ones gzip-compressed."""
    body = body_for(storm, op)
    av_path = first_attribute_value(body)
    for depth, shapes in ((10**5, ("array", "object", "L", "M")), (10**6, ("array", "L"))):
        for shape in shapes:
            text = deep(shape, depth)
            data = with_member(body, JUNK, text).encode()
            assert_refused_as_unparsable(op, hostile_send(op, data))
            if av_path is not None and shape in ("L", "M"):
                assert_refused_as_unparsable(op, hostile_send(op, replaced_at(body, av_path, text).encode()))
            if depth == 10**6:
                resp = hostile_send(op, gzip.compress(data), headers={"Content-Encoding": "gzip"})
                assert_refused_as_unparsable(op, resp)
    check_intact(dynamodb, storm)


@dev(LOCAL_DEEP)
def test_depth_limit_is_jacksons(storm, hostile_send, dynamodb):
    """1,000 levels of JSON are read (and the item's own limit answers), 1,001 are not."""
    t = storm.tables["hash"]
    for levels, parsed in ((1000, True), (1001, False)):
        # The body is level 1, Key level 2; the junk's arrays are levels 2..levels.
        data = '{"TableName":%s,"Key":{"pk":{"S":"sentinel-h"}},"%s":%s}' % (
            json.dumps(t), JUNK, deep("array", levels - 1))
        resp = hostile_send("GetItem", data.encode())
        if parsed:
            assert resp.status == 200 and resp.json["Item"]["a"] == {"S": "keep"}, resp
        else:
            assert_refused_as_unparsable("GetItem", resp)
    # An item nested 499 AttributeValue levels is 1,000 levels of JSON: the item's own limit.
    data = '{"TableName":%s,"Item":{"pk":{"S":"deep-item"},"d":%s}}' % (json.dumps(t), deep("L", 498))
    resp = hostile_send("PutItem", data.encode())
    assert resp.status == 400 and resp.json["__type"].endswith("#ValidationException"), resp
    assert resp.json["message"].startswith("Nesting Levels have exceeded supported limits"), resp
    check_intact(dynamodb, storm)


def short_names(n, prefix=""):
    """n distinct names of at most 4 base-36 digits, in ascending order."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"

    def name(i):
        out = ""
        for _ in range(4):
            i, d = divmod(i, 36)
            out = digits[d] + out
        return prefix + out
    return [name(i) for i in range(n)]


def wide_object(n, value='{"S":""}', prefix=""):
    """An object of n members (16 bytes each with the default value and no prefix)."""
    return "{" + ",".join('"%s":%s' % (k, value) for k in short_names(n, prefix)) + "}"


def wide_reversed_object(n):
    # Members in descending order: the worst case for a sorted insert one by one.
    return "{" + ",".join('"k%07d":{"NULL":true}' % i for i in range(n, 0, -1)) + "}"


def wide_list(n, element='{"NULL":true}'):
    return "[" + ",".join([element] * n) + "]"


MILLION = 1_000_000


@pytest.mark.parametrize("op", OPERATIONS)
def test_wide_unknown_member(storm, hostile_send, dynamodb, op):
    """An object of 1,000,000 members and a list of 1,000,000 elements where the operation
    expects nothing: answered as the request would be without them."""
    body = body_for(storm, op)
    for text in (wide_object(MILLION, "0"), wide_list(MILLION, "0")):
        data = with_member(body, JUNK, text).encode()
        resp = hostile_send(op, data)
        assert resp.status in (200, 400) and (resp.json is not None or resp.body == b""), (op, resp)
    check_intact(dynamodb, storm)


def answer_400(resp, kind, message_start=""):
    assert resp.status == 400, resp
    assert resp.json["__type"].endswith("#" + kind), resp
    message = resp.json.get("message", resp.json.get("Message", ""))
    assert message.startswith(message_start), resp


def test_wide_known_members(storm, hostile_send, dynamodb):
    """1,000,000 members or elements where the operation reads them."""
    th, tr = storm.tables["hash"], storm.tables["range"]
    too_big = "Item size has exceeded the maximum allowed size"
    # An item of 900,000 attributes (what 16 MB holds), in order and in reverse order.
    for attrs in (wide_object(900_000), wide_reversed_object(600_000)):
        data = '{"TableName":%s,"Item":%s}' % (json.dumps(th), attrs[:-1] + ',"pk":{"S":"wide"}}')
        answer_400(hostile_send("PutItem", data.encode()), "ValidationException", too_big)
    # A list of a million elements in an item.
    data = '{"TableName":%s,"Item":{"pk":{"S":"wide"},"l":{"L":%s}}}' % (json.dumps(th), wide_list(MILLION))
    answer_400(hostile_send("PutItem", data.encode()), "ValidationException", too_big)
    # 800,000 ExpressionAttributeValues and a million Names, none used but one.
    data = '{"TableName":%s,"Key":{"pk":{"S":"wide"}},"UpdateExpression":"SET a = :0001","ExpressionAttributeValues":%s}' % (
        json.dumps(th), wide_object(800_000, prefix=":"))
    answer_400(hostile_send("UpdateItem", data.encode()), "ValidationException",
               "Value provided in ExpressionAttributeValues unused in expressions")
    names = wide_object(MILLION, '"a"', prefix="#")
    data = '{"TableName":%s,"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"x"}},"ExpressionAttributeNames":%s}' % (
        json.dumps(tr), names)
    answer_400(hostile_send("Query", data.encode()), "ValidationException",
               "Value provided in ExpressionAttributeNames unused in expressions")
    # As many keys, tables, statements, transaction items, parameters, tags as 16 MB holds.
    data = '{"RequestItems":{%s:{"Keys":%s}}}' % (json.dumps(th), wide_list(900_000, '{"pk":{"S":"x"}}'))
    answer_400(hostile_send("BatchGetItem", data.encode()), "ValidationException")
    data = '{"RequestItems":{%s}}' % ",".join('"t%d":{"Keys":[]}' % i for i in range(MILLION // 2))
    answer_400(hostile_send("BatchGetItem", data.encode()), "ValidationException")
    data = '{"TransactItems":%s}' % wide_list(700_000, '{"ConditionCheck":{}}')
    answer_400(hostile_send("TransactWriteItems", data.encode()), "ValidationException")
    data = '{"Statements":%s}' % wide_list(500_000, '{"Statement":"SELECT * FROM t"}')
    answer_400(hostile_send("BatchExecuteStatement", data.encode()), "ValidationException")
    data = '{"Statement":"SELECT * FROM \\"%s\\" WHERE pk = ?","Parameters":%s}' % (th, wide_list(MILLION, '{"S":"x"}'))
    # Parameters past the statement's `?`s are not read (as on DynamoDB Local).
    resp = hostile_send("ExecuteStatement", data.encode())
    assert resp.status == 200 and resp.json == {"Items": []}, resp
    tags = "[" + ",".join('{"Key":"%s","Value":""}' % k for k in short_names(600_000)) + "]"
    data = '{"ResourceArn":%s,"Tags":%s}' % (json.dumps(storm.arn["hash"]), tags)
    answer_400(hostile_send("TagResource", data.encode()), "ValidationException",
               "One or more parameter values were invalid: The number of tags on the resource would exceed the limit of 50")
    data = '{"TableName":"wide_table","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":%s}' % (
        wide_list(350_000, '{"AttributeName":"pk","AttributeType":"S"}'))
    answer_400(hostile_send("CreateTable", data.encode()), "ValidationException")
    check_intact(dynamodb, storm)


def test_compressed_bombs(storm, hostile_send, dynamodb):
    """A gzip body that inflates past 16 MB, and one that inflates to a valid-looking body
    with 15 MB of whitespace: both answered, neither held in memory whole beyond the limit."""
    th = storm.tables["hash"]
    bomb = gzip.compress(b"[" * (64 * 1024 * 1024), compresslevel=9)
    resp = hostile_send("GetItem", bomb, headers={"Content-Encoding": "gzip"})
    assert resp.status == 413, resp
    spaced = ('{"TableName":%s,"Key":{"pk":{"S":"sentinel-h"}}' % json.dumps(th)).encode() + b" " * (15 * 1024 * 1024) + b"}"
    resp = hostile_send("GetItem", gzip.compress(spaced), headers={"Content-Encoding": "gzip"})
    assert resp.status == 200 and resp.json["Item"]["pk"] == {"S": "sentinel-h"}, resp
    check_intact(dynamodb, storm)
