"""dynamod's throughput model, opt-in with --throttle: token buckets for PROVISIONED tables and
GSIs (refill = provisioned units per second, burst = 300 seconds of capacity, starting full; a
request may start while its bucket has credit and is charged afterwards), the per-partition-key
limits (1000 write units / 3000 read units per second, both billing modes), UpdateTable taking
effect at once, partial throttling of batches, throttled transactions, and what the ledger
charges for throttled requests (nothing). Without --throttle nothing is ever throttled.

dynamod-only (the service's throttling cannot be provoked reproducibly, and these tests depend on
dynamod's documented model); each test starts its own dynamod. Loops are bounded in count and
time; no test sleeps for long. Throttled answers are read raw (report_helpers.RawClient, one
keep-alive connection) to see the exact body, ThrottlingReasons included.
"""
import itertools
import time
from types import SimpleNamespace

import boto3
import pytest
from botocore.exceptions import ClientError

import dynamo_helpers as h
import report_helpers as rh
from batch_txn_helpers import cancel_message, expect_cancelled
from index_helpers import ad, gsi, ks
from partiql_helpers import dynamod_only
from report_helpers import S

pytestmark = pytest.mark.needs_own_server

KB = 1024
TEN_KB = 10 * KB - 100      # 10 write units
TWO_UNITS = 1500            # 2 write units
BIG = 400 * KB - 200        # 400 write units; 100 strongly / 50 eventually consistent read units


@pytest.fixture(autouse=True)
def _dynamod_only(target):
    dynamod_only(target, "throttling is dynamod's opt-in --throttle model")


def own(server):
    raw = rh.RawClient(server.endpoint)
    return SimpleNamespace(server=server, endpoint=server.endpoint, client=h.make_client(server.endpoint), raw=raw)


@pytest.fixture
def throttled(launch_dynamod):
    """A private dynamod started with --throttle."""
    t = own(launch_dynamod(args=["--throttle"], in_memory=True))
    yield t
    t.raw.close()


@pytest.fixture
def unthrottled(launch_dynamod):
    """A private dynamod started without --throttle."""
    t = own(launch_dynamod(in_memory=True))
    yield t
    t.raw.close()


def default_retry_client(endpoint):
    """boto3 with its default retry configuration (nothing overridden)."""
    return boto3.client("dynamodb", region_name=h.REGION, endpoint_url=endpoint,
                        aws_access_key_id=h.DUMMY_KEY, aws_secret_access_key=h.DUMMY_SECRET)


def small_puts(t, table, prefix="k", **extra_attrs):
    """send() for rh.pump: one-unit PutItems of new keys."""
    counter = itertools.count()

    def send():
        item = {"pk": S("%s%06d" % (prefix, next(counter)))}
        for name, fmt in extra_attrs.items():
            item[name] = S(fmt % item["pk"]["S"])
        return t.raw.put(table, item)
    return send


def exhaust(t, table, burst, rate, **extra_attrs):
    """Write one-unit items until the first throttle; the number accepted must be the burst
    (plus what refilled meanwhile). Returns (accepted, throttled RawResponse)."""
    ok, raw, elapsed, _ = rh.pump(small_puts(t, table, **extra_attrs), limit=int(burst * 1.5) + 200,
                                  deadline_s=15)
    assert raw is not None, "no throttle after %d one-unit writes in %.1fs" % (ok, elapsed)
    assert burst <= ok <= burst + rate * elapsed + 3, \
        "%d writes accepted in %.2fs; expected %d + %.1f/s" % (ok, elapsed, burst, rate)
    return ok, raw


def go_into_debt(t, table, item, timeout=5.0):
    """After a throttle: retry a two-unit write every 20 ms until it is accepted (the bucket just
    regained a little credit), leaving the bucket about 1.9 units in debt. Returns the number of
    throttled attempts."""
    assert h.item_size(item) == TWO_UNITS
    deadline = time.monotonic() + timeout
    refused = 0
    while True:
        raw = t.raw.put(table, item)
        if raw.status == 200:
            return refused
        assert rh.is_throttle(raw), raw
        refused += 1
        assert time.monotonic() < deadline, "no credit after %.1fs" % timeout
        time.sleep(0.02)


def units_of(t, table, index=None, expect=None):
    """(read_units, write_units) of a table or GSI line in the cost report; waits briefly for
    `expect` (the ledger is read by another thread)."""
    report = rh.eventually(lambda: rh.get_cost(t.endpoint),
                           lambda r: expect is None or rh.table_units(r, table, index=index) == expect)
    return rh.table_units(report, table, index=index)


def metric(t, name, **labels):
    _, metrics = rh.get_metrics(t.endpoint)
    return metrics.value(name, **labels) or 0


# ---------------------------------------------------------------- without --throttle


# A 1-WCU table takes thousands of writes, and one partition key far more than 1000 units in a
# second: nothing is throttled unless --throttle is given.
def test_nothing_throttled_without_flag(unthrottled):
    t = unthrottled
    rh.create_table(t.client, "Tiny", provisioned=(1, 1))
    send = small_puts(t, "Tiny")
    for i in range(1200):
        raw = send()
        assert raw.status == 200, "write %d: %r" % (i, raw)
    hot = h.padded_item({"pk": S("hot")}, TEN_KB)
    for i in range(150):
        raw = t.raw.put("Tiny", hot)
        assert raw.status == 200, "hot write %d: %r" % (i, raw)
    assert units_of(t, "Tiny", expect=(0.0, 1200.0 + 1500.0)) == (0.0, 2700.0)
    assert metric(t, "dynamod_errors_total", operation="PutItem", error=rh.PTEE) == 0


# ---------------------------------------------------------------- provisioned tables


# A 5-WCU table starts with 300 s of credit (1500 units): about 1500 one-unit writes in a quick
# burst, then ProvisionedThroughputExceededException with the table's reason. boto3 with its
# default retries gets through once credit refills (5 units/s). Throttled requests are not
# charged, and the metrics count them as errors.
def test_provisioned_burst_then_throttle(throttled):
    t = throttled
    arn = rh.create_table(t.client, "Burst", provisioned=(5, 5))["TableArn"]
    ok, raw = exhaust(t, "Burst", burst=1500, rate=5)
    rh.check_throttle(raw, rh.PTEE, rh.TABLE_MSG, "TableWriteProvisionedThroughputExceeded", arn)
    refused = 1 + go_into_debt(t, "Burst", h.padded_item({"pk": S("two")}, TWO_UNITS))

    # About 0.38 s of debt: a client without retries sees the exception ...
    h.expect_error(lambda: t.client.put_item(TableName="Burst", Item={"pk": S("no-retry")}), rh.PTEE, rh.TABLE_MSG)
    refused += 1
    # ... and boto3's default retries wait it out.
    resp = default_retry_client(t.endpoint).put_item(TableName="Burst", Item={"pk": S("retried")})
    retries = resp["ResponseMetadata"]["RetryAttempts"]
    assert retries >= 1, resp["ResponseMetadata"]
    refused += retries
    assert "Item" in t.client.get_item(TableName="Burst", Key={"pk": S("retried")})

    assert units_of(t, "Burst", expect=(0.5, ok + 2.0 + 1.0)) == (0.5, ok + 2.0 + 1.0)
    accepted = ok + 1 + 1
    assert rh.eventually(lambda: metric(t, "dynamod_requests_total", operation="PutItem"),
                         lambda n: n == accepted + refused) == accepted + refused
    assert metric(t, "dynamod_errors_total", operation="PutItem", error=rh.PTEE) == refused


# Reads have their own bucket: a 1-RCU table serves 300 units (three 400 KB strongly consistent
# reads and the one that starts on the last credit), then throttles reads (and not writes).
def test_provisioned_read_bucket(throttled):
    t = throttled
    arn = rh.create_table(t.client, "Reads", provisioned=(1, 10))["TableArn"]
    big = h.padded_item({"pk": S("big")}, BIG)
    assert t.raw.put("Reads", big).status == 200
    ok, raw, elapsed, _ = rh.pump(lambda: t.raw.get("Reads", {"pk": S("big")}, ConsistentRead=True),
                                  limit=20, deadline_s=10)
    assert raw is not None, "no read throttle after %d reads" % ok
    assert ok in (3, 4), ok
    rh.check_throttle(raw, rh.PTEE, rh.TABLE_MSG, "TableReadProvisionedThroughputExceeded", arn)
    assert t.raw.put("Reads", {"pk": S("small")}).status == 200
    assert units_of(t, "Reads", expect=(ok * 100.0, 401.0)) == (ok * 100.0, 401.0)


# A base-table write needs credit in every GSI's write bucket: a 1-WCU GSI (300 units of burst)
# throttles writes to a 1000-WCU table, even writes of items the GSI would not hold; reads go on.
def test_gsi_write_bucket_throttles_base_writes(throttled):
    t = throttled
    arn = rh.create_table(t.client, "WithGsi", dict(KeySchema=ks(("pk", "HASH")), AttributeDefinitions=ad(("pk", "S"), ("g", "S"))),
                          provisioned=(1000, 1000), GlobalSecondaryIndexes=[gsi("ByG", "g", throughput=(1000, 1))])["TableArn"]
    ok, raw = exhaust(t, "WithGsi", burst=300, rate=1, g="G#%s")
    rh.check_throttle(raw, rh.PTEE, rh.INDEX_WRITE_MSG, "IndexWriteProvisionedThroughputExceeded", arn + "/index/ByG")
    go_into_debt(t, "WithGsi", h.padded_item({"pk": S("two"), "g": S("G#two")}, TWO_UNITS))
    # About 1.9 s of debt in the GSI's bucket: an item without g is refused as well.
    raw = t.raw.put("WithGsi", {"pk": S("not-indexed")})
    rh.check_throttle(raw, rh.PTEE, rh.INDEX_WRITE_MSG, "IndexWriteProvisionedThroughputExceeded", arn + "/index/ByG")
    assert t.raw.get("WithGsi", {"pk": S("k000000")}, ConsistentRead=True).status == 200
    assert units_of(t, "WithGsi", expect=(1.0, ok + 2.0)) == (1.0, ok + 2.0)
    assert units_of(t, "WithGsi", index="ByG") == (0.0, ok + 2.0)


# GSI reads have their own bucket too: a 1-RCU GSI serves 300 read units, then Query on it is
# throttled with the index as the resource, while the table still serves reads.
def test_gsi_read_bucket(throttled):
    t = throttled
    arn = rh.create_table(t.client, "GsiReads", dict(KeySchema=ks(("pk", "HASH")), AttributeDefinitions=ad(("pk", "S"), ("g", "S"))),
                          provisioned=(10, 10), GlobalSecondaryIndexes=[gsi("ByG", "g", throughput=(1, 10))])["TableArn"]
    assert t.raw.put("GsiReads", h.padded_item({"pk": S("big"), "g": S("x")}, BIG)).status == 200
    query = {"TableName": "GsiReads", "IndexName": "ByG", "KeyConditionExpression": "g = :g",
             "ExpressionAttributeValues": {":g": S("x")}}
    ok, raw, _, _ = rh.pump(lambda: t.raw.call("Query", query), limit=30, deadline_s=10)
    assert raw is not None, "no throttle after %d GSI queries of 50 units" % ok
    assert ok in (6, 7), ok
    code, _, status = h.error_of(raw)
    assert (status, code) == (400, rh.PTEE), raw
    assert raw.json.get("ThrottlingReasons") == [{"reason": "IndexReadProvisionedThroughputExceeded",
                                                  "resource": arn + "/index/ByG"}], raw.json
    assert t.raw.get("GsiReads", {"pk": S("big")}).status == 200
    assert units_of(t, "GsiReads", index="ByG", expect=(ok * 50.0, 400.0)) == (ok * 50.0, 400.0)


# UpdateTable to more throughput applies at once: a table deep in debt accepts writes right after.
def test_update_table_raises_throughput_at_once(throttled):
    t = throttled
    rh.create_table(t.client, "Grow", provisioned=(1, 1))
    exhaust(t, "Grow", burst=300, rate=1)
    go_into_debt(t, "Grow", h.padded_item({"pk": S("two")}, TWO_UNITS))
    assert rh.is_throttle(t.raw.put("Grow", {"pk": S("still-throttled")}))
    t.client.update_table(TableName="Grow", ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 10000})
    raw = t.raw.put("Grow", {"pk": S("after-update")})
    assert raw.status == 200, raw
    send = small_puts(t, "Grow", prefix="more")
    for i in range(100):
        raw = send()
        assert raw.status == 200, "write %d after the update: %r" % (i, raw)
    desc = h.wait_active(t.client, "Grow")
    assert desc["ProvisionedThroughput"]["WriteCapacityUnits"] == 10000


# ---------------------------------------------------------------- hot partition keys


def hammer_hot_key(t, table, limit=1000, deadline_s=6):
    """10-unit writes of one key until the first throttle. At most 100 of them (1000 units) fit in
    one second of the server's clock, and at least 100 must fit in the second that throttles."""
    hot = h.padded_item({"pk": S("hot")}, TEN_KB)
    ok, raw, elapsed, _ = rh.pump(lambda: t.raw.put(table, hot), limit=limit, deadline_s=deadline_s)
    assert raw is not None, "no throttle after %d writes of 10 units to one key in %.1fs" % (ok, elapsed)
    assert 100 <= ok <= 100 * (int(elapsed) + 2), (ok, elapsed)
    return ok, raw


# One partition key: at most 1000 write units per second, whatever the table's provisioning;
# on a PROVISIONED table the answer is ProvisionedThroughputExceededException with the table's
# message and reason TableWriteKeyRangeThroughputExceeded. Other keys are still served.
def test_hot_key_writes_provisioned(throttled):
    t = throttled
    arn = rh.create_table(t.client, "HotProv", provisioned=(10000, 10000))["TableArn"]
    ok, raw = hammer_hot_key(t, "HotProv")
    cold = t.raw.put("HotProv", h.padded_item({"pk": S("cold")}, TEN_KB))
    assert cold.status == 200, cold
    rh.check_throttle(raw, rh.PTEE, rh.TABLE_MSG, "TableWriteKeyRangeThroughputExceeded", arn)
    assert units_of(t, "HotProv", expect=(0.0, ok * 10.0 + 10.0)) == (0.0, ok * 10.0 + 10.0)


# The same on an on-demand table: ThrottlingException, the on-demand message, and the reasons in
# a member spelled throttlingReasons.
def test_hot_key_writes_on_demand(throttled):
    t = throttled
    arn = rh.create_table(t.client, "HotOd")["TableArn"]
    ok, raw = hammer_hot_key(t, "HotOd")
    cold = t.raw.put("HotOd", h.padded_item({"pk": S("cold")}, TEN_KB))
    assert cold.status == 200, cold
    rh.check_throttle(raw, rh.THROTTLING, rh.ON_DEMAND_MSG, "TableWriteKeyRangeThroughputExceeded", arn)
    assert units_of(t, "HotOd", expect=(0.0, ok * 10.0 + 10.0)) == (0.0, ok * 10.0 + 10.0)
    assert metric(t, "dynamod_errors_total", operation="PutItem", error=rh.THROTTLING) >= 1


# One partition key: at most 3000 read units per second (30 strongly consistent reads of a 400 KB
# item); other keys are still served.
def test_hot_key_reads_on_demand(throttled):
    t = throttled
    arn = rh.create_table(t.client, "HotReads")["TableArn"]
    assert t.raw.put("HotReads", h.padded_item({"pk": S("hot")}, BIG)).status == 200
    ok, raw, elapsed, _ = rh.pump(lambda: t.raw.get("HotReads", {"pk": S("hot")}, ConsistentRead=True),
                                  limit=400, deadline_s=8)
    assert raw is not None, "no throttle after %d reads of 100 units of one key in %.1fs" % (ok, elapsed)
    assert 30 <= ok <= 30 * (int(elapsed) + 2), (ok, elapsed)
    cold = t.raw.get("HotReads", {"pk": S("cold")}, ConsistentRead=True)
    assert cold.status == 200, cold
    rh.check_throttle(raw, rh.THROTTLING, rh.ON_DEMAND_MSG, "TableReadKeyRangeThroughputExceeded", arn)
    assert units_of(t, "HotReads", expect=(ok * 100.0 + 1.0, 400.0)) == (ok * 100.0 + 1.0, 400.0)


# A multi-attribute GSI key's partition is the combination of all its partition attributes:
# reads hot on (a = x, b = 1) are throttled while (a = x, b = 2), which shares the first
# attribute, is a partition of its own.
def test_hot_key_reads_on_a_multi_attribute_gsi(throttled):
    t = throttled
    schema = {"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
              "AttributeDefinitions": [{"AttributeName": n, "AttributeType": ty}
                                       for n, ty in (("pk", "S"), ("a", "S"), ("b", "N"))],
              "GlobalSecondaryIndexes": [{"IndexName": "by_ab", "Projection": {"ProjectionType": "ALL"},
                                          "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"},
                                                        {"AttributeName": "b", "KeyType": "HASH"}]}]}
    # (boto3 1.43's model allows two KeySchema elements: sent raw)
    assert t.raw.call("CreateTable", dict(schema, TableName="HotMulti", BillingMode="PAY_PER_REQUEST")).status == 200
    h.wait_active(t.client, "HotMulti")
    for pk, b in (("one", "1"), ("two", "2")):
        assert t.raw.put("HotMulti", h.padded_item({"pk": S(pk), "a": S("x"), "b": {"N": b}}, BIG)).status == 200

    def query(b):
        return t.raw.call("Query", {"TableName": "HotMulti", "IndexName": "by_ab",
                                    "KeyConditionExpression": "a = :a AND b = :b",
                                    "ExpressionAttributeValues": {":a": S("x"), ":b": {"N": b}}})
    ok, raw, elapsed, _ = rh.pump(lambda: query("1"), limit=600, deadline_s=8)
    assert raw is not None, "no throttle after %d reads of 50 units of one partition in %.1fs" % (ok, elapsed)
    assert rh.is_throttle(raw), raw
    assert query("2").status == 200


# Smoke test of on-demand scaling: a new on-demand table serves twice its initial peak (2000 write
# units) per second, so 300 writes of 10 units to distinct keys are never throttled.
def test_on_demand_new_table_not_throttled(throttled):
    t = throttled
    rh.create_table(t.client, "Fresh")
    for i in range(300):
        raw = t.raw.put("Fresh", h.padded_item({"pk": S("k%03d" % i)}, TEN_KB))
        assert raw.status == 200, "write %d: %r" % (i, raw)
    assert units_of(t, "Fresh", expect=(0.0, 3000.0)) == (0.0, 3000.0)


# ---------------------------------------------------------------- batches and transactions


def throttled_write_table(t, name):
    """A 1-WCU table whose write bucket is about 1.9 s in debt. Returns (accepted units, ARN)."""
    arn = rh.create_table(t.client, name, provisioned=(1, 1))["TableArn"]
    ok, _ = exhaust(t, name, burst=300, rate=1)
    go_into_debt(t, name, h.padded_item({"pk": S("two")}, TWO_UNITS))
    return ok + 2.0, arn


# BatchWriteItem: the throttled table's requests come back in UnprocessedItems (HTTP 200) while
# the other table's are written; a batch for the throttled table alone fails with its exception.
def test_batch_write_partially_throttled(throttled):
    t = throttled
    units, _ = throttled_write_table(t, "Slow")
    rh.create_table(t.client, "Fast")
    slow = [{"PutRequest": {"Item": {"pk": S("a%d" % i)}}} for i in range(2)]
    fast = [{"PutRequest": {"Item": {"pk": S("b%d" % i)}}} for i in range(2)]
    resp = t.client.batch_write_item(RequestItems={"Slow": slow, "Fast": fast})
    assert resp["ResponseMetadata"]["HTTPStatusCode"] == 200
    assert resp["UnprocessedItems"] == {"Slow": slow}, resp["UnprocessedItems"]
    for i in range(2):
        assert "Item" in t.client.get_item(TableName="Fast", Key={"pk": S("b%d" % i)})
        assert "Item" not in t.client.get_item(TableName="Slow", Key={"pk": S("a%d" % i)})
    h.expect_error(lambda: t.client.batch_write_item(RequestItems={"Slow": slow}), rh.PTEE, rh.TABLE_MSG)
    assert units_of(t, "Fast", expect=(1.0, 2.0)) == (1.0, 2.0)
    assert units_of(t, "Slow", expect=(1.0, units)) == (1.0, units)


# BatchGetItem: likewise with UnprocessedKeys for a table whose read bucket is in debt.
def test_batch_get_partially_throttled(throttled):
    t = throttled
    rh.create_table(t.client, "SlowR", provisioned=(1, 10))
    rh.create_table(t.client, "FastR")
    big_key = {"pk": S("big")}
    assert t.raw.put("SlowR", h.padded_item(big_key, BIG)).status == 200
    assert t.raw.put("FastR", {"pk": S("b1"), "v": S("x")}).status == 200
    ok, raw, _, _ = rh.pump(lambda: t.raw.get("SlowR", big_key, ConsistentRead=True), limit=20, deadline_s=10)
    assert raw is not None and ok in (3, 4), (ok, raw)  # now about 100 units in debt
    resp = t.client.batch_get_item(RequestItems={"SlowR": {"Keys": [big_key]}, "FastR": {"Keys": [{"pk": S("b1")}]}})
    assert resp["ResponseMetadata"]["HTTPStatusCode"] == 200
    assert list(resp["UnprocessedKeys"]) == ["SlowR"], resp["UnprocessedKeys"]
    assert resp["UnprocessedKeys"]["SlowR"]["Keys"] == [big_key]
    assert resp["Responses"]["FastR"] == [{"pk": S("b1"), "v": S("x")}]
    assert not resp["Responses"].get("SlowR")
    h.expect_error(lambda: t.client.batch_get_item(RequestItems={"SlowR": {"Keys": [big_key]}}), rh.PTEE, rh.TABLE_MSG)
    assert units_of(t, "SlowR", expect=(ok * 100.0, 400.0)) == (ok * 100.0, 400.0)
    assert units_of(t, "FastR", expect=(0.5, 1.0)) == (0.5, 1.0)


# TransactWriteItems: an item on a throttled PROVISIONED table cancels the transaction with
# reason ProvisionedThroughputExceeded for it and None for the others; nothing is written.
def test_transact_write_provisioned_throttle(throttled):
    t = throttled
    throttled_write_table(t, "SlowT")
    rh.create_table(t.client, "FastT")
    items = [{"Put": {"TableName": "FastT", "Item": {"pk": S("b1")}}},
             {"Put": {"TableName": "SlowT", "Item": {"pk": S("a1")}}}]
    expect_cancelled(lambda: t.client.transact_write_items(TransactItems=items),
                     ["None", "ProvisionedThroughputExceeded"])
    assert "Item" not in t.client.get_item(TableName="FastT", Key={"pk": S("b1")}, ConsistentRead=True)
    assert "Item" not in t.client.get_item(TableName="SlowT", Key={"pk": S("a1")}, ConsistentRead=True)


# On an on-demand table the hot key's reason is ThrottlingError. The transaction must run in the
# same server second as the throttle; if a second boundary intervened, try again (bounded).
def test_transact_write_on_demand_hot_key(throttled):
    t = throttled
    rh.create_table(t.client, "HotT")
    hot = h.padded_item({"pk": S("hot")}, TEN_KB)
    deadline = time.monotonic() + 15
    for attempt in range(5):
        ok, raw, _, _ = rh.pump(lambda: t.raw.put("HotT", hot), limit=1000, deadline_s=5)
        assert raw is not None, "no throttle after %d hot writes" % ok
        items = [{"Put": {"TableName": "HotT", "Item": {"pk": S("other%d" % attempt)}}},
                 {"Put": {"TableName": "HotT", "Item": {"pk": S("hot"), "v": S("small")}}}]
        try:
            t.client.transact_write_items(TransactItems=items)
        except ClientError as e:
            h.check_error(e, "TransactionCanceledException", cancel_message(["None", "ThrottlingError"]))
            assert [r.get("Code") for r in e.response["CancellationReasons"]] == ["None", "ThrottlingError"]
            assert "Item" not in t.client.get_item(TableName="HotT", Key={"pk": S("other%d" % attempt)},
                                                   ConsistentRead=True)
            return
        assert time.monotonic() < deadline, "out of time"
    pytest.fail("the transaction never ran in the throttled second (5 attempts)")


# An ExecuteTransaction cancelled for a statement's key leaves the statements after it unprepared;
# the throttle looks at what was prepared only, and the key's reason is named.
def test_execute_transaction_key_error_with_throttle(throttled):
    t = throttled
    rh.create_table(t.client, "KeyT")
    statements = [{"Statement": "INSERT INTO \"KeyT\" VALUE {'pk': 1}"},
                  {"Statement": "INSERT INTO \"KeyT\" VALUE {'pk': 'b'}"}]
    error = expect_cancelled(lambda: t.client.execute_transaction(TransactStatements=statements),
                             ["ValidationError", "None"])
    assert error.response["CancellationReasons"][0]["Message"] == (
        "Key attribute's data type should match its data type in table's schema: Key pk")
    assert "Item" not in t.client.get_item(TableName="KeyT", Key={"pk": S("b")}, ConsistentRead=True)
