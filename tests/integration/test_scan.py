"""Scan: full scans, paging with Limit/ExclusiveStartKey, the 1 MB page, filters, projections,
Select, Count/ScannedCount, scans of indexes, ConsistentRead, parallel scan (segments are
disjoint and together return every item exactly once) and the Segment/TotalSegments errors.

Catalogue: /work/notes/errors-query-scan-update.md ("Scan"). Several Scan messages were
reworded region by region in September 2026; tests accept both cohorts.
"""
import pytest

import dynamo_helpers as h
from dynamo_helpers import coral_either, either_envelope, expect_error

dev = pytest.mark.dynamodb_local_deviation
VE = "ValidationException"
MB = 1024 * 1024
COUNT = 60  # items in the shared table

S = lambda v: {"S": v}  # noqa: E731
N = lambda v: {"N": v}  # noqa: E731


def ks(*pairs):
    return [{"AttributeName": n, "KeyType": t} for n, t in pairs]


def ad(*pairs):
    return [{"AttributeName": n, "AttributeType": t} for n, t in pairs]


@pytest.fixture(scope="module")
def tbl(dynamodb, module_tables):
    """pk S / sk N; 20 partitions x 3 items; GSI gsi (g S, KEYS_ONLY) on every other item."""
    name = module_tables(tag="scan", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                         AttributeDefinitions=ad(("pk", "S"), ("sk", "N"), ("g", "S")),
                         GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": ks(("g", "HASH")),
                                                  "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    items = []
    for i in range(COUNT):
        it = {"pk": S("p%02d" % (i // 3)), "sk": N(str(i % 3)), "n": N(str(i)), "x": S("x%d" % (i % 4))}
        if i % 2 == 0:
            it["g"] = S("G%d" % (i % 3))
        items.append(it)
    h.batch_put(dynamodb, name, items)
    h.wait_for_count(lambda: len(h.page_items(h.paginate(dynamodb.scan, TableName=name, IndexName="gsi"))),
                     COUNT // 2)  # GSIs are eventually consistent on the real service
    return name


def keys_of(items):
    return sorted((it["pk"]["S"], int(it["sk"]["N"])) for it in items)


ALL_KEYS = sorted(("p%02d" % (i // 3), i % 3) for i in range(COUNT))


# A Scan without Limit returns every item (the table is far below 1 MB), Count = ScannedCount,
# no LastEvaluatedKey; inside a partition items come in sort-key order.
def test_full_scan(dynamodb, tbl):
    resp = dynamodb.scan(TableName=tbl, ConsistentRead=True)
    assert keys_of(resp["Items"]) == ALL_KEYS
    assert resp["Count"] == resp["ScannedCount"] == COUNT and "LastEvaluatedKey" not in resp
    by_pk = {}
    for it in resp["Items"]:
        by_pk.setdefault(it["pk"]["S"], []).append(int(it["sk"]["N"]))
    assert all(v == sorted(v) for v in by_pk.values())


# Paging with Limit: every item exactly once; each page's LastEvaluatedKey is the key of its
# last item; the page that reaches the end exactly still carries a LastEvaluatedKey.
@pytest.mark.parametrize("limit", [1, 7, 20, 60, 61])
def test_paging(dynamodb, tbl, limit):
    pages = h.paginate(dynamodb.scan, TableName=tbl, Limit=limit, ConsistentRead=True)
    assert keys_of(h.page_items(pages)) == ALL_KEYS
    for page in pages:
        assert page["Count"] <= limit
        if page["Items"] and "LastEvaluatedKey" in page:
            last = page["Items"][-1]
            assert page["LastEvaluatedKey"] == {"pk": last["pk"], "sk": last["sk"]}
    if limit == COUNT:  # Limit reached exactly at the end: a LEK, then an empty last page
        assert pages[0]["Count"] == COUNT and "LastEvaluatedKey" in pages[0]
        assert len(pages) == 2 and pages[1]["Count"] == 0 and pages[1]["Items"] == []
    if limit > COUNT:
        assert len(pages) == 1 and "LastEvaluatedKey" not in pages[0]


# Filters: Count after, ScannedCount before the filter; key attributes may be filtered on in
# a Scan (unlike Query); Limit counts items read, not items returned.
def test_filter(dynamodb, tbl):
    resp = dynamodb.scan(TableName=tbl, ConsistentRead=True, FilterExpression="x = :x AND sk = :one",
                         ExpressionAttributeValues={":x": S("x1"), ":one": N("1")})
    assert keys_of(resp["Items"]) == sorted(("p%02d" % (i // 3), 1) for i in range(COUNT) if i % 4 == 1 and i % 3 == 1)
    assert resp["ScannedCount"] == COUNT and resp["Count"] == len(resp["Items"])
    resp = dynamodb.scan(TableName=tbl, Limit=10, ConsistentRead=True, FilterExpression="n < :z", ExpressionAttributeValues={":z": N("0")})
    assert resp["Items"] == [] and resp["Count"] == 0 and resp["ScannedCount"] == 10 and "LastEvaluatedKey" in resp


# Projections, Select=COUNT (no Items member) and SPECIFIC_ATTRIBUTES.
def test_projection_and_select(dynamodb, tbl):
    resp = dynamodb.scan(TableName=tbl, ConsistentRead=True, ProjectionExpression="n, absent")
    assert len(resp["Items"]) == COUNT and all(set(it) == {"n"} for it in resp["Items"])
    resp = dynamodb.scan(TableName=tbl, Select="SPECIFIC_ATTRIBUTES", ProjectionExpression="pk")
    assert all(set(it) == {"pk"} for it in resp["Items"])
    resp = dynamodb.scan(TableName=tbl, ConsistentRead=True, Select="COUNT", FilterExpression="x = :x",
                         ExpressionAttributeValues={":x": S("x0")})
    assert "Items" not in resp and resp["Count"] == COUNT // 4 and resp["ScannedCount"] == COUNT


# Scanning a GSI returns only items that have the index key (sparse index), with the
# projected attributes; its LastEvaluatedKey holds the table key plus the index key.
def test_scan_gsi(dynamodb, tbl):
    pages = h.paginate(dynamodb.scan, TableName=tbl, IndexName="gsi", Limit=7)
    items = h.page_items(pages)
    assert len(items) == COUNT // 2
    assert all(set(it) == {"pk", "sk", "g"} for it in items)
    assert set(pages[0]["LastEvaluatedKey"]) == {"pk", "sk", "g"}


# ConsistentRead is allowed on the table, refused on a GSI; unknown IndexName is refused.
def test_index_errors(dynamodb, tbl):
    dynamodb.scan(TableName=tbl, ConsistentRead=True, Limit=1)
    expect_error(lambda: dynamodb.scan(TableName=tbl, IndexName="gsi", ConsistentRead=True), VE,
                 either_envelope("Consistent reads are not supported on global secondary indexes"))
    expect_error(lambda: dynamodb.scan(TableName=tbl, IndexName="nope"), VE,
                 either_envelope("The table does not have the specified index: nope"))


# ---------------------------------------------------------------- parallel scan


# Each segment returns a disjoint part of the table; all segments together return every
# item exactly once (also when each segment is paged with Limit).
@pytest.mark.parametrize("total", [1, 2, 4, 7])
def test_parallel_scan(dynamodb, tbl, total):
    seen = []
    for seg in range(total):
        pages = h.paginate(dynamodb.scan, TableName=tbl, Segment=seg, TotalSegments=total, Limit=5,
                           ConsistentRead=True)
        seg_keys = keys_of(h.page_items(pages))
        assert not set(seg_keys) & set(seen), "segment %d overlaps an earlier one" % seg
        seen += seg_keys
    assert sorted(seen) == ALL_KEYS


# A partition is never split between segments (segments divide the hash space).
def test_parallel_scan_keeps_partitions_together(dynamodb, tbl):
    owner = {}
    for seg in range(4):
        for it in h.page_items(h.paginate(dynamodb.scan, TableName=tbl, Segment=seg, TotalSegments=4,
                                          ConsistentRead=True)):
            assert owner.setdefault(it["pk"]["S"], seg) == seg


# A LastEvaluatedKey from one segment cannot be used to continue another segment. (The text
# is not established for today's service - dynalite recorded "The provided starting key is
# invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment.
# TotalSegments: 4 Segment: 0"; DynamoDB Local says "Exclusive start key must lie within the
# segment" - so only the error type is asserted.)
def test_exclusive_start_key_of_other_segment(dynamodb, tbl):
    donor = next(seg for seg in range(1, 4)
                 if dynamodb.scan(TableName=tbl, Segment=seg, TotalSegments=4, Limit=1).get("LastEvaluatedKey"))
    esk = dynamodb.scan(TableName=tbl, Segment=donor, TotalSegments=4, Limit=1)["LastEvaluatedKey"]
    expect_error(lambda: dynamodb.scan(TableName=tbl, Segment=0, TotalSegments=4, ExclusiveStartKey=esk), VE)


# Segment and TotalSegments come together, 0 <= Segment < TotalSegments <= 1,000,000.
@pytest.mark.parametrize("kw,messages", [
    pytest.param({"Segment": 0}, ["The TotalSegments parameter is required but was not present in the request "
                                  "when Segment parameter is present"], id="segment-only",
                 marks=dev("'If segment is specified, total segment must also be specified'")),
    pytest.param({"Segment": 1}, ["The TotalSegments parameter is required but was not present in the request "
                                  "when Segment parameter is present"], id="segment-1-only",
                 marks=dev("'If segment is specified, total segment must also be specified'")),
    pytest.param({"TotalSegments": 4}, ["The Segment parameter is required but was not present in the request "
                                        "when parameter TotalSegments is present"], id="total-only",
                 marks=dev("'If total segments is specified, a particular segment must also be specified ...'")),
    pytest.param({"Segment": 5, "TotalSegments": 5},
                 ["The Segment parameter is zero-based and must be less than parameter TotalSegments: "
                  "Segment: 5 is not less than TotalSegments: 5",
                  "The Segment parameter is zero-based and must be less than parameter TotalSegments"],
                 id="segment-equals-total", marks=dev("Coral text about 'segment' <= TotalSegments-1")),
    pytest.param({"Segment": 7, "TotalSegments": 5},
                 ["The Segment parameter is zero-based and must be less than parameter TotalSegments: "
                  "Segment: 7 is not less than TotalSegments: 5",
                  "The Segment parameter is zero-based and must be less than parameter TotalSegments"],
                 id="segment-above-total", marks=dev("Coral text about 'segment' <= TotalSegments-1")),
    pytest.param({"Segment": -1, "TotalSegments": 4},
                 coral_either("segment", "Segment", -1, "Member must have value greater than or equal to 0"),
                 id="negative-segment", marks=dev("'Member must have value less than or equal to 3'")),
    pytest.param({"Segment": 0, "TotalSegments": 0},
                 coral_either("totalSegments", "TotalSegments", 0, "Member must have value greater than or equal to 1"),
                 id="total-zero", marks=dev("'Value '0' at 'segment' ... less than or equal to -1'")),
    pytest.param({"Segment": 0, "TotalSegments": 1000001},
                 coral_either("totalSegments", "TotalSegments", 1000001,
                              "Member must have value less than or equal to 1000000"), id="total-too-big"),
])
def test_segment_errors(unchecked, tbl, kw, messages):
    expect_error(lambda: unchecked.scan(TableName=tbl, **kw), VE, messages)


# The largest TotalSegments is accepted (most segments are then empty).
def test_total_segments_maximum(dynamodb, tbl):
    resp = dynamodb.scan(TableName=tbl, Segment=999999, TotalSegments=1000000)
    assert resp["Count"] == len(resp["Items"])


# ---------------------------------------------------------------- other errors


# Limit must be at least 1 (Scan's Coral wording changed in September 2026).
@pytest.mark.parametrize("limit", [0, -5])
@dev("'Limit must be greater than or equal to 1'")
def test_limit_bounds(unchecked, tbl, limit):
    expect_error(lambda: unchecked.scan(TableName=tbl, Limit=limit), VE,
                 coral_either("limit", "Limit", limit, "Member must have value greater than or equal to 1"))


# Select rules on Scan (bare text in the older cohort, enveloped in the newer one for
# SPECIFIC_ATTRIBUTES; the others are bare everywhere as far as captured).
@pytest.mark.parametrize("kw,message", [
    ({"Select": "SPECIFIC_ATTRIBUTES"},
     "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"),
    ({"Select": "ALL_PROJECTED_ATTRIBUTES"}, "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"),
    ({"Select": "COUNT", "ProjectionExpression": "n"},
     "Cannot specify the ProjectionExpression when choosing to get only the Count"),
    ({"Select": "ALL_ATTRIBUTES", "ProjectionExpression": "n"},
     "Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES"),
], ids=["specific", "all-projected", "count", "all-attributes"])
def test_select_errors(dynamodb, tbl, kw, message):
    expect_error(lambda: dynamodb.scan(TableName=tbl, **kw), VE, either_envelope(message))


# SPECIFIC_ATTRIBUTES without a projection: a Scan's text is bare (a Query's is enveloped).
def test_select_specific_without_projection_bare(dynamodb, tbl):
    expect_error(lambda: dynamodb.scan(TableName=tbl, Select="SPECIFIC_ATTRIBUTES"), VE,
                 "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES")


# ALL_ATTRIBUTES cannot be served from a KEYS_ONLY GSI.
def test_select_all_attributes_on_keys_only_gsi(dynamodb, tbl):
    expect_error(lambda: dynamodb.scan(TableName=tbl, IndexName="gsi", Select="ALL_ATTRIBUTES"), VE,
                 either_envelope("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not "
                                 "supported for global secondary index gsi because its projection type is not ALL"))


# ExclusiveStartKey must be the table's key; a Scan of the table completes the text with the
# schema sentence (a Query does not: test_query.py; docs/service-fidelity.md).
SCAN_ESK_INVALID = "The provided starting key is invalid: The provided key element does not match the schema"
@pytest.mark.parametrize("esk", [
    pytest.param({"pk": S("p00"), "zz": N("1")}, id="wrong-name", marks=dev("the bare sentence")),
    pytest.param({"pk": S("p00")}, id="missing-sort-key",
                 marks=dev("'Exclusive Start Key must have same size as table's key schema'")),
    pytest.param({"pk": S("p00"), "sk": N("1"), "x": S("x")}, id="extra",
                 marks=dev("'Exclusive Start Key must have same size as table's key schema'")),
    pytest.param({"pk": S("p00"), "sk": S("1")}, id="wrong-type", marks=dev("'Type mismatch for attribute to update'")),
])
def test_exclusive_start_key_errors(dynamodb, tbl, esk):
    expect_error(lambda: dynamodb.scan(TableName=tbl, ExclusiveStartKey=esk), VE, SCAN_ESK_INVALID)


# On a table without a sort key, an ExclusiveStartKey that carries one is refused, by Scan and
# Query alike (the key must be exactly the table's key).
@dev("'Exclusive Start Key must have same size as table's key schema'")
@pytest.mark.parametrize("op", ["scan", "query"])
def test_exclusive_start_key_sort_key_on_hash_table(dynamodb, module_tables, op):
    name = module_tables("hash", tag="eskh")
    esk = {"pk": S("p00"), "sk": N("1")}
    kw = {} if op == "scan" else {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": S("p00")}}
    expect_error(lambda: getattr(dynamodb, op)(TableName=name, ExclusiveStartKey=esk, **kw), VE,
                 SCAN_ESK_INVALID if op == "scan" else "The provided starting key is invalid")


# ExpressionAttributeValues given with no FilterExpression.
def test_values_without_filter(unchecked, tbl):
    expect_error(lambda: unchecked.scan(TableName=tbl, ProjectionExpression="n",
                                        ExpressionAttributeValues={":v": N("1")}), VE,
                 ["ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null",
                  h.ENVELOPE + "ExpressionAttributeValues can only be specified when using expressions"])


# A Scan of a missing table.
@dev("'Cannot do operations on a non-existent table'")
def test_missing_table(dynamodb):
    expect_error(lambda: dynamodb.scan(TableName=h.unique_name("none")), "ResourceNotFoundException",
                 "Requested resource not found")


# ---------------------------------------------------------------- the 1 MB page


@pytest.fixture(scope="module")
def big(dynamodb, module_tables):
    """300 items of 4,000 bytes (~1.2 MB), one per partition."""
    name = module_tables("hash", tag="scanbig")
    h.batch_put(dynamodb, name, [h.padded_item({"pk": S("b%03d" % i)}, 4000) for i in range(300)])
    return name


# The first page stops once 1 MB has been read; paging returns every item exactly once.
def test_one_megabyte_page(dynamodb, big):
    first = dynamodb.scan(TableName=big, ConsistentRead=True)
    assert 0 < first["Count"] < 300 and "LastEvaluatedKey" in first
    size = sum(h.item_size(it) for it in first["Items"])
    assert 0.9 * MB <= size <= MB + 4000, size  # at most one item past 1 MB
    assert first["LastEvaluatedKey"] == {"pk": first["Items"][-1]["pk"]}
    pages = h.paginate(dynamodb.scan, TableName=big, ConsistentRead=True)
    got = [it["pk"]["S"] for it in h.page_items(pages)]
    assert sorted(got) == ["b%03d" % i for i in range(300)] and len(pages) == 2


# The limit counts data read before the filter: a filter matching nothing still stops at 1 MB.
def test_one_megabyte_page_counts_before_filter(dynamodb, big):
    first = dynamodb.scan(TableName=big, ConsistentRead=True, FilterExpression="filler = :no", ExpressionAttributeValues={":no": S("no")})
    assert first["Count"] == 0 and 0 < first["ScannedCount"] < 300 and "LastEvaluatedKey" in first
