"""Helpers for dynamod's own endpoints and for throttling tests (test_cost_reports.py,
test_throttling.py). No fixtures here (see conftest.py).

dynamod-specific: GET /dynamod/metrics (Prometheus text), GET /dynamod/cost, GET /dynamod/patterns,
POST /dynamod/cost/reset (none needs SigV4 without --credentials), the cost arithmetic at us-east-1's list prices, and a
keep-alive SigV4 client for loops that must send many requests quickly and read raw error bodies
(ThrottlingReasons is not exposed by every botocore version).
"""
import datetime
import http.client
import json
import math
import re
import time
import urllib.error
import urllib.parse
import urllib.request

import botocore.auth
import botocore.awsrequest
import botocore.credentials

import dynamo_helpers as h

S = lambda v: {"S": v}  # noqa: E731
N = lambda v: {"N": str(v)}  # noqa: E731
B = lambda v: {"B": v}  # noqa: E731

# ---------------------------------------------------------------- prices (us-east-1, Standard class)

HOURS_PER_MONTH = 730.0
SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600
READ_REQUEST_UNIT = 0.125e-6    # USD per on-demand read request unit
WRITE_REQUEST_UNIT = 0.625e-6   # USD per on-demand write request unit
RCU_HOUR = 0.00013              # USD per provisioned RCU-hour
WCU_HOUR = 0.00065              # USD per provisioned WCU-hour
STORAGE_GB_MONTH = 0.25         # Standard
STORAGE_IA_GB_MONTH = 0.10      # Standard-IA
# rcu_hour / (3600 * read unit) == wcu_hour / (3600 * write unit) == 1040 / 3600
BREAK_EVEN = 1040 / 3600        # 0.28889
ITEM_OVERHEAD = 100             # billable bytes per item or index entry
GB_CHOICES = (2 ** 30, 1e9)     # the spec does not say which "GB" storage prices use


def on_demand_monthly(read_units, write_units, window_seconds, rru=READ_REQUEST_UNIT, wru=WRITE_REQUEST_UNIT):
    """The spec's formula: (read_units*rru + write_units*wru) / window_seconds * 730 * 3600."""
    return (read_units * rru + write_units * wru) / window_seconds * SECONDS_PER_MONTH


def close(got, expected, rel=1e-6, abs_tol=1e-12):
    return math.isclose(got, expected, rel_tol=rel, abs_tol=abs_tol)


def assert_close(got, expected, what="", rel=1e-6, abs_tol=1e-12):
    assert isinstance(got, (int, float)) and not isinstance(got, bool), "%s: %r is not a number" % (what, got)
    assert close(got, expected, rel, abs_tol), "%s: %r, expected %r" % (what, got, expected)


def storage_price_ok(usd, billable_bytes, price_per_gb):
    """usd == billable_bytes / GB * price for one of the two readings of GB."""
    return any(close(usd, billable_bytes / gb * price_per_gb, rel=1e-6, abs_tol=1e-15) for gb in GB_CHOICES)


# ---------------------------------------------------------------- /dynamod endpoints


def http_call(endpoint, method, path, timeout=15):
    """(status, headers (lower-case names), body bytes) of one plain HTTP request (urllib)."""
    req = urllib.request.Request(endpoint.rstrip("/") + path, method=method,
                                 data=b"" if method == "POST" else None)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


def get_json(endpoint, path):
    status, headers, body = http_call(endpoint, "GET", path)
    assert status == 200, "GET %s: HTTP %s %r" % (path, status, body[:500])
    try:
        return json.loads(body)
    except ValueError:
        raise AssertionError("GET %s: not JSON: %r" % (path, body[:500]))


def get_cost(endpoint):
    return get_json(endpoint, "/dynamod/cost")


def get_patterns(endpoint):
    return get_json(endpoint, "/dynamod/patterns")


def post_reset(endpoint):
    status, _, body = http_call(endpoint, "POST", "/dynamod/cost/reset")
    assert status == 200, "POST /dynamod/cost/reset: HTTP %s %r" % (status, body[:500])


def get_metrics(endpoint):
    """(content type, parsed samples) of GET /dynamod/metrics."""
    status, headers, body = http_call(endpoint, "GET", "/dynamod/metrics")
    assert status == 200, "GET /dynamod/metrics: HTTP %s %r" % (status, body[:500])
    return headers.get("content-type", ""), parse_metrics(body.decode("utf-8"))


def parse_iso8601(text):
    """Seconds since the epoch of an ISO 8601 UTC time ('2026-01-02T03:04:05Z', fractions allowed)."""
    assert isinstance(text, str) and re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)", text), "not ISO 8601: %r" % (text,)
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


# ---------------------------------------------------------------- Prometheus text format

_NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
_VALUE = r"[-+]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|Inf|inf|NaN)"
SAMPLE_RE = re.compile(r"(?P<name>%s)(?:\{(?P<labels>.*)\})? (?P<value>%s)(?: -?[0-9]+)?" % (_NAME, _VALUE))
LABEL_RE = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"')
COMMENT_RE = re.compile(r"# (?:HELP (%s) .*|TYPE (%s) (counter|gauge|histogram|summary|untyped))" % (_NAME, _NAME))


class Metrics:
    def __init__(self, samples, types):
        self.samples = samples  # [(name, {labels}, value)]
        self.types = types      # name -> declared type

    def find(self, name, **labels):
        """Samples named `name` whose labels include `labels`."""
        return [(n, l, v) for n, l, v in self.samples
                if n == name and all(l.get(k) == str(x) for k, x in labels.items())]

    def value(self, name, **labels):
        """The value of the one sample with exactly these labels (None when absent)."""
        hits = [v for n, l, v in self.samples if n == name and l == {k: str(x) for k, x in labels.items()}]
        assert len(hits) <= 1, "%s%r appears %d times" % (name, labels, len(hits))
        return hits[0] if hits else None


def _unescape(v):
    return v.replace("\\n", "\n").replace('\\"', '"').replace("\\\\", "\\")


def parse_metrics(text):
    """Parse Prometheus text format 0.0.4 strictly: every line is a HELP/TYPE comment or a sample."""
    samples, types, seen = [], {}, set()
    for line in text.split("\n"):
        if line == "":
            continue
        if line.startswith("#"):
            m = COMMENT_RE.fullmatch(line)
            assert m, "malformed comment line %r" % line
            if m.group(2):
                assert m.group(2) not in types, "TYPE of %s declared twice" % m.group(2)
                types[m.group(2)] = m.group(3)
            continue
        m = SAMPLE_RE.fullmatch(line)
        assert m, "malformed sample line %r" % line
        labels = {}
        raw = m.group("labels")
        if raw:
            pos = 0
            while pos < len(raw):
                lm = LABEL_RE.match(raw, pos)
                assert lm, "malformed labels in %r" % line
                assert lm.group(1) not in labels, "label %s twice in %r" % (lm.group(1), line)
                labels[lm.group(1)] = _unescape(lm.group(2))
                pos = lm.end()
                if pos < len(raw):
                    assert raw[pos] == ",", "malformed labels in %r" % line
                    pos += 1
        series = (m.group("name"), tuple(sorted(labels.items())))
        assert series not in seen, "series repeated: %r" % line
        seen.add(series)
        samples.append((m.group("name"), labels, float(m.group("value"))))
    return Metrics(samples, types)


# ---------------------------------------------------------------- cost report lookups


def cost_entry(report, table, region=h.REGION):
    hits = [t for t in report["tables"] if t.get("table") == table and t.get("region") == region]
    assert len(hits) == 1, "table %s/%s appears %d times in the cost report: %r" % (
        region, table, len(hits), [(t.get("region"), t.get("table")) for t in report["tables"]])
    return hits[0]


def cost_line(entry, index=None):
    """The table's line (index None) or an index's line of one cost-report table entry."""
    hits = [l for l in entry["lines"] if l.get("index") == index]
    assert len(hits) == 1, "line %r appears %d times in %r" % (index, len(hits), entry["lines"])
    return hits[0]


def table_units(report, table, region=h.REGION, index=None):
    """(read_units, write_units) of a table's (or GSI's) line; (0, 0) if the table is not listed."""
    hits = [t for t in report["tables"] if t.get("table") == table and t.get("region") == region]
    if not hits:
        return (0.0, 0.0)
    line = cost_line(hits[0], index)
    return (line["read_units"], line["write_units"])


def find_pattern(report, pattern, region=h.REGION):
    hits = [p for p in report["patterns"] if p.get("pattern") == pattern and p.get("region") == region]
    assert len(hits) <= 1, "pattern %r listed %d times" % (pattern, len(hits))
    return hits[0] if hits else None


def eventually(fn, ok, timeout=3.0, what="condition"):
    """Poll fn() until ok(result) (bounded); return the last result."""
    deadline = time.monotonic() + timeout
    while True:
        got = fn()
        if ok(got) or time.monotonic() > deadline:
            return got
        time.sleep(0.05)


# ---------------------------------------------------------------- throttling

PTEE = "ProvisionedThroughputExceededException"
THROTTLING = "ThrottlingException"
TABLE_MSG = ("The level of configured provisioned throughput for the table was exceeded. "
             "Consider increasing your provisioning level with the UpdateTable API.")
INDEX_WRITE_MSG = ("The level of configured provisioned throughput for one or more global secondary indexes "
                   "of the table was exceeded. Consider increasing your provisioning level for the "
                   "under-provisioned global secondary indexes with the UpdateTable API")
ON_DEMAND_MSG = ("Throughput exceeds the current capacity of your table or index. DynamoDB is automatically "
                 "scaling your table or index so please try again shortly. If exceptions persist, check if you "
                 "have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
                 "bp-partition-key-design.html")


class RawClient:
    """SigV4-signed DynamoDB requests over one keep-alive connection; answers are RawResponses."""

    def __init__(self, endpoint, region=h.REGION):
        self.endpoint = endpoint.rstrip("/")
        url = urllib.parse.urlsplit(self.endpoint)
        self.host, self.port = url.hostname, url.port
        self.region = region
        self.creds = botocore.credentials.Credentials(h.DUMMY_KEY, h.DUMMY_SECRET)
        self.conn = None

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def call(self, op, body):
        data = json.dumps(body).encode()
        req = botocore.awsrequest.AWSRequest(
            method="POST", url=self.endpoint + "/", data=data,
            headers={"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op})
        botocore.auth.SigV4Auth(self.creds, "dynamodb", self.region).add_auth(req)
        headers = dict(req.headers.items())
        reused = self.conn is not None
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
            self.conn.request("POST", "/", body=data, headers=headers)
            resp = self.conn.getresponse()
            out = h.RawResponse(resp.status, resp.getheaders(), resp.read())
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            self.close()
            if not reused:
                raise
            # The server closed an idle keep-alive connection before reading this request: resend once.
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
            self.conn.request("POST", "/", body=data, headers=headers)
            resp = self.conn.getresponse()
            out = h.RawResponse(resp.status, resp.getheaders(), resp.read())
        if out.headers.get("connection", "").lower() == "close":
            self.close()
        return out

    def put(self, table, item, **extra):
        return self.call("PutItem", dict({"TableName": table, "Item": item}, **extra))

    def get(self, table, key, **extra):
        return self.call("GetItem", dict({"TableName": table, "Key": key}, **extra))


def error_type(raw):
    """The exception name of a RawResponse ('' for a success)."""
    if raw.status == 200:
        return ""
    body = raw.json if isinstance(raw.json, dict) else {}
    return (body.get("__type") or "").split("#")[-1]


def is_throttle(raw):
    return raw.status == 400 and error_type(raw) in (PTEE, THROTTLING)


def check_throttle(raw, code, message, reason, resource):
    """A throttled answer: HTTP 400, the exception, its exact message, and one throttling reason
    (member ThrottlingReasons for ProvisionedThroughputExceededException, throttlingReasons for
    ThrottlingException)."""
    got_code, got_msg, status = h.error_of(raw)
    assert (status, got_code) == (400, code), "HTTP %s %s: %r" % (status, got_code, raw)
    assert got_msg == message, "message %r, expected %r" % (got_msg, message)
    member = "throttlingReasons" if code == THROTTLING else "ThrottlingReasons"
    other = "ThrottlingReasons" if code == THROTTLING else "throttlingReasons"
    assert member in raw.json, "no %s member in %r" % (member, raw.json)
    assert other not in raw.json, "unexpected %s member in %r" % (other, raw.json)
    assert raw.json[member] == [{"reason": reason, "resource": resource}], raw.json[member]


def pump(send, limit, deadline_s):
    """Call send() (-> RawResponse) until an answer is a throttle, at most `limit` times and for
    at most `deadline_s` seconds. Any answer that is neither a success nor a throttle fails.

    Returns (successes before the throttle, the throttled RawResponse or None, elapsed seconds,
    wall-clock start).
    """
    start_wall = time.time()
    start = time.monotonic()
    ok = 0
    for _ in range(limit):
        raw = send()
        if raw.status == 200:
            ok += 1
        elif is_throttle(raw):
            return ok, raw, time.monotonic() - start, start_wall
        else:
            raise AssertionError("unexpected answer after %d successes: %r" % (ok, raw))
        if time.monotonic() - start > deadline_s:
            break
    return ok, None, time.monotonic() - start, start_wall


def create_table(client, name, schema=h.HASH_SCHEMA, provisioned=None, **extra):
    """CreateTable and wait; provisioned=(rcu, wcu) for PROVISIONED, None for PAY_PER_REQUEST."""
    params = dict(schema, TableName=name)
    if provisioned is None:
        params["BillingMode"] = "PAY_PER_REQUEST"
    else:
        params["BillingMode"] = "PROVISIONED"
        params["ProvisionedThroughput"] = {"ReadCapacityUnits": provisioned[0], "WriteCapacityUnits": provisioned[1]}
    params.update(extra)
    client.create_table(**params)
    return h.wait_active(client, name)
