"""Shared helpers for the dynamod integration tests (no fixtures here; see conftest.py).

Everything in this file is endpoint-agnostic: it works against dynamod, DynamoDB Local
and the real service.
"""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import time
import urllib.parse
import uuid
import zlib

import boto3
import botocore.auth
import botocore.awsrequest
import botocore.credentials
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

REGION = "us-east-1"
DUMMY_KEY = "AKIDDYNAMODTEST"
DUMMY_SECRET = "dynamod-test-secret"
TABLE_PREFIX = "dynamod_it_"

# The service rewords its bespoke value-validation messages region by region
# (2026-06 .. 2026-08 captures in nubo-db/dynamodb-conformance): the same text is
# either sent bare (legacy) or wrapped as "1 validation error detected: <text>".
ENVELOPE = "1 validation error detected: "


def either_envelope(msg):
    """Accept the legacy bare message and the newer enveloped one."""
    return [msg, ENVELOPE + msg]


def unique_name(tag=""):
    return TABLE_PREFIX + (tag + "_" if tag else "") + uuid.uuid4().hex[:12]


# ---------------------------------------------------------------- clients


def _client(service, endpoint, target, region, key, secret, config):
    """A boto3 client without retries; dummy credentials unless target is aws."""
    kwargs = dict(region_name=region, config=Config(retries={"max_attempts": 0}, **config))
    if endpoint:
        kwargs["endpoint_url"] = endpoint
    if target != "aws" or key:
        kwargs.update(aws_access_key_id=key or DUMMY_KEY, aws_secret_access_key=secret or DUMMY_SECRET)
    return boto3.client(service, **kwargs)


def make_client(endpoint, target="dynamod", region=REGION, key=None, secret=None, **config):
    """boto3 DynamoDB client without retries; dummy credentials unless target is aws."""
    return _client("dynamodb", endpoint, target, region, key, secret, config)


# ---------------------------------------------------------------- errors


def error_of(exc_or_resp):
    """(code, message, http_status) from a botocore ClientError or a RawResponse."""
    if isinstance(exc_or_resp, ClientError):
        err = exc_or_resp.response.get("Error", {})
        status = exc_or_resp.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
        return err.get("Code"), err.get("Message"), status
    body = exc_or_resp.json if isinstance(exc_or_resp.json, dict) else {}
    code = (body.get("__type") or "").split("#")[-1] or None
    msg = body.get("message", body.get("Message"))
    return code, msg, exc_or_resp.status


def check_error(got, code, messages=None, status=400, regex=None):
    """Assert an error's type, HTTP status and exact message.

    messages: one exact string or a list of accepted exact strings (regional wording);
    regex: alternatively a full-match regular expression (for messages that embed
    unordered lists or object hashes). None for both means the text is not asserted
    (only used where the service's text could not be established; see the catalogue).
    """
    got_code, got_msg, got_status = error_of(got)
    assert got_code == code, "error type %r (message %r), expected %r" % (got_code, got_msg, code)
    if status is not None:
        assert got_status == status, "HTTP %r, expected %r" % (got_status, status)
    if messages is not None:
        accepted = [messages] if isinstance(messages, str) else list(messages)
        assert got_msg in accepted, "message %r not in %r" % (got_msg, accepted)
    if regex is not None:
        assert got_msg is not None and re.fullmatch(regex, got_msg, re.S), \
            "message %r does not match %r" % (got_msg, regex)


def expect_error(fn, code, messages=None, status=400, regex=None):
    """Call fn(); it must raise ClientError with the given error."""
    with pytest.raises(ClientError) as info:
        fn()
    check_error(info.value, code, messages, status=status, regex=regex)
    return info.value


def any_order(items):
    """Regex alternation matching the comma-separated list of items in any order."""
    import itertools
    perms = [", ".join(re.escape(x) for x in p) for p in itertools.permutations(items)]
    return "(?:" + "|".join(perms) + ")"


# ---------------------------------------------------------------- raw HTTP


class RawResponse:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = {k.lower(): v for k, v in headers}
        self.body = body
        try:
            self.json = json.loads(body) if body else None
        except ValueError:
            self.json = None

    def __repr__(self):
        return "RawResponse(%d, %r)" % (self.status, self.body[:300])


def raw_request(endpoint, op, body=None, *, headers=None, sign=True, region=REGION,
                key=DUMMY_KEY, secret=DUMMY_SECRET, token=None,
                target_prefix="DynamoDB_20120810.", method="POST", path="/",
                content_type="application/x-amz-json-1.0", sign_time=None, unsigned_lines=()):
    """Send one request and return a RawResponse.

    body: dict/list (JSON-encoded), str or bytes (sent as is), or None (empty body).
    op: operation name for X-Amz-Target, or None for no X-Amz-Target header.
    headers: extra headers; a header given as None is removed after signing.
    sign_time: a datetime to sign with (to forge stale X-Amz-Date), default now.
    unsigned_lines: (name, value) header lines sent after the others, unsigned (a name may repeat).
    """
    if body is None:
        data = b""
    elif isinstance(body, (dict, list)):
        data = json.dumps(body).encode()
    elif isinstance(body, str):
        data = body.encode()
    else:
        data = bytes(body)
    url = urllib.parse.urlsplit(endpoint)
    hdrs = {}
    if content_type is not None:
        hdrs["Content-Type"] = content_type
    if op is not None:
        hdrs["X-Amz-Target"] = target_prefix + op
    removed = set()
    for k, v in (headers or {}).items():
        if v is None:
            removed.add(k.lower())
        else:
            hdrs[k] = v
    full_url = "%s://%s%s" % (url.scheme, url.netloc, path)
    if sign:
        req = botocore.awsrequest.AWSRequest(method=method, url=full_url, data=data, headers=hdrs)
        creds = botocore.credentials.Credentials(key, secret, token)
        signer = botocore.auth.SigV4Auth(creds, "dynamodb", region)
        if sign_time is not None:
            # botocore takes the signing time from get_current_datetime() (new) or
            # datetime.datetime.utcnow() (old, e.g. 1.26); freeze whichever exists briefly.
            import botocore.auth as auth_mod
            if hasattr(auth_mod, "get_current_datetime"):
                real_fn = auth_mod.get_current_datetime
                auth_mod.get_current_datetime = lambda *a, **k: sign_time
                try:
                    signer.add_auth(req)
                finally:
                    auth_mod.get_current_datetime = real_fn
            else:
                real = auth_mod.datetime.datetime

                class Frozen(real):
                    @classmethod
                    def utcnow(cls):
                        return sign_time

                auth_mod.datetime.datetime = Frozen
                try:
                    signer.add_auth(req)
                finally:
                    auth_mod.datetime.datetime = real
        else:
            signer.add_auth(req)
        hdrs = dict(req.headers.items())
    hdrs = {k: v for k, v in hdrs.items() if k.lower() not in removed}
    conn_cls = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
    conn = conn_cls(url.hostname, url.port, timeout=60)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for k, v in list(hdrs.items()) + list(unsigned_lines):
            conn.putheader(k, v)
        if "content-length" not in {k.lower() for k in hdrs}:
            conn.putheader("Content-Length", str(len(data)))
        conn.endheaders()
        if data:
            try:
                conn.send(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server may answer (e.g. 413) before reading the whole body
        resp = conn.getresponse()
        return RawResponse(resp.status, resp.getheaders(), resp.read())
    finally:
        conn.close()


def crc32_of(body):
    return str(zlib.crc32(body) & 0xFFFFFFFF)


# ---------------------------------------------------------------- tables


def wait_active(client, name, timeout=600):
    """Bounded poll until the table and its GSIs are ACTIVE (instant on emulators)."""
    deadline = time.monotonic() + timeout
    delay = 0.05
    while True:
        desc = client.describe_table(TableName=name)["Table"]
        if desc["TableStatus"] == "ACTIVE" and all(
                g.get("IndexStatus") == "ACTIVE" for g in desc.get("GlobalSecondaryIndexes", [])):
            return desc
        if time.monotonic() > deadline:
            raise AssertionError("table %s not ACTIVE after %ss" % (name, timeout))
        time.sleep(delay)
        delay = min(delay * 2, 2.0)


def wait_gone(client, name, timeout=600):
    deadline = time.monotonic() + timeout
    delay = 0.05
    while True:
        try:
            client.describe_table(TableName=name)
        except ClientError as e:
            if e.response["Error"]["Code"] == "ResourceNotFoundException":
                return
            raise
        if time.monotonic() > deadline:
            raise AssertionError("table %s still exists after %ss" % (name, timeout))
        time.sleep(delay)
        delay = min(delay * 2, 2.0)


def drop_table(client, name):
    """Best-effort delete (turns deletion protection off first if needed)."""
    for _ in range(3):
        try:
            client.delete_table(TableName=name)
            return
        except ClientError as e:
            code = e.response["Error"]["Code"]
            msg = e.response["Error"]["Message"] or ""
            if code == "ResourceNotFoundException":
                return
            if "protected against deletion" in msg:
                client.update_table(TableName=name, DeletionProtectionEnabled=False)
                wait_active(client, name)
                continue
            if code == "ResourceInUseException":
                wait_active(client, name)
                continue
            raise


HASH_SCHEMA = dict(
    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
)
RANGE_SCHEMA = dict(
    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                          {"AttributeName": "sk", "AttributeType": "N"}],
)


# ---------------------------------------------------------------- own server


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(endpoint, path="/", timeout=2.0):
    url = urllib.parse.urlsplit(endpoint)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, dict((k.lower(), v) for k, v in resp.getheaders()), resp.read()
    finally:
        conn.close()


def wait_for_import(client, arn, timeout=20):
    """DescribeImport's description once the import is no longer IN_PROGRESS (polled every 50 ms)."""
    deadline = time.monotonic() + timeout
    while True:
        d = client.describe_import(ImportArn=arn)["ImportTableDescription"]
        if d["ImportStatus"] != "IN_PROGRESS":
            return d
        assert time.monotonic() < deadline, "import still IN_PROGRESS after %ss" % timeout
        time.sleep(0.05)


class DynamodProcess:
    """One dynamod child process: start, wait for GET / == 200, stop (SIGTERM) or kill -9."""

    def __init__(self, binary, args=(), data_dir=None, in_memory=False, log_dir=None):
        self.binary = binary
        self.args = list(args)
        self.data_dir = data_dir
        self.in_memory = in_memory
        self.log_dir = log_dir or tempfile.mkdtemp(prefix="dynamod-log-")
        self.proc = None
        self.port = None
        self.log_path = None

    @property
    def endpoint(self):
        return "http://127.0.0.1:%d" % self.port

    def start(self, timeout=10.0):
        if not os.path.exists(self.binary):
            pytest.fail("dynamod binary not found at %s: build it first or pass --endpoint URL" % self.binary)
        self.port = free_port()
        cmd = [self.binary, "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warn"]
        if self.in_memory:
            cmd.append("--in-memory")
        if self.data_dir:
            cmd += ["--data-dir", self.data_dir]
        cmd += self.args
        self.log_path = os.path.join(self.log_dir, "dynamod-%d.log" % self.port)
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()
        deadline = time.monotonic() + timeout
        delay = 0.02
        while True:
            if self.proc.poll() is not None:
                pytest.fail("dynamod exited with %s during start-up: %s\n%s"
                            % (self.proc.returncode, " ".join(cmd), self.log_tail()))
            try:
                if http_get(self.endpoint, timeout=1.0)[0] == 200:
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.kill9()
                pytest.fail("dynamod did not answer GET / within %ss: %s\n%s"
                            % (timeout, " ".join(cmd), self.log_tail()))
            time.sleep(delay)
            delay = min(delay * 2, 0.25)

    def stop(self, timeout=10.0):
        """Clean shutdown: SIGTERM, then wait (SIGKILL only if it hangs)."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=timeout)
            raise AssertionError("dynamod did not exit within %ss of SIGTERM" % timeout)

    def kill9(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def log_tail(self, n=4000):
        try:
            with open(self.log_path, "rb") as f:
                return f.read()[-n:].decode(errors="replace")
        except OSError:
            return ""


# ---------------------------------------------------------------- paging, batches, sizes
# (added for the Query / Scan / UpdateItem / condition suites)


def paginate(call, max_pages=100, **kwargs):
    """Run a Query or Scan (call = client.query / client.scan) to exhaustion.

    Returns the list of raw pages; bounded so that a LastEvaluatedKey which does not
    advance fails the test instead of looping forever.
    """
    pages = []
    request = dict(kwargs)
    for _ in range(max_pages):
        page = call(**request)
        pages.append(page)
        if "LastEvaluatedKey" not in page:
            return pages
        request["ExclusiveStartKey"] = page["LastEvaluatedKey"]
    raise AssertionError("no last page after %d pages" % max_pages)


def page_items(pages):
    """All Items of a list of pages, in order."""
    out = []
    for page in pages:
        out.extend(page.get("Items", []))
    return out


def batch_put(client, table, items):
    """Write items with BatchWriteItem, 25 at a time, retrying unprocessed ones."""
    for i in range(0, len(items), 25):
        request = {table: [{"PutRequest": {"Item": it}} for it in items[i:i + 25]]}
        for _ in range(50):
            resp = client.batch_write_item(RequestItems=request)
            request = resp.get("UnprocessedItems") or {}
            if not request:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("BatchWriteItem left unprocessed items")


def number_size(text):
    """Stored size of a DynamoDB number (see /work/notes/item-size.md section 2)."""
    import decimal
    d = decimal.Decimal(text)
    if d == 0:
        return 1
    sign, digits, exp = d.normalize().as_tuple()
    digits = "".join(map(str, digits)).rstrip("0") or "0"
    sci_exp = exp + len(d.normalize().as_tuple().digits) - 1
    lead = 1 if sci_exp % 2 == 0 else 0
    pairs = -(-(lead + len(digits)) // 2)
    return 1 + pairs + (1 if sign else 0)


def value_size(value):
    (t, v), = value.items()
    if t == "S":
        return len(v.encode())
    if t == "B":
        return len(v)
    if t == "N":
        return number_size(v)
    if t in ("BOOL", "NULL"):
        return 1
    if t == "SS":
        return sum(len(e.encode()) for e in v)
    if t == "BS":
        return sum(len(e) for e in v)
    if t == "NS":
        return sum(number_size(e) for e in v)
    if t == "L":
        return 3 + sum(1 + value_size(e) for e in v)
    if t == "M":
        return 3 + sum(1 + len(k.encode()) + value_size(e) for k, e in v.items())
    raise ValueError(t)


def item_size(item):
    """DynamoDB item size in bytes: attribute names (UTF-8) + value sizes (raw bytes for B)."""
    return sum(len(name.encode()) + value_size(v) for name, v in item.items())


def padded_item(key, size, pad_name="filler"):
    """key (a dict of attribute values) plus one string attribute, exactly `size` bytes."""
    base = item_size(key) + len(pad_name.encode())
    assert size >= base, "size %d below the key's %d bytes" % (size, base)
    item = dict(key)
    item[pad_name] = {"S": "x" * (size - base)}
    assert item_size(item) == size
    return item


def error_item(exc):
    """The Item member of a ConditionalCheckFailedException body (None when absent)."""
    return exc.response.get("Item")


def coral_either(old_path, new_path, value, rule):
    """A Coral constraint error in both wordings seen during the 2026 rollout: the old one
    echoes the value and uses the lowerCamel path (`Value '0' at 'limit'`), the new one drops
    the value and names the member (`Value at 'Limit'`)."""
    return [ENVELOPE + "Value '%s' at '%s' failed to satisfy constraint: %s" % (value, old_path, rule),
            ENVELOPE + "Value at '%s' failed to satisfy constraint: %s" % (new_path, rule)]


def wait_for_count(fn, expected, timeout=120):
    """Poll fn() (returning a number, e.g. the item count of a GSI query) until it equals
    `expected`. GSIs are eventually consistent on the real service; emulators answer at once."""
    deadline = time.monotonic() + timeout
    delay = 0.05
    while True:
        got = fn()
        if got == expected:
            return got
        if time.monotonic() > deadline:
            raise AssertionError("count %r, expected %r after %ss" % (got, expected, timeout))
        time.sleep(delay)
        delay = min(delay * 2, 2.0)


# ---------------------------------------------------------------- DynamoDB Streams
# (added for the Streams / TTL suites; see stream_helpers.py for the readers)


def make_streams_client(endpoint, target="dynamod", region=REGION, key=None, secret=None, **config):
    """boto3 DynamoDB Streams client (target prefix DynamoDBStreams_20120810, signing name
    dynamodb) on the same endpoint; no retries; dummy credentials unless target is aws.

    Against the real service pass endpoint=None: Streams live on streams.dynamodb.<region>."""
    return _client("dynamodbstreams", endpoint if target != "aws" else None, target, region, key, secret, config)
