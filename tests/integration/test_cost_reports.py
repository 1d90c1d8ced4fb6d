"""dynamod's ledger and its reports: GET /dynamod/metrics (Prometheus text), GET /dynamod/cost,
GET /dynamod/patterns, POST /dynamod/cost/reset; the ledger's persistence in --data-dir; what is and is
not charged (TTL deletions, GSI backfills, sparse GSIs, failed conditions); --prices; and the
`dynamod cost` / `dynamod patterns` commands.

These are dynamod features (the service has nothing like them): every test is dynamod-only and
talks to a dynamod it starts itself, so that the ledger holds exactly the scripted workload.
Units are DynamoDB's: an item of at most 1 KB costs 1 WCU to write (plus 1 per index entry
written), an eventually consistent read of up to 4 KB 0.5 RCU, a strongly consistent one 1 RCU;
a Query or Scan is sized on the items it read together (minimum 0.5 / 1). Prices are us-east-1's
(report_helpers).
"""
import json
import os
import subprocess
import time
from types import SimpleNamespace

import pytest
from botocore.exceptions import ClientError

import dynamo_helpers as h
import report_helpers as rh
from index_helpers import ad, gsi, ks, lsi
from partiql_helpers import dynamod_only
from report_helpers import B, N, S, assert_close

pytestmark = pytest.mark.needs_own_server

ELLIPSIS = "\u2026"
ORDERS, EVENTS, BLOBS, SCRATCH = "Orders", "Events", "Blobs", "Scratch"
CAPACITY_KEYS = {"read_units", "write_units", "read_units_per_second", "write_units_per_second",
                 "peak_read_units_per_second", "peak_write_units_per_second", "on_demand_monthly_usd",
                 "provisioned", "break_even_utilisation", "cheaper"}
STORAGE_KEYS = {"items", "storage_bytes", "billable_storage_bytes", "storage_standard_monthly_usd",
                "storage_standard_ia_monthly_usd"}


@pytest.fixture(autouse=True)
def _dynamod_only(target):
    dynamod_only(target, "the ledger and its reports are dynamod's own")


def stop_quietly(server):
    try:
        server.stop()
    except AssertionError:
        server.kill9()


# ---------------------------------------------------------------- the scripted workload
#
# Orders  (on-demand; pk S, sk S; GSI1 on GSI1PK/GSI1SK, ALL): 10 small PutItems, 5 of them with
#         the GSI keys (sparse GSI); 4 eventual + 2 strong GetItems; a GSI1 Query reading the 5;
#         a Scan with a filter keeping 2 of 10; a plain Scan; an UpdateItem and a DeleteItem of
#         items outside GSI1.  Table: 12 WCU, 4*0.5 + 2*1 + 0.5 + 0.5 = 5.0 RCU.  GSI1: 5 WCU, 0.5 RCU.
# Events  (on-demand; pk S, sk N; LSI ByKind on kind, ALL): 4 PutItems, 2 with kind (2 LSI entries):
#         6 WCU in the table line; 6 Queries (one on ByKind) and 2 GetItems of missing items,
#         0.5 RCU each: 4.0 RCU in the table line.
# Blobs   (on-demand; id B): 2 PutItems, 2 WCU.
# Scratch (on-demand; pk S): 3 PutItems, 3 WCU, then deleted.
# No request of the workload fails.


def orders_key(i):
    return {"pk": S("USER#u%d" % i), "sk": S("ORDER#%03d" % i)}


def orders_item(i):
    item = dict(orders_key(i), amount=N(i * 10))
    if i % 2 == 0:
        item.update(GSI1PK=S("STATUS#open"), GSI1SK=S("2024-01-%02d" % (i + 1)))
    return item


def events_item(n):
    item = {"pk": S("DEVICE#d1"), "sk": N(n), "v": S("reading %d" % n)}
    if n == 1:
        item["kind"] = S("alarm:high")
    elif n == 2:
        item["kind"] = S("info:low")
    return item


def create_workload_tables(c):
    rh.create_table(c, ORDERS, dict(KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                                    AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("GSI1PK", "S"), ("GSI1SK", "S"))),
                    GlobalSecondaryIndexes=[gsi("GSI1", "GSI1PK", "GSI1SK")])
    rh.create_table(c, EVENTS, dict(KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                                    AttributeDefinitions=ad(("pk", "S"), ("sk", "N"), ("kind", "S"))),
                    LocalSecondaryIndexes=[lsi("ByKind", "kind")])
    rh.create_table(c, BLOBS, dict(KeySchema=ks(("id", "HASH")), AttributeDefinitions=ad(("id", "B"))))
    rh.create_table(c, SCRATCH)


def run_workload(c):
    """The requests above; returns the items each table holds afterwards."""
    orders = {}
    for i in range(10):
        c.put_item(TableName=ORDERS, Item=orders_item(i))
        orders[i] = orders_item(i)
    for i in range(4):
        assert "Item" in c.get_item(TableName=ORDERS, Key=orders_key(i))
    for i in range(2):
        assert "Item" in c.get_item(TableName=ORDERS, Key=orders_key(i), ConsistentRead=True)
    got = c.query(TableName=ORDERS, IndexName="GSI1",
                  KeyConditionExpression="GSI1PK = :p AND begins_with(GSI1SK, :s)",
                  ExpressionAttributeValues={":p": S("STATUS#open"), ":s": S("2024-01")})
    assert got["Count"] == 5
    got = c.scan(TableName=ORDERS, FilterExpression="amount >= :a", ExpressionAttributeValues={":a": N(80)})
    assert (got["ScannedCount"], got["Count"]) == (10, 2)
    assert c.scan(TableName=ORDERS)["Count"] == 10
    c.update_item(TableName=ORDERS, Key=orders_key(1), UpdateExpression="SET note = :n",
                  ExpressionAttributeValues={":n": S("gift")})
    orders[1]["note"] = S("gift")
    c.delete_item(TableName=ORDERS, Key=orders_key(3))
    del orders[3]

    events = [events_item(n) for n in (1, 2, 3, 4)]
    for item in events:
        c.put_item(TableName=EVENTS, Item=item)
    p = {":p": S("DEVICE#d1")}
    assert c.query(TableName=EVENTS, IndexName="ByKind", KeyConditionExpression="pk = :p AND kind = :k",
                   ExpressionAttributeValues=dict(p, **{":k": S("alarm:high")}))["Count"] == 1
    assert c.query(TableName=EVENTS, KeyConditionExpression="pk = :p AND sk BETWEEN :a AND :b",
                   ExpressionAttributeValues=dict(p, **{":a": N(1), ":b": N(3)}))["Count"] == 3
    got = c.query(TableName=EVENTS, KeyConditionExpression="pk = :p AND sk < :s",
                  FilterExpression="attribute_exists(kind)", ExpressionAttributeValues=dict(p, **{":s": N(3)}))
    assert (got["ScannedCount"], got["Count"]) == (2, 2)
    assert c.query(TableName=EVENTS, KeyConditionExpression="pk = :p", ExpressionAttributeValues=p)["Count"] == 4
    assert c.query(TableName=EVENTS, KeyConditionExpression="pk = :p AND sk = :s",
                   ExpressionAttributeValues=dict(p, **{":s": N(2)}))["Count"] == 1
    assert c.query(TableName=EVENTS, KeyConditionExpression="pk = :p AND sk >= :s",
                   ExpressionAttributeValues=dict(p, **{":s": N(2)}))["Count"] == 3
    assert "Item" not in c.get_item(TableName=EVENTS, Key={"pk": S("tenant:7#x"), "sk": N(5)})
    assert "Item" not in c.get_item(TableName=EVENTS, Key={"pk": S("plain"), "sk": N(1)})

    blobs = [{"id": B(b"\x01\x02")}, {"id": B(b"\x03")}]
    for item in blobs:
        c.put_item(TableName=BLOBS, Item=item)

    for i in range(3):
        c.put_item(TableName=SCRATCH, Item={"pk": S("s%d" % i)})
    c.delete_table(TableName=SCRATCH)
    h.wait_gone(c, SCRATCH)
    return SimpleNamespace(orders=list(orders.values()), events=events, blobs=blobs)


# (region, table, index or None, operation, pattern, count, read units, write units,
#  (items_read, items_returned) for Query/Scan else None, flags)
EXPECTED_PATTERNS = [
    (ORDERS, None, "PutItem", "PutItem Orders: pk = USER#* AND sk = ORDER#*", 10, 0, 15, None, []),
    (ORDERS, None, "GetItem", "GetItem Orders: pk = USER#* AND sk = ORDER#*", 6, 4.0, 0, None, []),
    (ORDERS, "GSI1", "Query", "Query GSI1: GSI1PK = STATUS#* AND begins_with(GSI1SK, %s)" % ELLIPSIS,
     1, 0.5, 0, (5, 5), []),
    (ORDERS, None, "Scan", "Scan Orders (filter)", 1, 0.5, 0, (10, 2), ["full-table-scan", "filter-waste"]),
    (ORDERS, None, "Scan", "Scan Orders", 1, 0.5, 0, (10, 10), ["full-table-scan"]),
    (ORDERS, None, "UpdateItem", "UpdateItem Orders: pk = USER#* AND sk = ORDER#*", 1, 0, 1, None, []),
    (ORDERS, None, "DeleteItem", "DeleteItem Orders: pk = USER#* AND sk = ORDER#*", 1, 0, 1, None, []),
    (EVENTS, None, "PutItem", "PutItem Events: pk = DEVICE#* AND sk = *", 4, 0, 6, None, []),
    (EVENTS, "ByKind", "Query", "Query ByKind: pk = DEVICE#* AND kind = alarm:*", 1, 0.5, 0, (1, 1), []),
    (EVENTS, None, "Query", "Query Events: pk = DEVICE#* AND sk BETWEEN %s AND %s" % (ELLIPSIS, ELLIPSIS),
     1, 0.5, 0, (3, 3), []),
    (EVENTS, None, "Query", "Query Events: pk = DEVICE#* AND sk < %s (filter)" % ELLIPSIS, 1, 0.5, 0, (2, 2), []),
    (EVENTS, None, "Query", "Query Events: pk = DEVICE#*", 1, 0.5, 0, (4, 4), []),
    (EVENTS, None, "Query", "Query Events: pk = DEVICE#* AND sk = *", 1, 0.5, 0, (1, 1), []),
    (EVENTS, None, "Query", "Query Events: pk = DEVICE#* AND sk >= %s" % ELLIPSIS, 1, 0.5, 0, (3, 3), []),
    (EVENTS, None, "GetItem", "GetItem Events: pk = tenant:* AND sk = *", 1, 0.5, 0, None, []),
    (EVENTS, None, "GetItem", "GetItem Events: pk = * AND sk = *", 1, 0.5, 0, None, []),
    (BLOBS, None, "PutItem", "PutItem Blobs: id = *", 2, 0, 2, None, []),
]

# (table, index or "" , read units, write units) in the ledger after the workload
EXPECTED_UNITS = [(ORDERS, "", 5.0, 12.0), (ORDERS, "GSI1", 0.5, 5.0), (EVENTS, "", 4.0, 6.0), (BLOBS, "", 0.0, 2.0)]
EXPECTED_REQUESTS = {"PutItem": 19, "GetItem": 8, "Query": 7, "Scan": 2, "UpdateItem": 1, "DeleteItem": 1}


@pytest.fixture(scope="module")
def workload(dynamod_bin, tmp_path_factory, target):
    """One private dynamod that ran the scripted workload; read-only for the tests using it."""
    dynamod_only(target, "the ledger and its reports are dynamod's own")
    t_launch = time.time()
    server = h.DynamodProcess(dynamod_bin, in_memory=True, log_dir=str(tmp_path_factory.mktemp("cost-log")))
    server.start()
    try:
        c = h.make_client(server.endpoint)
        create_workload_tables(c)
        t_first = time.time()
        held = run_workload(c)
        t_last = time.time()
        # The ledger is read by other threads: give it a moment to show the last request.
        rh.eventually(lambda: rh.get_cost(server.endpoint),
                      lambda r: rh.table_units(r, BLOBS) == (0.0, 2.0), what="the last PutItem in the ledger")
        yield SimpleNamespace(endpoint=server.endpoint, client=c, t_launch=t_launch, t_first=t_first,
                              t_last=t_last, held=held)
    finally:
        stop_quietly(server)


def describe_sizes(client, table):
    """{index name or "": (ItemCount, size bytes)} from DescribeTable (exact at every moment in dynamod)."""
    desc = client.describe_table(TableName=table)["Table"]
    out = {"": (desc["ItemCount"], desc["TableSizeBytes"])}
    for family in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
        for index in desc.get(family, []):
            out[index["IndexName"]] = (index["ItemCount"], index["IndexSizeBytes"])
    return out


# ---------------------------------------------------------------- /dynamod/metrics


def test_metrics_content_type_and_format(workload):
    content_type, metrics = rh.get_metrics(workload.endpoint)
    assert content_type.startswith("text/plain"), content_type
    assert "version=0.0.4" in content_type.replace(" ", ""), content_type
    names = {n for n, _, _ in metrics.samples}
    for family in ("dynamod_requests_total", "dynamod_request_duration_seconds_bucket",
                   "dynamod_request_duration_seconds_sum", "dynamod_request_duration_seconds_count",
                   "dynamod_consumed_read_units_total", "dynamod_consumed_write_units_total",
                   "dynamod_items", "dynamod_storage_bytes"):
        assert family in names, "no %s samples" % family
    # Declared types, where declared, are the right ones.
    for family, kind in (("dynamod_requests_total", "counter"), ("dynamod_errors_total", "counter"),
                         ("dynamod_request_duration_seconds", "histogram"),
                         ("dynamod_consumed_read_units_total", "counter"),
                         ("dynamod_consumed_write_units_total", "counter"),
                         ("dynamod_items", "gauge"), ("dynamod_storage_bytes", "gauge")):
        assert metrics.types.get(family, kind) == kind, (family, metrics.types.get(family))


# The writer's group commits: every write request (and each CreateTable) rode in a committed
# transaction; one client at a time makes groups of about one.
def test_metrics_write_commits(workload):
    _, metrics = rh.get_metrics(workload.endpoint)
    for family in ("dynamod_write_commits_total", "dynamod_write_committed_requests_total",
                   "dynamod_write_commit_seconds_total"):
        assert metrics.types.get(family) == "counter", family
    writes = sum(EXPECTED_REQUESTS[op] for op in ("PutItem", "UpdateItem", "DeleteItem")) + 3
    commits = metrics.value("dynamod_write_commits_total")
    carried = metrics.value("dynamod_write_committed_requests_total")
    assert carried >= writes, (carried, writes)
    assert 1 <= commits <= carried, (commits, carried)
    assert metrics.value("dynamod_write_commit_seconds_total") > 0


def test_metrics_request_counts(workload):
    _, metrics = rh.get_metrics(workload.endpoint)
    for op, count in EXPECTED_REQUESTS.items():
        assert metrics.value("dynamod_requests_total", operation=op) == count, op
    # The workload has no failed data-plane request.
    for _, labels, value in metrics.find("dynamod_errors_total"):
        assert set(labels) == {"operation", "error"}, labels
        assert labels["operation"] not in EXPECTED_REQUESTS or value == 0, (labels, value)


def test_metrics_latency_histogram(workload):
    _, metrics = rh.get_metrics(workload.endpoint)
    for op, count in EXPECTED_REQUESTS.items():
        buckets = metrics.find("dynamod_request_duration_seconds_bucket", operation=op)
        assert buckets, op
        for _, labels, _ in buckets:
            assert set(labels) == {"operation", "le"}, labels
        bounds = sorted((float(l["le"]), v) for _, l, v in buckets)
        assert bounds[-1][0] == float("inf"), "%s: no le=\"+Inf\" bucket" % op
        values = [v for _, v in bounds]
        assert values == sorted(values), "%s: buckets not cumulative: %r" % (op, bounds)
        assert bounds[-1][1] == count, (op, bounds)
        assert metrics.value("dynamod_request_duration_seconds_count", operation=op) == count, op
        total = metrics.value("dynamod_request_duration_seconds_sum", operation=op)
        assert total is not None and 0 <= total <= count * 10, (op, total)


def test_metrics_consumed_units(workload):
    _, metrics = rh.get_metrics(workload.endpoint)
    for table, index, read, write in EXPECTED_UNITS:
        labels = dict(region="us-east-1", table=table, index=index)
        assert metrics.value("dynamod_consumed_read_units_total", **labels) == read, labels
        assert metrics.value("dynamod_consumed_write_units_total", **labels) == write, labels
    for name in ("dynamod_consumed_read_units_total", "dynamod_consumed_write_units_total"):
        for _, labels, _ in metrics.find(name):
            assert set(labels) == {"region", "table", "index"}, labels


def test_metrics_items_and_storage(workload):
    _, metrics = rh.get_metrics(workload.endpoint)
    c = workload.client
    for table in (ORDERS, EVENTS, BLOBS):
        for index, (count, size) in describe_sizes(c, table).items():
            labels = dict(region="us-east-1", table=table, index=index)
            assert metrics.value("dynamod_items", **labels) == count, labels
            assert metrics.value("dynamod_storage_bytes", **labels) == size, labels
    held = workload.held
    labels = dict(region="us-east-1", table=ORDERS)
    assert metrics.value("dynamod_items", index="", **labels) == 9
    assert metrics.value("dynamod_storage_bytes", index="", **labels) == sum(map(h.item_size, held.orders))
    in_gsi = [i for i in held.orders if "GSI1PK" in i]
    assert metrics.value("dynamod_items", index="GSI1", **labels) == 5
    assert metrics.value("dynamod_storage_bytes", index="GSI1", **labels) == sum(map(h.item_size, in_gsi))
    assert metrics.value("dynamod_items", region="us-east-1", table=EVENTS, index="ByKind") == 2
    # A deleted table has no gauges.
    assert not metrics.find("dynamod_items", table=SCRATCH)


# ---------------------------------------------------------------- /dynamod/cost


def check_capacity_line(line, read, write, window, what):
    """The capacity members of a table or global line, against the units it should hold."""
    assert CAPACITY_KEYS <= set(line), "%s: missing %r" % (what, CAPACITY_KEYS - set(line))
    assert_close(line["read_units"], read, what + " read_units")
    assert_close(line["write_units"], write, what + " write_units")
    assert_close(line["read_units_per_second"], read / window, what + " read_units_per_second")
    assert_close(line["write_units_per_second"], write / window, what + " write_units_per_second")
    assert_close(line["on_demand_monthly_usd"], rh.on_demand_monthly(read, write, window), what + " on-demand")
    for kind, units in (("read", read), ("write", write)):
        peak = line["peak_%s_units_per_second" % kind]
        assert (peak > 0) == (units > 0) and peak <= units + 1e-9, (what, kind, peak, units)
    prov = line["provisioned"]
    assert set(prov) >= {"read_capacity_units", "write_capacity_units", "monthly_usd", "utilisation"}, prov
    rcu, wcu = prov["read_capacity_units"], prov["write_capacity_units"]
    assert isinstance(rcu, int) and isinstance(wcu, int) and rcu >= 0 and wcu >= 0, prov
    assert_close(prov["monthly_usd"], (rcu * rh.RCU_HOUR + wcu * rh.WCU_HOUR) * rh.HOURS_PER_MONTH, what + " prov $")
    assert prov["utilisation"] >= 0, prov
    if read > 0 or write > 0:
        # Equal at every mix with us-east-1's prices (both unit-hour / request-unit ratios are 1040).
        assert_close(line["break_even_utilisation"], rh.BREAK_EVEN, what + " break-even", rel=1e-4)
    assert line["cheaper"] == ("provisioned" if prov["monthly_usd"] < line["on_demand_monthly_usd"] else "on-demand"), \
        (what, line["cheaper"], prov["monthly_usd"], line["on_demand_monthly_usd"])


def check_storage_line(line, items, size, what, ia=False):
    assert STORAGE_KEYS <= set(line), "%s: missing %r" % (what, STORAGE_KEYS - set(line))
    assert (line["items"], line["storage_bytes"]) == (items, size), what
    assert line["billable_storage_bytes"] == size + 100 * items, what
    assert rh.storage_price_ok(line["storage_standard_monthly_usd"], size + 100 * items, rh.STORAGE_GB_MONTH), \
        (what, line["storage_standard_monthly_usd"])
    assert rh.storage_price_ok(line["storage_standard_ia_monthly_usd"], size + 100 * items, rh.STORAGE_IA_GB_MONTH), \
        (what, line["storage_standard_ia_monthly_usd"])


def test_cost_report_header(workload):
    before = time.time()
    report = rh.get_cost(workload.endpoint)
    after = time.time()
    assert set(report) >= {"since", "window_seconds", "prices", "hours_per_month", "tables", "deleted_tables", "total"}
    since = rh.parse_iso8601(report["since"])
    # The ledger started when the server did (no earlier run: in memory).
    assert workload.t_launch - 1 <= since <= workload.t_first + 1, (report["since"], workload.t_launch)
    window = report["window_seconds"]
    assert isinstance(window, float) and window > 0
    assert before - workload.t_first - 1 <= window <= after - workload.t_launch + 1.5, window
    assert report["prices"] == "us-east-1"
    assert report["hours_per_month"] == 730.0


def test_cost_report_tables_and_lines(workload):
    report = rh.get_cost(workload.endpoint)
    window = report["window_seconds"]
    listed = sorted((t["region"], t["table"]) for t in report["tables"])
    assert listed == sorted(("us-east-1", t) for t in (ORDERS, EVENTS, BLOBS)), listed
    sizes = {t: describe_sizes(workload.client, t) for t in (ORDERS, EVENTS, BLOBS)}
    held = workload.held
    assert sizes[ORDERS][""] == (9, sum(map(h.item_size, held.orders)))
    for entry in report["tables"]:
        assert entry["billing_mode"] == "PAY_PER_REQUEST" and entry["table_class"] == "STANDARD", entry
        for line in entry["lines"]:
            assert (line["region"], line["table"]) == (entry["region"], entry["table"]), line

    orders = rh.cost_entry(report, ORDERS)
    assert sorted((l["kind"], l.get("index")) for l in orders["lines"]) == [("global", "GSI1"), ("table", None)]
    table_line = rh.cost_line(orders)
    assert "index" not in table_line
    check_capacity_line(table_line, 5.0, 12.0, window, "Orders")
    check_storage_line(table_line, *sizes[ORDERS][""], "Orders")
    gsi_line = rh.cost_line(orders, "GSI1")
    check_capacity_line(gsi_line, 0.5, 5.0, window, "Orders/GSI1")
    check_storage_line(gsi_line, *sizes[ORDERS]["GSI1"], "Orders/GSI1")
    assert sizes[ORDERS]["GSI1"] == (5, sum(h.item_size(i) for i in held.orders if "GSI1PK" in i))

    # Local-index units count in the table line; the local line carries storage only.
    events = rh.cost_entry(report, EVENTS)
    assert sorted((l["kind"], l.get("index")) for l in events["lines"]) == [("local", "ByKind"), ("table", None)]
    check_capacity_line(rh.cost_line(events), 4.0, 6.0, window, "Events")
    check_storage_line(rh.cost_line(events), *sizes[EVENTS][""], "Events")
    local = rh.cost_line(events, "ByKind")
    assert not (CAPACITY_KEYS & set(local)), "local line has capacity members: %r" % local
    check_storage_line(local, *sizes[EVENTS]["ByKind"], "Events/ByKind")
    assert sizes[EVENTS]["ByKind"][0] == 2

    blobs = rh.cost_entry(report, BLOBS)
    check_capacity_line(rh.cost_line(blobs), 0.0, 2.0, window, "Blobs")
    check_storage_line(rh.cost_line(blobs), 2, sum(map(h.item_size, held.blobs)), "Blobs")


def test_cost_report_deleted_tables(workload):
    report = rh.get_cost(workload.endpoint)
    assert SCRATCH not in [t["table"] for t in report["tables"]]
    gone = [l for l in report["deleted_tables"] if l.get("table") == SCRATCH]
    assert len(gone) == 1, report["deleted_tables"]
    assert gone[0]["region"] == "us-east-1"
    check_capacity_line(gone[0], 0.0, 3.0, report["window_seconds"], "Scratch (deleted)")
    assert {l.get("table") for l in report["deleted_tables"]} == {SCRATCH}


def test_cost_report_totals(workload):
    report = rh.get_cost(workload.endpoint)
    lines = [l for t in report["tables"] for l in t["lines"]]
    capacity = [l for l in lines + report["deleted_tables"] if "on_demand_monthly_usd" in l]
    total = report["total"]
    assert set(total) >= {"on_demand_monthly_usd", "provisioned_monthly_usd", "storage_monthly_usd"}
    assert_close(total["on_demand_monthly_usd"], sum(l["on_demand_monthly_usd"] for l in capacity), "on-demand total")
    assert_close(total["provisioned_monthly_usd"], sum(l["provisioned"]["monthly_usd"] for l in capacity),
                 "provisioned total")
    # Every table here is of the Standard class.
    assert_close(total["storage_monthly_usd"], sum(l["storage_standard_monthly_usd"] for l in lines),
                 "storage total", abs_tol=1e-12)
    # The on-demand total is the formula applied to every unit of the workload (deleted table included).
    read = sum(r for _, _, r, _ in EXPECTED_UNITS)
    write = sum(w for _, _, _, w in EXPECTED_UNITS) + 3.0
    assert_close(total["on_demand_monthly_usd"], rh.on_demand_monthly(read, write, report["window_seconds"]),
                 "on-demand total from units")


# ---------------------------------------------------------------- /dynamod/patterns


def test_patterns_exact(workload):
    report = rh.get_patterns(workload.endpoint)
    assert set(report) >= {"since", "patterns"}
    rh.parse_iso8601(report["since"])
    for table, index, op, pattern, count, read, write, items, flags in EXPECTED_PATTERNS:
        p = rh.find_pattern(report, pattern)
        assert p is not None, "pattern %r missing from %r" % (pattern, [x["pattern"] for x in report["patterns"]])
        assert (p["region"], p["table"], p.get("index"), p["operation"]) == ("us-east-1", table, index, op), p
        assert p["count"] == count, p
        assert_close(p["read_units"], read, pattern + " read_units")
        assert_close(p["write_units"], write, pattern + " write_units")
        if items is None:
            assert "items_read" not in p and "items_returned" not in p, p
        else:
            assert (p["items_read"], p["items_returned"]) == items, p
        assert sorted(p["flags"]) == sorted(flags), p
    # Nothing else for the tables that still exist (control-plane requests make no pattern).
    expected = {pattern for _, _, _, pattern, *_ in EXPECTED_PATTERNS}
    extra = [p["pattern"] for p in report["patterns"] if p["table"] != SCRATCH and p["pattern"] not in expected]
    assert not extra, extra


def test_patterns_costliest_first(workload):
    patterns = rh.get_patterns(workload.endpoint)["patterns"]
    # The two costliest by units and by dollars alike.
    assert [p["pattern"] for p in patterns[:2]] == ["PutItem Orders: pk = USER#* AND sk = ORDER#*",
                                                    "PutItem Events: pk = DEVICE#* AND sk = *"]
    units = [p["read_units"] + p["write_units"] for p in patterns]
    dollars = [p["read_units"] * rh.READ_REQUEST_UNIT + p["write_units"] * rh.WRITE_REQUEST_UNIT for p in patterns]
    assert units == sorted(units, reverse=True) or dollars == sorted(dollars, reverse=True), \
        [(p["pattern"], p["read_units"], p["write_units"]) for p in patterns]


# filter-waste needs at least 10 items read (summed over the pattern's requests) and more than
# half of them filtered out. Each partition gives its own Query pattern (its separator differs).
def test_filter_waste_boundaries(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    c = h.make_client(server.endpoint)
    rh.create_table(c, "Waste", h.RANGE_SCHEMA)
    groups = {"W#1": (10, 4),   # 6 of 10 filtered out: flagged
              "H:1": (10, 5),   # exactly half: not flagged
              "S|1": (9, 0),    # all filtered, but only 9 read: not flagged
              "M/1": (5, 0)}    # queried twice: 10 read, 10 filtered: flagged
    for pk, (n, keep) in groups.items():
        for i in range(n):
            c.put_item(TableName="Waste", Item={"pk": S(pk), "sk": N(i), "keep": {"BOOL": i < keep}})
    for pk in groups:
        for _ in range(2 if pk == "M/1" else 1):
            c.query(TableName="Waste", KeyConditionExpression="pk = :p", FilterExpression="keep = :t",
                    ExpressionAttributeValues={":p": S(pk), ":t": {"BOOL": True}})
    report = rh.get_patterns(server.endpoint)
    expect = {"W#": ((10, 4), ["filter-waste"]), "H:": ((10, 5), []), "S|": ((9, 0), []), "M/": ((10, 0), ["filter-waste"])}
    for prefix, (items, flags) in expect.items():
        pattern = "Query Waste: pk = %s* (filter)" % prefix
        p = rh.find_pattern(report, pattern)
        assert p is not None, (pattern, [x["pattern"] for x in report["patterns"]])
        assert p["operation"] == "Query" and "index" not in p, p
        assert (p["items_read"], p["items_returned"]) == items, p
        assert p["flags"] == flags, p


# ---------------------------------------------------------------- what is charged


# The spec's example: 10 small PutItems into an on-demand table whose GSI holds 5 of them are
# 10 table WCU and 5 GSI WCU (a sparse GSI that does not hold an item is not written), whether or
# not the client asked for ConsumedCapacity.
def test_ten_puts_sparse_gsi(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    c = h.make_client(server.endpoint)
    rh.create_table(c, "Sparse", dict(KeySchema=ks(("pk", "HASH")), AttributeDefinitions=ad(("pk", "S"), ("g", "S"))),
                    GlobalSecondaryIndexes=[gsi("ByG", "g")])
    for i in range(10):
        item = {"pk": S("k%d" % i)}
        if i < 5:
            item["g"] = S("G#%d" % i)
        if i % 2:
            cc = c.put_item(TableName="Sparse", Item=item, ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
            assert cc["Table"]["CapacityUnits"] == 1.0
            assert cc.get("GlobalSecondaryIndexes", {}).get("ByG", {}).get("CapacityUnits", 0.0) == (1.0 if i < 5 else 0.0)
        else:
            c.put_item(TableName="Sparse", Item=item)
    report = rh.eventually(lambda: rh.get_cost(server.endpoint),
                           lambda r: rh.table_units(r, "Sparse") == (0.0, 10.0))
    entry = rh.cost_entry(report, "Sparse")
    window = report["window_seconds"]
    check_capacity_line(rh.cost_line(entry), 0.0, 10.0, window, "Sparse")
    check_capacity_line(rh.cost_line(entry, "ByG"), 0.0, 5.0, window, "Sparse/ByG")
    assert rh.cost_line(entry, "ByG")["kind"] == "global"
    assert rh.cost_line(entry, "ByG")["items"] == 5
    # Pure writes: break-even 0.2889.
    assert abs(rh.cost_line(entry)["break_even_utilisation"] - 0.2889) < 1e-3
    _, metrics = rh.get_metrics(server.endpoint)
    assert metrics.value("dynamod_consumed_write_units_total", region="us-east-1", table="Sparse", index="") == 10
    assert metrics.value("dynamod_consumed_write_units_total", region="us-east-1", table="Sparse", index="ByG") == 5
    assert metrics.value("dynamod_consumed_read_units_total", region="us-east-1", table="Sparse", index="") == 0
    assert metrics.value("dynamod_requests_total", operation="PutItem") == 10


# GetItem: 0.5 RCU eventually consistent (found or not), 1 RCU strongly consistent. After a reset
# the ledger holds only the reads: pure reads, break-even 0.2889.
def test_get_item_units_and_pure_read_cost(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    c = h.make_client(server.endpoint)
    rh.create_table(c, "Reads")
    for i in range(4):
        c.put_item(TableName="Reads", Item={"pk": S("k%d" % i), "v": S("x" * 100)})
    rh.post_reset(server.endpoint)
    for i in range(4):
        assert "Item" in c.get_item(TableName="Reads", Key={"pk": S("k%d" % i)})
    for i in range(2):
        assert "Item" not in c.get_item(TableName="Reads", Key={"pk": S("missing%d" % i)})
    for i in range(2):
        assert "Item" in c.get_item(TableName="Reads", Key={"pk": S("k%d" % i)}, ConsistentRead=True)
    report = rh.eventually(lambda: rh.get_cost(server.endpoint), lambda r: rh.table_units(r, "Reads") == (5.0, 0.0))
    line = rh.cost_line(rh.cost_entry(report, "Reads"))
    check_capacity_line(line, 5.0, 0.0, report["window_seconds"], "Reads")
    assert abs(line["break_even_utilisation"] - 0.2889) < 1e-3
    assert_close(line["on_demand_monthly_usd"], 5.0 * 0.125e-6 / report["window_seconds"] * 730 * 3600, "on-demand")
    p = rh.find_pattern(rh.get_patterns(server.endpoint), "GetItem Reads: pk = *")
    assert p is not None and p["count"] == 8 and p["read_units"] == 5.0 and p["write_units"] == 0, p


# A write whose condition fails is still charged: 1 WCU for a missing item (PutItem, UpdateItem,
# DeleteItem alike); the errors counter counts it per operation and error type.
def test_failed_conditional_writes_are_charged(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    c = h.make_client(server.endpoint)
    rh.create_table(c, "Cond")
    key = {"pk": S("nobody")}
    calls = [
        ("PutItem", lambda: c.put_item(TableName="Cond", Item=key, ConditionExpression="attribute_exists(pk)")),
        ("UpdateItem", lambda: c.update_item(TableName="Cond", Key=key, UpdateExpression="SET v = :v",
                                             ConditionExpression="attribute_exists(pk)",
                                             ExpressionAttributeValues={":v": N(1)})),
        ("DeleteItem", lambda: c.delete_item(TableName="Cond", Key=key, ConditionExpression="attribute_exists(pk)")),
    ]
    for _, call in calls:
        with pytest.raises(ClientError) as info:
            call()
        assert info.value.response["Error"]["Code"] == "ConditionalCheckFailedException"
    report = rh.eventually(lambda: rh.get_cost(server.endpoint), lambda r: rh.table_units(r, "Cond") == (0.0, 3.0))
    check_capacity_line(rh.cost_line(rh.cost_entry(report, "Cond")), 0.0, 3.0, report["window_seconds"], "Cond")
    assert rh.cost_line(rh.cost_entry(report, "Cond"))["items"] == 0
    _, metrics = rh.get_metrics(server.endpoint)
    for op, _ in calls:
        assert metrics.value("dynamod_errors_total", operation=op, error="ConditionalCheckFailedException") == 1, op
        assert metrics.value("dynamod_requests_total", operation=op) == 1, op
    assert metrics.value("dynamod_consumed_write_units_total", region="us-east-1", table="Cond", index="") == 3


# TTL deletions are not charged: after the sweeper removed every item, the ledger holds the
# PutItems' units only (table and GSI), and no DeleteItem.
def test_ttl_deletions_not_charged(launch_dynamod):
    server = launch_dynamod(args=["--ttl-interval", "0.2"], in_memory=True)
    c = h.make_client(server.endpoint)
    rh.create_table(c, "Expiring", dict(KeySchema=ks(("pk", "HASH")), AttributeDefinitions=ad(("pk", "S"), ("g", "S"))),
                    GlobalSecondaryIndexes=[gsi("ByG", "g")])
    c.update_time_to_live(TableName="Expiring", TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
    past = str(int(time.time()) - 60)
    for i in range(3):
        c.put_item(TableName="Expiring", Item={"pk": S("k%d" % i), "g": S("GV"), "exp": {"N": past}})
    sizes = rh.eventually(lambda: describe_sizes(c, "Expiring"), lambda s: s[""][0] == 0 and s["ByG"][0] == 0,
                          timeout=15)
    assert sizes[""][0] == 0 and sizes["ByG"][0] == 0, "the sweeper did not expire the items: %r" % sizes
    report = rh.get_cost(server.endpoint)
    entry = rh.cost_entry(report, "Expiring")
    assert (rh.cost_line(entry)["read_units"], rh.cost_line(entry)["write_units"]) == (0.0, 3.0)
    assert (rh.cost_line(entry, "ByG")["read_units"], rh.cost_line(entry, "ByG")["write_units"]) == (0.0, 3.0)
    assert rh.cost_line(entry)["items"] == 0 and rh.cost_line(entry, "ByG")["items"] == 0
    _, metrics = rh.get_metrics(server.endpoint)
    assert metrics.value("dynamod_consumed_write_units_total", region="us-east-1", table="Expiring", index="") == 3
    assert metrics.value("dynamod_consumed_write_units_total", region="us-east-1", table="Expiring", index="ByG") == 3
    assert not metrics.value("dynamod_requests_total", operation="DeleteItem")
    assert not [p for p in rh.get_patterns(server.endpoint)["patterns"] if p["operation"] == "DeleteItem"]


# Building a GSI over existing items (UpdateTable) is not charged; writes after it are.
def test_gsi_backfill_not_charged(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    c = h.make_client(server.endpoint)
    rh.create_table(c, "Backfill")
    for i in range(5):
        c.put_item(TableName="Backfill", Item={"pk": S("k%d" % i), "g": S("G%d" % i)})
    c.update_table(TableName="Backfill", AttributeDefinitions=ad(("pk", "S"), ("g", "S")),
                   GlobalSecondaryIndexUpdates=[{"Create": gsi("ByG", "g")}])
    h.wait_active(c, "Backfill", timeout=30)
    rh.eventually(lambda: describe_sizes(c, "Backfill"), lambda s: s["ByG"][0] == 5, timeout=10)
    entry = rh.cost_entry(rh.get_cost(server.endpoint), "Backfill")
    assert (rh.cost_line(entry)["read_units"], rh.cost_line(entry)["write_units"]) == (0.0, 5.0)
    assert (rh.cost_line(entry, "ByG")["read_units"], rh.cost_line(entry, "ByG")["write_units"]) == (0.0, 0.0)
    assert rh.cost_line(entry, "ByG")["items"] == 5
    c.put_item(TableName="Backfill", Item={"pk": S("k9"), "g": S("G9")})
    report = rh.eventually(lambda: rh.get_cost(server.endpoint),
                           lambda r: rh.table_units(r, "Backfill", index="ByG") == (0.0, 1.0))
    entry = rh.cost_entry(report, "Backfill")
    assert (rh.cost_line(entry)["write_units"], rh.cost_line(entry, "ByG")["write_units"]) == (6.0, 1.0)


# Usage is kept per region (SigV4 scope): the same table name in two regions is two ledger lines.
def test_usage_per_region(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    us = h.make_client(server.endpoint)
    eu = h.make_client(server.endpoint, region="eu-west-1")
    for c in (us, eu):
        rh.create_table(c, "Regional")
    us.put_item(TableName="Regional", Item={"pk": S("a")})
    for i in range(2):
        eu.put_item(TableName="Regional", Item={"pk": S("b%d" % i)})
    report = rh.eventually(lambda: rh.get_cost(server.endpoint),
                           lambda r: rh.table_units(r, "Regional", region="eu-west-1") == (0.0, 2.0))
    assert rh.cost_line(rh.cost_entry(report, "Regional", region="us-east-1"))["write_units"] == 1.0
    assert rh.cost_line(rh.cost_entry(report, "Regional", region="eu-west-1"))["write_units"] == 2.0
    _, metrics = rh.get_metrics(server.endpoint)
    assert metrics.value("dynamod_consumed_write_units_total", region="us-east-1", table="Regional", index="") == 1
    assert metrics.value("dynamod_consumed_write_units_total", region="eu-west-1", table="Regional", index="") == 2
    assert metrics.value("dynamod_items", region="eu-west-1", table="Regional", index="") == 2
    patterns = rh.get_patterns(server.endpoint)
    assert rh.find_pattern(patterns, "PutItem Regional: pk = *", region="eu-west-1")["count"] == 2
    assert rh.find_pattern(patterns, "PutItem Regional: pk = *", region="us-east-1")["count"] == 1


# billing_mode and table_class name the table's settings.
def test_billing_mode_and_class_reported(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    c = h.make_client(server.endpoint)
    rh.create_table(c, "Prov", provisioned=(3, 4))
    rh.create_table(c, "Infrequent", TableClass="STANDARD_INFREQUENT_ACCESS")
    report = rh.get_cost(server.endpoint)
    prov = rh.cost_entry(report, "Prov")
    assert (prov["billing_mode"], prov["table_class"]) == ("PROVISIONED", "STANDARD")
    ia = rh.cost_entry(report, "Infrequent")
    assert (ia["billing_mode"], ia["table_class"]) == ("PAY_PER_REQUEST", "STANDARD_INFREQUENT_ACCESS")
    for entry in (prov, ia):
        line = rh.cost_line(entry)
        assert (line["read_units"], line["write_units"], line["on_demand_monthly_usd"]) == (0.0, 0.0, 0.0), line
        assert (line["items"], line["storage_bytes"], line["billable_storage_bytes"]) == (0, 0, 0), line


# ---------------------------------------------------------------- reset


def test_reset_starts_both_reports_over(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    c = h.make_client(server.endpoint)
    create_workload_tables(c)
    held = run_workload(c)
    report = rh.eventually(lambda: rh.get_cost(server.endpoint), lambda r: rh.table_units(r, BLOBS) == (0.0, 2.0))
    assert report["deleted_tables"] and rh.get_patterns(server.endpoint)["patterns"]
    time.sleep(1.1)  # so that the new `since` is a later second than the old one
    before = time.time()
    rh.post_reset(server.endpoint)
    after = time.time()

    report = rh.get_cost(server.endpoint)
    since = rh.parse_iso8601(report["since"])
    assert int(before) - 1 <= since <= after + 1, (report["since"], before)
    assert report["window_seconds"] <= time.time() - before + 1.5, report["window_seconds"]
    assert report["deleted_tables"] == []
    for entry in report["tables"]:
        for line in entry["lines"]:
            if "read_units" in line:
                assert (line["read_units"], line["write_units"], line["on_demand_monthly_usd"]) == (0.0, 0.0, 0.0), line
                assert (line["peak_read_units_per_second"], line["peak_write_units_per_second"]) == (0.0, 0.0), line
    assert report["total"]["on_demand_monthly_usd"] == 0.0
    # The data is still there: storage is not usage.
    assert rh.cost_line(rh.cost_entry(report, ORDERS))["items"] == len(held.orders)
    assert report["total"]["storage_monthly_usd"] > 0

    patterns = rh.get_patterns(server.endpoint)
    assert patterns["patterns"] == []
    assert abs(rh.parse_iso8601(patterns["since"]) - since) < 1.001

    # Usage after the reset is counted from zero.
    c.put_item(TableName=BLOBS, Item={"id": B(b"\x09")})
    report = rh.eventually(lambda: rh.get_cost(server.endpoint), lambda r: rh.table_units(r, BLOBS) == (0.0, 1.0))
    assert rh.table_units(report, BLOBS) == (0.0, 1.0)
    assert [p["pattern"] for p in rh.get_patterns(server.endpoint)["patterns"]] == ["PutItem Blobs: id = *"]


# ---------------------------------------------------------------- persistence


def ledger_state(endpoint):
    """What must survive a restart: since, every line's units, every pattern."""
    cost = rh.get_cost(endpoint)
    units = {}
    for entry in cost["tables"]:
        for line in entry["lines"]:
            if "read_units" in line:
                units[(line["region"], line["table"], line.get("index"))] = (line["read_units"], line["write_units"])
    for line in cost["deleted_tables"]:
        units[(line["region"], line["table"], "deleted")] = (line["read_units"], line["write_units"])
    patterns = sorted((p["region"], p["table"], p["pattern"], p["count"], p["read_units"], p["write_units"],
                       p.get("items_read"), p.get("items_returned")) for p in rh.get_patterns(endpoint)["patterns"])
    return cost["since"], units, patterns


# SIGTERM saves the ledger; the next run with the same --data-dir continues it.
def test_ledger_survives_clean_restart(launch_dynamod, data_dir):
    server = launch_dynamod(data_dir=data_dir)
    c = h.make_client(server.endpoint)
    create_workload_tables(c)
    run_workload(c)
    rh.eventually(lambda: rh.get_cost(server.endpoint), lambda r: rh.table_units(r, BLOBS) == (0.0, 2.0))
    before = ledger_state(server.endpoint)
    assert before[1][("us-east-1", ORDERS, None)] == (5.0, 12.0)
    assert server.stop() == 0

    server = launch_dynamod(data_dir=data_dir)
    after = ledger_state(server.endpoint)
    assert after == before
    # And it keeps counting.
    h.make_client(server.endpoint).put_item(TableName=BLOBS, Item={"id": B(b"\x07")})
    report = rh.eventually(lambda: rh.get_cost(server.endpoint), lambda r: rh.table_units(r, BLOBS) == (0.0, 3.0))
    assert rh.table_units(report, BLOBS) == (0.0, 3.0)


# The ledger is also saved every --ttl-interval seconds: usage older than a few intervals
# survives kill -9.
def test_ledger_saved_periodically(launch_dynamod, data_dir):
    server = launch_dynamod(args=["--ttl-interval", "0.2"], data_dir=data_dir)
    c = h.make_client(server.endpoint)
    rh.create_table(c, "Periodic")
    for i in range(7):
        c.put_item(TableName="Periodic", Item={"pk": S("k%d" % i)})
    c.get_item(TableName="Periodic", Key={"pk": S("k0")})
    rh.eventually(lambda: rh.get_cost(server.endpoint), lambda r: rh.table_units(r, "Periodic") == (0.5, 7.0))
    time.sleep(1.0)  # five save intervals
    server.kill9()

    server = launch_dynamod(args=["--ttl-interval", "0.2"], data_dir=data_dir)
    assert rh.table_units(rh.get_cost(server.endpoint), "Periodic") == (0.5, 7.0)
    p = rh.find_pattern(rh.get_patterns(server.endpoint), "PutItem Periodic: pk = *")
    assert p is not None and p["count"] == 7, p


# ---------------------------------------------------------------- --prices


def write_json(path, value):
    path.write_text(value if isinstance(value, str) else json.dumps(value))
    return str(path)


WRITES, READS = "OnlyWrites", "OnlyReads"


def pure_rw_tables(c, endpoint):
    """WRITES with 4 PutItems only, READS with 6 eventual GetItems of nothing only (3.0 RCU)."""
    rh.create_table(c, WRITES)
    rh.create_table(c, READS)
    for i in range(4):
        c.put_item(TableName=WRITES, Item={"pk": S("k%d" % i), "v": S("x" * 200)})
    for i in range(6):
        c.get_item(TableName=READS, Key={"pk": S("k%d" % i)})
    return rh.eventually(lambda: rh.get_cost(endpoint), lambda r: rh.table_units(r, READS) == (3.0, 0.0))


def priced_report(launch_dynamod, tmp_path, prices):
    """The cost report of a dynamod started with --prices (an eu-west-1 table) after the pure
    write and read tables' workload: (window seconds, writes' line, reads' line)."""
    server = launch_dynamod(args=["--prices", write_json(tmp_path / "prices.json", prices)], in_memory=True)
    c = h.make_client(server.endpoint)
    report = pure_rw_tables(c, server.endpoint)
    assert report["prices"] == "eu-west-1"
    return (report["window_seconds"], rh.cost_line(rh.cost_entry(report, WRITES)),
            rh.cost_line(rh.cost_entry(report, READS)))


# A full price table replaces us-east-1's: on-demand, provisioned, break-even and storage all
# follow it, and the report names its region.
def test_prices_file(launch_dynamod, tmp_path):
    prices = {"region": "eu-west-1",
              "standard": {"write_request_units_per_million": 1.0, "read_request_units_per_million": 0.5,
                           "wcu_hour": 0.001, "rcu_hour": 0.0004, "storage_gb_month": 0.5},
              "standard_ia": {"write_request_units_per_million": 2.0, "read_request_units_per_million": 1.0,
                              "wcu_hour": 0.002, "rcu_hour": 0.0008, "storage_gb_month": 0.2}}
    window, w, r = priced_report(launch_dynamod, tmp_path, prices)
    assert (w["read_units"], w["write_units"], r["read_units"], r["write_units"]) == (0.0, 4.0, 3.0, 0.0)
    assert_close(w["on_demand_monthly_usd"], rh.on_demand_monthly(0, 4.0, window, wru=1.0e-6), "W on-demand")
    assert_close(r["on_demand_monthly_usd"], rh.on_demand_monthly(3.0, 0, window, rru=0.5e-6), "R on-demand")
    # Break-even: unit-hour price / (3600 * request-unit price).
    assert_close(w["break_even_utilisation"], 0.001 / (3600 * 1.0e-6), "W break-even", rel=1e-4)
    assert_close(r["break_even_utilisation"], 0.0004 / (3600 * 0.5e-6), "R break-even", rel=1e-4)
    for line in (w, r):
        prov = line["provisioned"]
        assert_close(prov["monthly_usd"], (prov["read_capacity_units"] * 0.0004 + prov["write_capacity_units"] * 0.001)
                     * 730, "provisioned $")
        billable = line["billable_storage_bytes"]
        assert billable == line["storage_bytes"] + 100 * line["items"]
        assert rh.storage_price_ok(line["storage_standard_monthly_usd"], billable, 0.5), line
        assert rh.storage_price_ok(line["storage_standard_ia_monthly_usd"], billable, 0.2), line
    assert w["storage_bytes"] > 0
    assert_close(w["storage_standard_monthly_usd"] / w["storage_standard_ia_monthly_usd"], 2.5, "standard/IA")


# Members left out keep us-east-1's prices.
def test_prices_file_partial(launch_dynamod, tmp_path):
    prices = {"region": "eu-west-1", "standard": {"write_request_units_per_million": 1.0}}
    window, w, r = priced_report(launch_dynamod, tmp_path, prices)
    assert_close(w["on_demand_monthly_usd"], rh.on_demand_monthly(0, 4.0, window, wru=1.0e-6), "W on-demand")
    assert_close(r["on_demand_monthly_usd"], rh.on_demand_monthly(3.0, 0, window), "R on-demand (us-east-1)")
    assert_close(w["break_even_utilisation"], rh.WCU_HOUR / (3600 * 1.0e-6), "W break-even", rel=1e-4)
    assert_close(r["break_even_utilisation"], rh.BREAK_EVEN, "R break-even", rel=1e-4)
    for line in (w, r):
        billable = line["billable_storage_bytes"]
        assert rh.storage_price_ok(line["storage_standard_monthly_usd"], billable, rh.STORAGE_GB_MONTH), line
        assert rh.storage_price_ok(line["storage_standard_ia_monthly_usd"], billable, rh.STORAGE_IA_GB_MONTH), line


# A bad price file stops dynamod at startup with a message (never a server with made-up prices).
@pytest.mark.parametrize("content", [
    None,                                                      # no such file
    "{not json",
    json.dumps({"region": "eu-west-1", "standard": {"wcu_hour": "cheap"}}),
    json.dumps(["not", "an", "object"]),
], ids=["missing-file", "not-json", "price-not-a-number", "not-an-object"])
def test_bad_prices_file(dynamod_bin, tmp_path, content):
    path = tmp_path / "prices.json"
    if content is not None:
        path.write_text(content)
    if not os.path.exists(dynamod_bin):
        pytest.fail("dynamod binary not found at %s" % dynamod_bin)
    proc = subprocess.Popen([dynamod_bin, "--host", "127.0.0.1", "--port", "0", "--in-memory",
                             "--log-level", "warn", "--prices", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail("dynamod kept running with a bad --prices file: %r" % (out + err))
    assert proc.returncode != 0, (out, err)
    message = (out + err).decode("utf-8", "replace")
    assert "price" in message.lower(), "no message about the price file: %r" % message


# ---------------------------------------------------------------- the cost / patterns commands


def run_cli(dynamod_bin, *args):
    if not os.path.exists(dynamod_bin):
        pytest.fail("dynamod binary not found at %s" % dynamod_bin)
    env = dict(os.environ)
    env.pop("DYNAMOD_ENDPOINT", None)
    proc = subprocess.run([dynamod_bin] + list(args), capture_output=True, timeout=30, env=env)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


@pytest.fixture
def cli_server(launch_dynamod):
    server = launch_dynamod(in_memory=True)
    c = h.make_client(server.endpoint)
    create_workload_tables(c)
    run_workload(c)
    rh.eventually(lambda: rh.get_cost(server.endpoint), lambda r: rh.table_units(r, BLOBS) == (0.0, 2.0))
    return server


def test_cli_cost_table(dynamod_bin, cli_server):
    code, out, err = run_cli(dynamod_bin, "cost", "--endpoint", cli_server.endpoint)
    assert code == 0, (out, err)
    for name in (ORDERS, EVENTS, BLOBS, "GSI1", "Total per month"):
        assert name in out, (name, out)


def test_cli_cost_json(dynamod_bin, cli_server):
    code, out, err = run_cli(dynamod_bin, "cost", "--json", "--endpoint", cli_server.endpoint)
    assert code == 0, (out, err)
    report = json.loads(out)
    assert set(report) >= {"since", "window_seconds", "prices", "hours_per_month", "tables", "deleted_tables", "total"}
    assert report["since"] == rh.get_cost(cli_server.endpoint)["since"]
    for table, index, read, write in EXPECTED_UNITS:
        assert rh.table_units(report, table, index=index or None) == (read, write), (table, index)


def test_cli_patterns(dynamod_bin, cli_server):
    code, out, err = run_cli(dynamod_bin, "patterns", "--endpoint", cli_server.endpoint)
    assert code == 0, (out, err)
    for _, _, _, pattern, *_ in EXPECTED_PATTERNS:
        assert pattern in out, (pattern, out)
    assert "filter-waste" in out and "full-table-scan" in out
    code, out, err = run_cli(dynamod_bin, "patterns", "--json", "--endpoint", cli_server.endpoint)
    assert code == 0, (out, err)
    listed = {p["pattern"] for p in json.loads(out)["patterns"]}
    assert {pattern for _, _, _, pattern, *_ in EXPECTED_PATTERNS} <= listed


@pytest.mark.parametrize("command", ["cost", "patterns"])
def test_cli_reset_after_printing(dynamod_bin, cli_server, command):
    code, out, err = run_cli(dynamod_bin, command, "--reset", "--endpoint", cli_server.endpoint)
    assert code == 0, (out, err)
    assert (ORDERS if command == "cost" else "PutItem Orders: pk = USER#* AND sk = ORDER#*") in out, out
    report = rh.get_cost(cli_server.endpoint)
    assert rh.table_units(report, ORDERS) == (0.0, 0.0) and report["deleted_tables"] == []
    assert rh.get_patterns(cli_server.endpoint)["patterns"] == []


@pytest.mark.parametrize("command", ["cost", "patterns"])
def test_cli_connection_refused(dynamod_bin, command):
    port = h.free_port()  # nothing listens there
    code, out, err = run_cli(dynamod_bin, command, "--endpoint", "http://127.0.0.1:%d" % port)
    assert code == 1, (code, out, err)
    assert err.strip(), "no message on stderr"


# --metering off (for measuring what metering costs) records nothing: no units, no patterns,
# no request metrics; the reports still answer.
def test_metering_off_records_nothing(launch_dynamod):
    server = launch_dynamod(args=["--metering", "off"], in_memory=True)
    c = h.make_client(server.endpoint)
    rh.create_table(c, "Quiet")
    for i in range(3):
        c.put_item(TableName="Quiet", Item={"pk": S("k%d" % i)})
        c.get_item(TableName="Quiet", Key={"pk": S("k%d" % i)})
    assert rh.table_units(rh.get_cost(server.endpoint), "Quiet") == (0.0, 0.0)
    assert rh.get_patterns(server.endpoint)["patterns"] == []
    _, metrics = rh.get_metrics(server.endpoint)
    assert [s for s in metrics.samples if s[0].startswith(("dynamod_requests_total", "dynamod_consumed_"))] == []
