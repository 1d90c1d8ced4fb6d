"""HTTP details: compressed request bodies (Content-Encoding), compressed responses
(Accept-Encoding), the Server and Date headers, the request's Content-Type, CORS, and the health
check's path.

Catalogue with sources: /work/notes/errors-partiql-tags-misc.md (part 4). Raw signed requests go
through the `dynamodb_raw` fixture (dynamo_helpers.raw_request); extra headers are signed.
"""
import gzip
import json
import zlib

import pytest

import dynamo_helpers as h
from partiql_helpers import dynamod_only, uid

dev = pytest.mark.dynamodb_local_deviation
THRESHOLD = 4096        # the service compresses responses above about 4 KB (ALT test_compressed_response.py)


@pytest.fixture(scope="module")
def tbl(module_tables):
    return module_tables("hash", tag="http")


def put_body(table, pk, **attrs):
    item = {"pk": {"S": pk}}
    item.update({k: {"S": v} for k, v in attrs.items()})
    return json.dumps({"TableName": table, "Item": item}).encode()


def stored(dynamodb, table, pk):
    return dynamodb.get_item(TableName=table, Key={"pk": {"S": pk}}, ConsistentRead=True).get("Item")


# ---------------------------------------------------------------- compressed requests


# A gzip body with Content-Encoding: gzip is accepted (the signature covers the compressed bytes).
@dev("a gzip body answers 500 InternalFailure")
def test_gzip_request(dynamodb_raw, dynamodb, tbl):
    k = uid("gz")
    r = dynamodb_raw("PutItem", gzip.compress(put_body(tbl, k, v="x" * 10000)), headers={"Content-Encoding": "gzip"})
    assert r.status == 200, r
    assert r.json == {}
    assert stored(dynamodb, tbl, k)["v"] == {"S": "x" * 10000}
    r = dynamodb_raw("GetItem", gzip.compress(json.dumps({"TableName": tbl, "Key": {"pk": {"S": k}}}).encode()),
                     headers={"Content-Encoding": "gzip"})
    assert r.status == 200 and r.json["Item"]["pk"] == {"S": k}


# Several concatenated gzip members are one body (RFC 1952).
@dev("a gzip body answers 500 InternalFailure")
def test_gzip_request_two_members(dynamodb_raw, dynamodb, tbl):
    k = uid("gz2")
    body = put_body(tbl, k)
    r = dynamodb_raw("PutItem", gzip.compress(body[:10]) + gzip.compress(body[10:]), headers={"Content-Encoding": "gzip"})
    assert r.status == 200, r
    assert stored(dynamodb, tbl, k) is not None


# A body that is not valid gzip is a 500 (as the service does) and nothing is written.
@pytest.mark.parametrize("kind", [
    pytest.param("plain", marks=dev("ignores Content-Encoding and runs the plain body")),
    "truncated",
    "empty",
])
def test_broken_gzip_request(dynamodb_raw, dynamodb, tbl, kind):
    k = uid("bad")
    body = put_body(tbl, k)
    data = {"plain": body, "truncated": gzip.compress(body)[:-1], "empty": b""}[kind]
    r = dynamodb_raw("PutItem", data, headers={"Content-Encoding": "gzip"})
    assert r.status == 500, r
    assert stored(dynamodb, tbl, k) is None


# An unknown Content-Encoding is a 500 and nothing is written.
@dev("ignores Content-Encoding")
def test_unknown_content_encoding(dynamodb_raw, dynamodb, tbl):
    k = uid("enc")
    r = dynamodb_raw("PutItem", put_body(tbl, k), headers={"Content-Encoding": "garbage"})
    assert r.status == 500, r
    assert stored(dynamodb, tbl, k) is None


# dynamod also accepts deflate (zlib) request bodies; the service documents gzip only.
def test_deflate_request(dynamodb_raw, dynamodb, tbl, target):
    dynamod_only(target, "the service's answer to a deflate request body is not established")
    k = uid("defl")
    r = dynamodb_raw("PutItem", zlib.compress(put_body(tbl, k)), headers={"Content-Encoding": "deflate"})
    assert r.status == 200, r
    assert stored(dynamodb, tbl, k) is not None


# ---------------------------------------------------------------- compressed responses


@pytest.fixture(scope="module")
def big_item(dynamodb, tbl):
    """An item whose GetItem answer is well above the threshold, and one just below it."""
    big, small = uid("big"), uid("small")
    dynamodb.put_item(TableName=tbl, Item={"pk": {"S": big}, "x": {"S": "x" * (THRESHOLD * 3)}})
    dynamodb.put_item(TableName=tbl, Item={"pk": {"S": small}, "x": {"S": "x" * (THRESHOLD - 200)}})
    return big, small


def get_raw(dynamodb_raw, tbl, pk, accept):
    headers = {} if accept is None else {"Accept-Encoding": accept}
    return dynamodb_raw("GetItem", {"TableName": tbl, "Key": {"pk": {"S": pk}}}, headers=headers)


def decoded(r):
    enc = r.headers.get("content-encoding", "identity").lower()
    if enc == "gzip":
        return gzip.decompress(r.body)
    if enc == "deflate":
        return zlib.decompress(r.body)
    assert enc == "identity", enc
    return r.body


# Above the threshold, Accept-Encoding gzip / deflate gets a compressed body (deflate = zlib
# format); Content-Length and x-amz-crc32 describe the compressed bytes.
@dev("never compresses responses")
@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_compressed_response(dynamodb_raw, tbl, big_item, encoding):
    r = get_raw(dynamodb_raw, tbl, big_item[0], encoding)
    assert r.status == 200
    assert r.headers.get("content-encoding") == encoding
    assert int(r.headers["content-length"]) == len(r.body)
    assert r.headers["x-amz-crc32"] == h.crc32_of(r.body)
    body = json.loads(decoded(r))
    assert body["Item"]["x"]["S"] == "x" * (THRESHOLD * 3)
    assert len(r.body) * 10 < THRESHOLD * 3


# Small answers, and answers to requests without Accept-Encoding, are not compressed.
def test_uncompressed_responses(dynamodb_raw, tbl, big_item):
    r = get_raw(dynamodb_raw, tbl, big_item[1], "gzip")
    assert r.status == 200 and "content-encoding" not in r.headers
    assert r.headers["x-amz-crc32"] == h.crc32_of(r.body)
    r = get_raw(dynamodb_raw, tbl, big_item[0], None)
    assert r.status == 200 and "content-encoding" not in r.headers
    assert json.loads(r.body)["Item"]["pk"] == {"S": big_item[0]}


# Accept-Encoding negotiation as the service does it (ALT, run against DynamoDB): q-values count,
# equal preference goes to the first listed, "*" means gzip, identity/unknown codings mean none.
@pytest.mark.parametrize("accept,expected", [
    ("identity", None), ("", None), ("br", None), ("zstd", None), ("x-gzip", None), ("gzip;q=0", None),
    ("*;q=0", None), ("br;q=0.8,identity;q=0.5,*;q=0", None),
    pytest.param("gzip, deflate", "gzip", marks=dev("never compresses")),
    pytest.param("br, identity, deflate, gzip", "deflate", marks=dev("never compresses")),
    pytest.param("GZIP, identity", "gzip", marks=dev("never compresses")),
    pytest.param("gzip;q=0.8, deflate;q=0.5", "gzip", marks=dev("never compresses")),
    pytest.param("deflate;q=0.5, gzip;q=0.2", "deflate", marks=dev("never compresses")),
    pytest.param("br, gzip;q=0, deflate; q = 0.5 , identity;q=0", "deflate", marks=dev("never compresses")),
    pytest.param("*", "gzip", marks=dev("never compresses")),
    pytest.param("*, gzip;q=0.5", "deflate", marks=dev("never compresses")),
])
def test_accept_encoding_negotiation(dynamodb_raw, tbl, big_item, accept, expected):
    r = get_raw(dynamodb_raw, tbl, big_item[0], accept)
    assert r.status == 200
    assert r.headers.get("content-encoding") == expected
    assert json.loads(decoded(r))["Item"]["pk"] == {"S": big_item[0]}


# Several Accept-Encoding lines are one list (RFC 9110 section 5.3), read as one header would be.
@pytest.mark.parametrize("lines,expected", [
    pytest.param([("Accept-Encoding", "gzip;q=0"), ("Accept-Encoding", "deflate")], "deflate",
                 marks=dev("never compresses")),
    pytest.param([("Accept-Encoding", "deflate;q=0.2"), ("Accept-Encoding", "gzip")], "gzip",
                 marks=dev("never compresses")),
    pytest.param([("Accept-Encoding", "gzip"), ("Accept-Encoding", "gzip;q=0")], "gzip",  # a coding's best q
                 marks=dev("never compresses")),
    pytest.param([("Accept-Encoding", "br"), ("Accept-Encoding", "identity")], None),
])
def test_accept_encoding_several_headers(dynamodb_raw, tbl, big_item, lines, expected):
    r = dynamodb_raw("GetItem", {"TableName": tbl, "Key": {"pk": {"S": big_item[0]}}}, unsigned_lines=lines)
    assert r.status == 200
    assert r.headers.get("content-encoding") == expected
    assert json.loads(decoded(r))["Item"]["pk"] == {"S": big_item[0]}


# ---------------------------------------------------------------- answer headers, request Content-Type


# Every answer names its server and its date, as the service's do ("Server: Server", an
# IMF-fixdate; seen in boto3's HTTPHeaders of service answers, e.g. getmoto/moto#1627).
@pytest.mark.parametrize("kind", ["ok", "error", "unknown-path"])
def test_server_and_date_headers(dynamodb_raw, endpoint, tbl, target, kind):
    import email.utils
    import time
    if kind == "ok":
        r = dynamodb_raw("DescribeTable", {"TableName": tbl})
    elif kind == "error":
        r = dynamodb_raw("DescribeTable", {"TableName": "no_such_table_http"})
    else:
        r = h.raw_request(endpoint, None, None, method="GET", path="/x", sign=False, content_type=None)
    assert "date" in r.headers and r.headers["date"].endswith(" GMT")
    assert abs(email.utils.parsedate_to_datetime(r.headers["date"]).timestamp() - time.time()) < 120
    if target != "dynamodb-local":  # Jetty names itself there
        assert r.headers.get("server") == "Server"


# A POST whose body is not the JSON protocol's (no Content-Type, text/plain, a form, another
# protocol) is not served: the service answers 404 <UnknownOperationException/> as for a path it
# does not route (dynalite's connection tests, recorded from DynamoDB). An empty body without a
# Content-Type is read as JSON would be.
@dev("serves the request")
@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "application/x-amz-json-1.1", "whatever"])
def test_body_without_json_content_type(dynamodb_raw, tbl, content_type):
    r = dynamodb_raw("DescribeTable", {"TableName": tbl}, content_type=content_type)
    assert r.status == 404
    assert r.body == b"<UnknownOperationException/>\n"
    assert r.headers["x-amz-crc32"] == "3552371480"


# The answer is in the request's type (dynalite's tests).
@pytest.mark.parametrize("content_type", ["application/x-amz-json-1.0", pytest.param(
    "application/json", marks=dev("answers application/x-amz-json-1.0"))])
def test_body_with_json_content_type(dynamodb_raw, tbl, content_type):
    r = dynamodb_raw("DescribeTable", {"TableName": tbl}, content_type=content_type)
    assert r.status == 200 and r.json["Table"]["TableName"] == tbl
    assert r.headers["content-type"] == content_type


# ---------------------------------------------------------------- CORS


CORS = ["access-control-allow-origin", "access-control-allow-credentials", "access-control-expose-headers",
        "access-control-max-age", "access-control-allow-methods", "access-control-allow-headers"]


# A preflight (OPTIONS with Origin, no signature needed): 200, empty body, any origin allowed,
# the requested method and headers echoed, cached (Max-Age).
@dev("no Access-Control-Allow-Origin in the preflight answer")
def test_cors_preflight(endpoint):
    r = h.raw_request(endpoint, None, None, method="OPTIONS", sign=False, content_type=None,
                      headers={"Origin": "http://example.com",
                               "Access-Control-Request-Method": "POST",
                               "Access-Control-Request-Headers": "content-type, x-amz-target, authorization"})
    assert r.status == 200 and r.body == b""
    assert r.headers["access-control-allow-origin"] == "*"
    assert r.headers["access-control-allow-methods"] == "POST"
    assert r.headers["access-control-allow-headers"] == "content-type, x-amz-target, authorization"
    assert int(r.headers["access-control-max-age"]) > 0
    assert "access-control-expose-headers" in r.headers


# Requests with Origin (answers and errors) allow any origin and expose headers; only the
# preflight carries Max-Age / Allow-Methods / Allow-Headers.
@dev("no CORS headers on POST answers")
def test_cors_on_requests(dynamodb_raw, tbl):
    for r in (dynamodb_raw("GetItem", {"TableName": tbl, "Key": {"pk": {"S": "none"}}},
                           headers={"Origin": "http://example.com"}),
              dynamodb_raw("DescribeTable", {"TableName": h.unique_name("missing")},
                           headers={"Origin": "http://example.com"})):
        assert r.headers.get("access-control-allow-origin") == "*", r.headers
        assert "access-control-expose-headers" in r.headers
        for name in ("access-control-max-age", "access-control-allow-methods", "access-control-allow-headers"):
            assert name not in r.headers


# Without Origin no CORS header appears, whatever the method.
def test_no_cors_without_origin(endpoint, dynamodb_raw):
    answers = [dynamodb_raw("ListTables", {}),
               h.raw_request(endpoint, None, None, method="OPTIONS", sign=False, content_type=None),
               h.raw_request(endpoint, None, None, method="GET", sign=False, content_type=None)]
    for r in answers:
        assert not [name for name in CORS if name in r.headers], (r.status, r.headers)


# ---------------------------------------------------------------- health check


# The health check answers GET / only; other paths are client errors (400..405).
@pytest.mark.parametrize("path", ["/abc", "/-", "/index.htm", "/health"])
def test_health_only_at_root(endpoint, path):
    status, _, _ = h.http_get(endpoint, path)
    assert 400 <= status <= 405, status
