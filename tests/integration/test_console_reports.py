"""The web console's routes and the reports it draws (dynamod-specific): GET /dynamod/console and
its files, /dynamod/series (units per second and per minute, throttles), /dynamod/hot-keys,
/dynamod/collections; --console off; with --credentials, the reports holding key values answer
signed requests only. These tests start their own dynamod processes (the series start with the
process, so their sums can be checked against the cost report's totals)."""
import json

import pytest

import dynamo_helpers as h
import report_helpers as r
from report_helpers import S, N

pytestmark = pytest.mark.needs_own_server

KEY, SECRET = "AKIDCONSOLETEST00001", "console-test-secret"
LSI_SCHEMA = dict(
    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"},
                          {"AttributeName": "d", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
    LocalSecondaryIndexes=[{"IndexName": "byD", "Projection": {"ProjectionType": "ALL"},
                            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                          {"AttributeName": "d", "KeyType": "RANGE"}]}],
    GlobalSecondaryIndexes=[{"IndexName": "byG", "Projection": {"ProjectionType": "KEYS_ONLY"},
                             "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}],
)


def signed_get(endpoint, path, key=h.DUMMY_KEY, secret=h.DUMMY_SECRET):
    return h.raw_request(endpoint, None, None, method="GET", path=path, content_type=None, key=key, secret=secret)


def series_of(report, table, index=None):
    hits = [s for s in report["series"] if s["table"] == table and s.get("index") == index and s["region"] == h.REGION]
    assert len(hits) == 1, "series %s/%s listed %d times" % (table, index, len(hits))
    return hits[0]["points"]


@pytest.fixture
def server(launch_dynamod):
    return launch_dynamod(args=["--throttle"], in_memory=True)


def load(client):
    r.create_table(client, "Orders", LSI_SCHEMA)
    for i in range(30):
        client.put_item(TableName="Orders", Item={"pk": S("hot" if i < 20 else "cold%d" % i), "sk": S("s%02d" % i),
                                                    "d": S("2026"), "g": S("G%d" % (i % 2)), "pad": S("x" * (50 * i))})
    for _ in range(5):
        client.query(TableName="Orders", KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("hot")})
    client.query(TableName="Orders", IndexName="byG", KeyConditionExpression="g = :g",
                 ExpressionAttributeValues={":g": S("G1")})


# The console's page and files come from the binary, with their types and a digest to revalidate.
def test_console_files(server):
    status, headers, body = r.http_call(server.endpoint, "GET", "/dynamod/console")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert b'<script type="module" src="/dynamod/console/app.js">' in body
    assert "default-src 'self'" in headers["content-security-policy"]
    for name, kind in (("app.js", "text/javascript; charset=utf-8"), ("style.css", "text/css; charset=utf-8")):
        status, headers, _ = r.http_call(server.endpoint, "GET", "/dynamod/console/" + name)
        assert (status, headers["content-type"]) == (200, kind)
        assert headers["etag"].startswith('"') and len(headers["etag"]) == 34
    assert r.http_call(server.endpoint, "GET", "/dynamod/console/nothing.js")[0] == 404
    assert r.http_call(server.endpoint, "GET", "/dynamod/consoles")[0] == 404
    assert r.http_call(server.endpoint, "POST", "/dynamod/console")[0] == 404


def test_console_off(launch_dynamod):
    off = launch_dynamod(args=["--console", "off"], in_memory=True)
    assert r.http_call(off.endpoint, "GET", "/dynamod/console")[0] == 404
    assert r.http_call(off.endpoint, "GET", "/dynamod/console/app.js")[0] == 404


# The series add up to the ledger's totals: every unit of the table and its GSI, by the second
# and by the minute; local index units count in the table's.
def test_series_sum_to_the_cost_report(server):
    client = h.make_client(server.endpoint)
    load(client)
    cost = r.get_cost(server.endpoint)
    for resolution in ("second", "minute"):
        report = r.get_json(server.endpoint, "/dynamod/series?resolution=" + resolution)
        assert report["resolution"] == resolution
        assert report["interval_seconds"] == (1 if resolution == "second" else 60)
        for index in (None, "byG"):
            points = series_of(report, "Orders", index)
            assert points, "no points for %s" % index
            assert [p[0] for p in points] == sorted(p[0] for p in points)
            assert all(p[0] % (report["interval_seconds"] * 1000) == 0 for p in points)
            read, write = r.table_units(cost, "Orders", index=index)
            r.assert_close(sum(p[1] for p in points), read, "read units of %s" % index, rel=1e-5)
            r.assert_close(sum(p[2] for p in points), write, "write units of %s" % index, rel=1e-5)
        # Requests are the table's: 30 puts and 6 queries.
        assert sum(p[3] for p in series_of(report, "Orders")) == 36
    assert r.get_json(server.endpoint, "/dynamod/series")["resolution"] == "second"
    status, _, body = r.http_call(server.endpoint, "GET", "/dynamod/series?resolution=hour")
    assert status == 400 and b"resolution must be second or minute" in body


# A refused request is a throttle in its table's series.
def test_series_count_throttles(server):
    client = h.make_client(server.endpoint)
    r.create_table(client, "Tiny", provisioned=(1, 1))
    raw = r.RawClient(server.endpoint)
    try:
        ok, throttled, _, _ = r.pump(lambda: raw.put("Tiny", {"pk": S("k"), "v": S("x" * 3000)}), 2000, 20)
    finally:
        raw.close()
    assert throttled is not None, "nothing throttled after %d writes" % ok
    points = series_of(r.get_json(server.endpoint, "/dynamod/series"), "Tiny")
    assert sum(p[4] for p in points) == 1
    assert sum(p[3] for p in points) == ok


def test_hot_keys(server):
    load(h.make_client(server.endpoint))
    tables = r.get_json(server.endpoint, "/dynamod/hot-keys")["tables"]
    (orders,) = [t for t in tables if t["table"] == "Orders"]
    top = orders["keys"][0]
    assert top["key"] == {"S": "hot"}
    # 20 puts and 5 queries of the partition (the GSI query's key is no table partition key).
    assert top["requests"] == 25 and top["error"] == 0
    assert [k["units"] for k in orders["keys"]] == sorted((k["units"] for k in orders["keys"]), reverse=True)


# The largest item collections, in bytes, against the limit: the sizes ItemCollectionMetrics reports.
def test_collections(server):
    client = h.make_client(server.endpoint)
    load(client)
    report = r.get_json(server.endpoint, "/dynamod/collections")
    assert report["limit_bytes"] == 10 * 2 ** 30
    (orders,) = [t for t in report["tables"] if t["table"] == "Orders"]
    assert orders["collections"][0]["key"] == {"S": "hot"}
    assert len(orders["collections"]) == 10
    sizes = [c["bytes"] for c in orders["collections"]]
    assert sizes == sorted(sizes, reverse=True)
    answer = client.put_item(TableName="Orders", Item={"pk": S("hot"), "sk": S("s00"), "d": S("2026"), "g": S("G0"),
                                                       "pad": S("")}, ReturnItemCollectionMetrics="SIZE")
    estimate = answer["ItemCollectionMetrics"]["SizeEstimateRangeGB"]
    hot_bytes = r.get_json(server.endpoint, "/dynamod/collections")["tables"][0]["collections"][0]["bytes"]
    assert estimate[0] <= hot_bytes / 2 ** 30 <= estimate[1]


# With --credentials the reports that show key values want a valid signature; the console's
# files do not (they grant nothing: the console signs its own requests).
def test_credentials_guard_console_reports(launch_dynamod, tmp_path):
    creds = tmp_path / "credentials"
    creds.write_text("%s %s\n" % (KEY, SECRET))
    strict = launch_dynamod(args=["--credentials", str(creds)], in_memory=True)
    assert r.http_call(strict.endpoint, "GET", "/dynamod/console")[0] == 200
    for path in ("/dynamod/series", "/dynamod/series?resolution=minute", "/dynamod/hot-keys", "/dynamod/collections"):
        status, _, body = r.http_call(strict.endpoint, "GET", path)
        assert status == 400 and b"MissingAuthenticationToken" in body, (path, status, body)
        wrong = signed_get(strict.endpoint, path, key=KEY, secret="wrong")
        assert wrong.status == 400 and "InvalidSignatureException" in wrong.json["__type"], wrong
        good = signed_get(strict.endpoint, path, key=KEY, secret=SECRET)
        assert good.status == 200, good
        assert isinstance(json.loads(good.body), dict)
