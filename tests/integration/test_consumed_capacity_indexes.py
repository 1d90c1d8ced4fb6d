"""ReturnConsumedCapacity with secondary indexes.

Writes: each index is charged for what happens to the item's ENTRY in it - put when the item enters,
delete + put (2) when the index key changes, delete when it leaves, nothing when the entry does not
change (non-projected attributes, identical overwrites) or the item is in neither version, one write
when only projected attributes change; entries are sized as projected (keys + projected attributes),
rounded up to 1 KB. Reads: a GSI Query is sized on the index entries it reads, an LSI Query too, and an
LSI read that needs non-projected attributes also pays a whole-item read per fetched item.

Shapes: INDEXES adds "Table" and per-index arms under GlobalSecondaryIndexes / LocalSecondaryIndexes;
an index with nothing to pay has no arm (the map is absent when empty); TOTAL folds everything into
CapacityUnits. Measured on AWS by the conformance suite (eu-west-2, 2026-08-12) for the write ladder;
DynamoDB Local agrees with every figure here. Specification: /work/notes/errors-indexes.md section 4.
"""
import itertools

import pytest

import dynamo_helpers as h
import index_helpers as ix
from index_helpers import S, ad, gsi, ks, lsi

dev = pytest.mark.dynamodb_local_deviation

_fresh = itertools.count()


def fresh():
    return "item-%d" % next(_fresh)


# ---------------------------------------------------------------- the write ladder
# pk/sk table; g_keys: GSI KEYS_ONLY on g; g_inc: GSI INCLUDE [p] on g; l_keys: LSI KEYS_ONLY on l.
@pytest.fixture(scope="module")
def amp(module_tables):
    return module_tables(tag="cci_amp", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                         AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("g", "S"), ("l", "S")),
                         GlobalSecondaryIndexes=[gsi("g_keys", "g", kind="KEYS_ONLY"), gsi("g_inc", "g", kind="INCLUDE", include=["p"])],
                         LocalSecondaryIndexes=[lsi("l_keys", "l", "KEYS_ONLY")])


FULL = {"g": S("G"), "l": S("L"), "p": S("p"), "y": S("y")}     # in g_keys, g_inc and l_keys
PLAIN = {"y": S("y")}                                            # in no index


def update(expr, values=None):
    def run(client, table, key):
        kw = {"ExpressionAttributeValues": values} if values else {}
        return client.update_item(TableName=table, Key=key, UpdateExpression=expr, ReturnConsumedCapacity="INDEXES", **kw)
    return run


def put(attrs):
    def run(client, table, key):
        return client.put_item(TableName=table, Item=dict(key, **attrs), ReturnConsumedCapacity="INDEXES")
    return run


def delete(client, table, key):
    return client.delete_item(TableName=table, Key=key, ReturnConsumedCapacity="INDEXES")


# (seed attributes or None, operation, expected (total, table, {gsi: units}, {lsi: units}))
LADDER = [
    ("put-enters-every-index", None, put(FULL), (4.0, 1.0, {"g_keys": 1.0, "g_inc": 1.0}, {"l_keys": 1.0})),
    ("put-outside-every-index", None, put(PLAIN), (1.0, 1.0, {}, {})),
    ("identical-overwrite", FULL, put(FULL), (1.0, 1.0, {}, {})),
    ("gsi-key-moves", FULL, update("SET g = :v", {":v": S("H")}), (5.0, 1.0, {"g_keys": 2.0, "g_inc": 2.0}, {})),
    ("gsi-key-removed", FULL, update("REMOVE g"), (3.0, 1.0, {"g_keys": 1.0, "g_inc": 1.0}, {})),
    ("gsi-key-added", PLAIN, update("SET g = :v", {":v": S("G")}), (3.0, 1.0, {"g_keys": 1.0, "g_inc": 1.0}, {})),
    ("non-projected-change", FULL, update("SET y = :v", {":v": S("z")}), (1.0, 1.0, {}, {})),
    ("projected-only-change", FULL, update("SET p = :v", {":v": S("q")}), (2.0, 1.0, {"g_inc": 1.0}, {})),
    ("lsi-key-moves", FULL, update("SET l = :v", {":v": S("M")}), (3.0, 1.0, {}, {"l_keys": 2.0})),
    ("delete-indexed-item", FULL, delete, (4.0, 1.0, {"g_keys": 1.0, "g_inc": 1.0}, {"l_keys": 1.0})),
    ("delete-unindexed-item", PLAIN, delete, (1.0, 1.0, {}, {})),
    ("delete-missing-item", None, delete, (1.0, 1.0, {}, {})),
]


# Each row of the amplification table, on a fresh item: the INDEXES shape with exactly the arms of
# the indexes that were written (no zero entries), and a total equal to table + indexes.
@pytest.mark.parametrize("seed,operation,expected", [row[1:] for row in LADDER], ids=[row[0] for row in LADDER])
def test_index_write_ladder(dynamodb, amp, seed, operation, expected):
    key = {"pk": S(fresh()), "sk": S("1")}
    if seed is not None:
        dynamodb.put_item(TableName=amp, Item=dict(key, **seed))
    cc = operation(dynamodb, amp, key)["ConsumedCapacity"]
    assert cc["TableName"] == amp
    assert ix.capacity_arms(cc) == expected
    if not expected[2]:
        assert "GlobalSecondaryIndexes" not in cc
    if not expected[3]:
        assert "LocalSecondaryIndexes" not in cc
    for arm in list(cc.get("GlobalSecondaryIndexes", {}).values()) + list(cc.get("LocalSecondaryIndexes", {}).values()):
        assert set(arm) == {"CapacityUnits"}


# TOTAL folds the index units into CapacityUnits and reports no arms.
def test_total_folds_index_units(dynamodb, amp):
    cc = dynamodb.put_item(TableName=amp, Item=dict({"pk": S(fresh()), "sk": S("1")}, **FULL),
                           ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]
    assert cc == {"TableName": amp, "CapacityUnits": 4.0}


# BatchWriteItem: one entry for the table, its arms summed over the items written.
def test_batch_write_sums_index_arms(dynamodb, amp):
    resp = dynamodb.batch_write_item(RequestItems={amp: [
        {"PutRequest": {"Item": dict({"pk": S(fresh()), "sk": S("1")}, g=S("G"), p=S("p"))}},
        {"PutRequest": {"Item": dict({"pk": S(fresh()), "sk": S("1")}, **PLAIN)}}]}, ReturnConsumedCapacity="INDEXES")
    assert len(resp["ConsumedCapacity"]) == 1
    assert ix.capacity_arms(resp["ConsumedCapacity"][0]) == (4.0, 2.0, {"g_keys": 1.0, "g_inc": 1.0}, {})


# ---------------------------------------------------------------- entry sizes
# A 5,000-byte item in a table with three GSIs on "a": KEYS_ONLY (entry ~20 bytes), INCLUDE [f]
# (f is the 4,990-byte padding, so the entry is ~5,000 bytes) and ALL. Index writes are sized on the
# entry, rounded up to 1 KB; a move pays for the old and the new entry.
@pytest.fixture(scope="module")
def sized(module_tables):
    return module_tables("hash", tag="cci_size", AttributeDefinitions=ad(("pk", "S"), ("a", "S")),
                         GlobalSecondaryIndexes=[gsi("s_keys", "a", kind="KEYS_ONLY"),
                                                 gsi("s_inc", "a", kind="INCLUDE", include=["f"]), gsi("s_all", "a")])


def test_index_writes_sized_by_projected_entry(dynamodb, sized):
    key = {"pk": S(fresh())}
    big = ix.sized_item(key, 5000, a="A")
    cc = dynamodb.put_item(TableName=sized, Item=big, ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert ix.capacity_arms(cc) == (16.0, 5.0, {"s_keys": 1.0, "s_inc": 5.0, "s_all": 5.0}, {})
    cc = dynamodb.update_item(TableName=sized, Key=key, UpdateExpression="SET a = :b", ExpressionAttributeValues={":b": S("B")},
                              ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert ix.capacity_arms(cc) == (27.0, 5.0, {"s_keys": 2.0, "s_inc": 10.0, "s_all": 10.0}, {})
    # Shrinking the projected padding: 1 write per index holding it, sized on the larger (old) entry;
    # the KEYS_ONLY entry does not change, so it costs nothing.
    cc = dynamodb.update_item(TableName=sized, Key=key, UpdateExpression="SET f = :y", ExpressionAttributeValues={":y": S("y")},
                              ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert ix.capacity_arms(cc) == (15.0, 5.0, {"s_inc": 5.0, "s_all": 5.0}, {})
    cc = dynamodb.delete_item(TableName=sized, Key=key, ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert ix.capacity_arms(cc) == (4.0, 1.0, {"s_keys": 1.0, "s_inc": 1.0, "s_all": 1.0}, {})


# The 1 KB boundary applies to the entry: the item is pk + a + f, so its INCLUDE [f] and ALL entries
# are the whole item - 1,024 bytes is 1 unit per index, 1,025 bytes 2 - while the KEYS_ONLY entry
# stays 1 unit.
@pytest.mark.parametrize("size,units", [(1024, 1.0), (1025, 2.0)])
def test_index_entry_rounding(dynamodb, sized, size, units):
    cc = dynamodb.put_item(TableName=sized, Item=ix.sized_item({"pk": S(fresh())}, size, a="A"),
                           ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert ix.capacity_arms(cc) == (3 * units + 1.0, units, {"s_keys": 1.0, "s_inc": units, "s_all": units}, {})


# ---------------------------------------------------------------- reads
# Ten 3,000-byte items in one partition (30,000 bytes, 8 x 4 KB), all in a KEYS_ONLY GSI, an ALL GSI
# and a KEYS_ONLY LSI.
READ_ITEMS = [ix.sized_item({"pk": S("P"), "sk": S("s%02d" % i)}, 3000, g="G", l="L%02d" % i) for i in range(10)]


@pytest.fixture(scope="module")
def reads(dynamodb, module_tables):
    name = module_tables(tag="cci_read", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                         AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("g", "S"), ("l", "S")),
                         GlobalSecondaryIndexes=[gsi("r_keys", "g", kind="KEYS_ONLY"), gsi("r_all", "g")],
                         LocalSecondaryIndexes=[lsi("r_lsi", "l", "KEYS_ONLY")])
    h.batch_put(dynamodb, name, READ_ITEMS)
    for index in ("r_keys", "r_all"):
        ix.wait_index_count(dynamodb, name, index, "g = :g", {":g": S("G")}, 10)
    return name


def gsi_read(client, table, index, **kw):
    resp = client.query(TableName=table, IndexName=index, KeyConditionExpression="g = :g",
                        ExpressionAttributeValues={":g": S("G")}, ReturnConsumedCapacity="INDEXES", **kw)
    return resp, resp["ConsumedCapacity"]


def lsi_read(client, table, consistent, **kw):
    resp = client.query(TableName=table, IndexName="r_lsi", KeyConditionExpression="pk = :p",
                        ExpressionAttributeValues={":p": S("P")}, ConsistentRead=consistent,
                        ReturnConsumedCapacity="INDEXES", **kw)
    return resp, resp["ConsumedCapacity"]


def assert_index_read(cc, table, total, gsis=None, lsis=None, table_units=None):
    """Shape of an index read: total, the index arm(s); the Table arm is absent or 0.0 when nothing
    was read from the table (DynamoDB Local sends 0.0; the service's form is not established)."""
    assert cc["TableName"] == table and cc["CapacityUnits"] == total
    assert {k: v["CapacityUnits"] for k, v in cc.get("GlobalSecondaryIndexes", {}).items()} == (gsis or {})
    assert {k: v["CapacityUnits"] for k, v in cc.get("LocalSecondaryIndexes", {}).items()} == (lsis or {})
    if table_units is None:
        assert cc.get("Table", {"CapacityUnits": 0.0}) == {"CapacityUnits": 0.0}
    else:
        assert cc["Table"] == {"CapacityUnits": table_units}


# A KEYS_ONLY GSI holds ~20-byte entries: reading all ten is one eventually consistent 4 KB read
# (0.5), whereas the ALL GSI reads the whole 30,000 bytes (8 x 4 KB x 0.5 = 4.0) - the same as an
# eventually consistent Query of the table.
def test_gsi_query_sized_on_entries(dynamodb, reads):
    resp, cc = gsi_read(dynamodb, reads, "r_keys")
    assert resp["Count"] == 10
    assert_index_read(cc, reads, 0.5, gsis={"r_keys": 0.5})
    resp, cc = gsi_read(dynamodb, reads, "r_all")
    assert_index_read(cc, reads, 4.0, gsis={"r_all": 4.0})
    resp, cc = gsi_read(dynamodb, reads, "r_all", Limit=3)          # 9,000 bytes -> 3 x 4 KB
    assert_index_read(cc, reads, 1.5, gsis={"r_all": 1.5})
    table_cc = dynamodb.query(TableName=reads, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("P")},
                              ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]
    assert table_cc == {"TableName": reads, "CapacityUnits": 4.0}


# TOTAL on an index read: just the total.
def test_gsi_query_total(dynamodb, reads):
    resp = dynamodb.query(TableName=reads, IndexName="r_keys", KeyConditionExpression="g = :g",
                          ExpressionAttributeValues={":g": S("G")}, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == {"TableName": reads, "CapacityUnits": 0.5}


# An LSI read of projected attributes is sized on the LSI entries, strong (1.0) or eventual (0.5),
# reported under LocalSecondaryIndexes.
@pytest.mark.parametrize("consistent,units", [(True, 1.0), (False, 0.5)])
def test_lsi_query_sized_on_entries(dynamodb, reads, consistent, units):
    resp, cc = lsi_read(dynamodb, reads, consistent)
    assert resp["Count"] == 10
    assert_index_read(cc, reads, units, lsis={"r_lsi": units})


# Fetching non-projected attributes through an LSI (Select=ALL_ATTRIBUTES) adds one whole-item read
# per fetched item, rounded up to 4 KB each (3,000 bytes -> 1 unit strong, 0.5 eventual), under "Table".
@pytest.mark.parametrize("consistent,lsi_units,table_units", [(True, 1.0, 10.0), (False, 0.5, 5.0)])
def test_lsi_fetch_billing(dynamodb, reads, consistent, lsi_units, table_units):
    resp, cc = lsi_read(dynamodb, reads, consistent, Select="ALL_ATTRIBUTES")
    assert resp["Items"] == sorted(READ_ITEMS, key=lambda i: i["l"]["S"])
    assert_index_read(cc, reads, lsi_units + table_units, lsis={"r_lsi": lsi_units}, table_units=table_units)


# A Scan of an LSI fetches as a Query does: the entries read bill the index, each fetched item
# the table. (The documentation's rule for LSI reads names no operation.)
@dev("a Scan of an LSI bills the whole items it fetches under the index, rounded once over the page, "
     "and 0.0 under Table; its Query bills as above")
@pytest.mark.parametrize("consistent,lsi_units,table_units", [(True, 1.0, 10.0), (False, 0.5, 5.0)])
def test_lsi_scan_fetch_billing(dynamodb, reads, consistent, lsi_units, table_units):
    resp = dynamodb.scan(TableName=reads, IndexName="r_lsi", Select="ALL_ATTRIBUTES", ConsistentRead=consistent,
                         ReturnConsumedCapacity="INDEXES")
    assert sorted(resp["Items"], key=lambda i: i["l"]["S"]) == sorted(READ_ITEMS, key=lambda i: i["l"]["S"])
    assert_index_read(resp["ConsumedCapacity"], reads, lsi_units + table_units, lsis={"r_lsi": lsi_units},
                      table_units=table_units)


# A projection naming only what the LSI holds (its keys and the table's) is served from the index:
# the documentation fetches "attributes that are not projected into the index", and only those.
@dev("fetches every item from the table for any ProjectionExpression on an LSI, even one naming "
     "only the index's keys (Table 10.0 here)")
def test_lsi_projection_of_projected_attributes_does_not_fetch(dynamodb, reads):
    resp, cc = lsi_read(dynamodb, reads, True, ProjectionExpression="pk, l")
    assert resp["Items"] == [{"pk": S("P"), "l": S("L%02d" % i)} for i in range(10)]
    assert_index_read(cc, reads, 1.0, lsis={"r_lsi": 1.0})


# A projection naming a non-projected attribute fetches too, only for the items read (Limit 2);
# Select=COUNT fetches nothing.
def test_lsi_fetch_only_items_read(dynamodb, reads):
    resp, cc = lsi_read(dynamodb, reads, True, ProjectionExpression="f", Limit=2)
    assert len(resp["Items"]) == 2
    assert_index_read(cc, reads, 3.0, lsis={"r_lsi": 1.0}, table_units=2.0)
    resp, cc = lsi_read(dynamodb, reads, True, Select="COUNT")
    assert resp["Count"] == 10
    assert_index_read(cc, reads, 1.0, lsis={"r_lsi": 1.0})
