"""Helpers for the DynamoDB Streams and TTL suites (test_streams.py, test_ttl.py).

Written for the real service as well as emulators: streams may show ENABLING for a few
seconds, records reach the stream asynchronously, a table may have several shards, and
only the records of ONE item are ordered (they always land in the same shard).  Every wait
here is a bounded poll; emulators answer at once, so the polls end on the first round.
See /work/notes/errors-streams-ttl.md.
"""
import re
import time

import dynamo_helpers as h

VIEW_TYPES = ["KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"]
INVALID = "One or more parameter values were invalid: "
TTL_IDENTITY = {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}
LABEL_RE = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}"


def stream_spec(view_type):
    return {"StreamEnabled": True, "StreamViewType": view_type}


def poll(fn, timeout=60, what="condition"):
    """Call fn() until it returns a truthy value; bounded, short growing sleeps."""
    deadline = time.monotonic() + timeout
    delay = 0.02
    while True:
        got = fn()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError("%s not reached within %ss" % (what, timeout))
        time.sleep(delay)
        delay = min(delay * 2, 1.0)


def wait_stream_status(streams, arn, status="ENABLED", timeout=120):
    """Bounded poll until DescribeStream says `status` (the service passes ENABLING/DISABLING)."""
    return poll(lambda: (lambda d: d if d["StreamStatus"] == status else None)(
        streams.describe_stream(StreamArn=arn)["StreamDescription"]), timeout, "stream status " + status)


def create_stream_table(dynamodb, streams, factory, view_type="NEW_AND_OLD_IMAGES", kind="hash", **overrides):
    """Create a table (through the `table`/`module_tables` factory) with a stream; wait until
    the table is ACTIVE and the stream ENABLED.  Returns (table name, stream ARN)."""
    overrides.setdefault("StreamSpecification", stream_spec(view_type))
    name = factory(kind, **overrides)
    arn = dynamodb.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    wait_stream_status(streams, arn, "ENABLED")
    return name, arn


def list_shards(streams, arn, limit=None):
    """Every shard of a stream, following LastEvaluatedShardId (bounded)."""
    shards, kw = [], {"StreamArn": arn}
    if limit:
        kw["Limit"] = limit
    for _ in range(1000):
        desc = streams.describe_stream(**kw)["StreamDescription"]
        shards.extend(desc["Shards"])
        if not desc.get("LastEvaluatedShardId"):
            return shards
        kw["ExclusiveStartShardId"] = desc["LastEvaluatedShardId"]
    raise AssertionError("DescribeStream paging did not end")


def key_of(record):
    """A hashable form of a record's Keys."""
    return tuple(sorted((k, tuple(sorted(v.items()))) for k, v in record["dynamodb"]["Keys"].items()))


def item_key(**attrs):
    """key_of() for a key given as attribute values: item_key(pk={"S": "a"}, sk={"N": "1"})."""
    return tuple(sorted((k, tuple(sorted(v.items()))) for k, v in attrs.items()))


class StreamReader:
    """Reads a whole stream from TRIM_HORIZON across all its shards, remembering where each
    shard's reading stopped, so that later reads only see new records."""

    def __init__(self, streams, arn, iterator_type="TRIM_HORIZON", limit=None):
        self.streams, self.arn, self.limit = streams, arn, limit
        self.records = []          # all records read so far, shard after shard
        self.by_shard = {}         # shard id -> its records in order
        self.iterators = {}        # shard id -> next iterator (None: closed and read to the end)
        self.iterator_type = iterator_type
        self.refresh_shards()

    def refresh_shards(self):
        for shard in list_shards(self.streams, self.arn):
            sid = shard["ShardId"]
            if sid not in self.iterators:
                self.by_shard[sid] = []
                self.iterators[sid] = self.streams.get_shard_iterator(
                    StreamArn=self.arn, ShardId=sid, ShardIteratorType=self.iterator_type)["ShardIterator"]

    def read_available(self, max_calls_per_shard=50):
        """One pass: every shard until it returns an empty page (or is closed).  Returns the new records."""
        new = []
        for sid, it in list(self.iterators.items()):
            for _ in range(max_calls_per_shard):
                if it is None:
                    break
                kw = {"ShardIterator": it}
                if self.limit:
                    kw["Limit"] = self.limit
                resp = self.streams.get_records(**kw)
                recs = resp["Records"]
                self.by_shard[sid].extend(recs)
                new.extend(recs)
                it = resp.get("NextShardIterator")
                if not recs:
                    break
            self.iterators[sid] = it
        self.records.extend(new)
        return new

    def read_until(self, predicate, timeout=60):
        """Poll until predicate(all records) is true; returns all records read."""
        def step():
            self.read_available()
            if predicate(self.records):
                return True
            self.refresh_shards()
            return False
        poll(step, timeout, "stream records")
        return self.records

    def read_count(self, n, timeout=60):
        return self.read_until(lambda recs: len(recs) >= n, timeout)

    def for_key(self, key):
        return [r for r in self.records if key_of(r) == key]

    def read_until_key(self, key, n, timeout=60):
        """Records of one item (in order) once at least n of them were read."""
        self.read_until(lambda recs: sum(1 for r in recs if key_of(r) == key) >= n, timeout)
        return self.for_key(key)


def images_size(record):
    """SizeBytes the service reports: item size of Keys + NewImage + OldImage (whichever the
    record carries), computed with the item-size rules (names + values)."""
    d = record["dynamodb"]
    return sum(h.item_size(d[part]) for part in ("Keys", "NewImage", "OldImage") if part in d)


def check_record_envelope(record, view_type):
    """Fields every stream record has (values the service pins; region checked elsewhere)."""
    assert record["eventSource"] == "aws:dynamodb"
    assert record["eventVersion"] == "1.1"
    assert record["eventName"] in ("INSERT", "MODIFY", "REMOVE")
    assert isinstance(record["eventID"], str) and record["eventID"]
    assert isinstance(record.get("awsRegion"), str) and record["awsRegion"]
    d = record["dynamodb"]
    assert d["StreamViewType"] == view_type
    assert d["SequenceNumber"].isdecimal() and 21 <= len(d["SequenceNumber"]) <= 40, d["SequenceNumber"]
    assert d["SizeBytes"] == images_size(record), (d["SizeBytes"], images_size(record))
    assert "ApproximateCreationDateTime" in d
    assert "userIdentity" not in record


def expected_images(view_type, event, old, new):
    """The image members a record of `event` carries for `view_type` (old/new: full items)."""
    out = {}
    if view_type in ("NEW_IMAGE", "NEW_AND_OLD_IMAGES") and event != "REMOVE":
        out["NewImage"] = new
    if view_type in ("OLD_IMAGE", "NEW_AND_OLD_IMAGES") and event != "INSERT":
        out["OldImage"] = old
    return out


def record_images(record):
    d = record["dynamodb"]
    return {k: d[k] for k in ("NewImage", "OldImage") if k in d}


def seq_ints(records):
    return [int(r["dynamodb"]["SequenceNumber"]) for r in records]


def strictly_increasing(values):
    return all(a < b for a, b in zip(values, values[1:]))


def stream_arn_re(table_name, region=r"[a-z0-9-]+"):
    return r"arn:aws:dynamodb:%s:\d{12}:table/%s/stream/(%s)" % (region, re.escape(table_name), LABEL_RE)
