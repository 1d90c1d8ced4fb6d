"""Global secondary indexes with multi-attribute keys (since November 2025: up to four HASH and up
to four RANGE attributes in a GSI's KeySchema, each with its own type): CreateTable / UpdateTable
validation, DescribeTable, sparse membership across every key attribute, entries moving when any key
attribute changes, backfill, Query key conditions (every partition-key attribute with "=", then a
leading run of sort-key equalities and at most one range condition on the next), ordering by each
sort attribute in turn by its own type (mixed S, N, B), paging (LastEvaluatedKey carries every key
attribute), legacy KeyConditions, Scan and parallel Scan, PartiQL, ConsumedCapacity INDEXES, backup
and restore, and a restart of a data directory.

The developer guide ("Multi-attribute key schema", GSI chapter) and the API reference give the
rules but not the error messages; the messages asserted for multi-attribute keys are DynamoDB
Local 3.3's, the oracle where the documentation is silent. Messages that a single-attribute key
shares with the existing suites keep the service's wording (and their DynamoDB Local deviations).
"""
import decimal

import pytest

import dynamo_helpers as h
import index_helpers as ix
from dynamo_helpers import expect_error
from index_helpers import INVALID, VE, B, N, S, ad

dev = pytest.mark.dynamodb_local_deviation


def H(name):
    return {"AttributeName": name, "KeyType": "HASH"}


def R(name):
    return {"AttributeName": name, "KeyType": "RANGE"}


def multi_gsi(name, *elements, projection=None):
    return {"IndexName": name, "KeySchema": list(elements), "Projection": projection or {"ProjectionType": "ALL"}}


# The shared table: pk (S) alone; the index "mk_index" keyed by a (S), b (N) and x (S), y (N), z (B).
MK = multi_gsi("mk_index", H("a"), H("b"), R("x"), R("y"), R("z"))
DEFS = ad(("pk", "S"), ("a", "S"), ("b", "N"), ("x", "S"), ("y", "N"), ("z", "B"))
XS = ["x1", "x10", "x2"]                          # byte order: x1 < x10 < x2
YS = [-2, 1, 10]                                  # numeric order (not text order)
ZS = [b"\x00", b"\x00\x01", b"\x01", b"\xff"]     # byte order, with zero bytes


def item(pk, **attrs):
    out = {"pk": S(pk)}
    for k, v in attrs.items():
        out[k] = S(v) if isinstance(v, str) else B(v) if isinstance(v, bytes) else N(v)
    return out


ITEMS = []
for _a in ("A", "B"):
    for _b in (1, 2):
        for _x in XS:
            for _y in YS:
                for _z in ZS:
                    ITEMS.append(item("i%03d" % len(ITEMS), a=_a, b=_b, x=_x, y=_y, z=_z))
# Sparse: each lacks one key attribute of "mk_index", or has none.
SPARSE = [item("s-no-a", b=1, x="x1", y=1, z=b"\x01"), item("s-no-b", a="A", x="x1", y=1, z=b"\x01"),
          item("s-no-x", a="A", b=1, y=1, z=b"\x01"), item("s-no-z", a="A", b=1, x="x1", y=1),
          item("s-none", other="o")]


def order_key(it):
    return (it["x"]["S"].encode(), decimal.Decimal(it["y"]["N"]), bytes(it["z"]["B"]))


def pks(items):
    return [it["pk"]["S"] for it in items]


def expected(a="A", b=1, keep=lambda it: True):
    chosen = [it for it in ITEMS if it["a"]["S"] == a and it["b"]["N"] == str(b) and keep(it)]
    return pks(sorted(chosen, key=order_key))


@pytest.fixture(scope="module")
def mk_table(dynamodb, module_tables):
    name = module_tables(tag="mk", KeySchema=[H("pk")], AttributeDefinitions=DEFS, GlobalSecondaryIndexes=[MK])
    h.batch_put(dynamodb, name, ITEMS + SPARSE)
    ix.wait_for(lambda: len(ix.query_all(dynamodb, name, "mk_index")[0]), lambda n: n == len(ITEMS),
                what="mk holding every full item")
    return name


PARTITION = "a = :a AND b = :b"
PV = {":a": S("A"), ":b": N(1)}


def query(client, table, kce, values, **kw):
    return ix.index_items(client, table, "mk_index", kce, dict(PV, **values), **kw)


# ---------------------------------------------------------------- schema

# DescribeTable keeps the KeySchema as given: HASH elements, then RANGE elements, in order; ListTables
# lists the table (read from just before its name).
def test_describe_table_keeps_the_key_schema(dynamodb, mk_table):
    desc = dynamodb.describe_table(TableName=mk_table)["Table"]
    (index,) = desc["GlobalSecondaryIndexes"]
    assert index["IndexName"] == "mk_index" and index["IndexStatus"] == "ACTIVE"
    assert index["KeySchema"] == MK["KeySchema"]
    assert sorted(d["AttributeName"] for d in desc["AttributeDefinitions"]) == ["a", "b", "pk", "x", "y", "z"]
    assert mk_table in dynamodb.list_tables(ExclusiveStartTableName=mk_table[:-1], Limit=100)["TableNames"]


# The largest key: four HASH and four RANGE attributes, the table's own key among them, S/N/B mixed.
def test_four_and_four_attributes(dynamodb, table):
    schema = [H("pk"), H("p2"), H("p3"), H("p4"), R("s1"), R("s2"), R("s3"), R("s4")]
    name = table(KeySchema=[H("pk")], GlobalSecondaryIndexes=[multi_gsi("four", *schema)],
                 AttributeDefinitions=ad(("pk", "S"), ("p2", "N"), ("p3", "B"), ("p4", "S"), ("s1", "N"),
                                         ("s2", "B"), ("s3", "S"), ("s4", "N")))
    desc = dynamodb.describe_table(TableName=name)["Table"]
    assert desc["GlobalSecondaryIndexes"][0]["KeySchema"] == schema
    full = item("k", p2=1, p3=b"b", p4="p", s1=2, s2=b"s", s3="t", s4=3)
    dynamodb.put_item(TableName=name, Item=full)
    got = ix.wait_index_count(dynamodb, name, "four",
                              "pk = :pk AND p2 = :p2 AND p3 = :p3 AND p4 = :p4 AND s1 = :s1 AND s2 = :s2 AND s3 = :s3 "
                              "AND s4 >= :s4",
                              {":pk": S("k"), ":p2": N(1), ":p3": B(b"b"), ":p4": S("p"), ":s1": N(2),
                               ":s2": B(b"s"), ":s3": S("t"), ":s4": N(3)}, 1)
    assert got == [full]


def bad_schema(elements, defs):
    return dict(KeySchema=[H("pk")], AttributeDefinitions=ad(*[(d, "N" if d.startswith("n") else "S") for d in defs]),
                GlobalSecondaryIndexes=[multi_gsi("bad", *elements)], BillingMode="PAY_PER_REQUEST")


# Each rule of a multi-attribute KeySchema, with DynamoDB Local 3.3's message (the documentation
# gives the rules only): the total first, then the order of the roles, names used twice, each role's
# count, the definitions.
@pytest.mark.parametrize("elements, defs, message", [
    ([H("a"), H("b"), H("c"), H("d"), R("n1"), R("n2"), R("n3"), R("n4"), R("n5")],
     ["pk", "a", "b", "c", "d", "n1", "n2", "n3", "n4", "n5"],
     "Key Schema too big.  Key Schema must at most consist of the hash and range key of a table"),
    ([R("n1"), R("n2"), R("n3")], ["pk", "n1", "n2", "n3"],
     "No Hash Key specified in schema.  All Dynamo DB tables must have exactly one hash key"),
    ([H("a"), R("n1"), H("b")], ["pk", "a", "b", "n1"],
     "Invalid key order. Hash Key must be specified first in key schema, Range Key must be specifed second"),
    ([R("n1"), H("a"), H("a")], ["pk", "a", "n1"],
     "Invalid key order. Hash Key must be specified first in key schema, Range Key must be specifed second"),
    ([H("a"), H("a")], ["pk", "a"], "Two keys can not have the same name"),
    ([H("a"), R("n1"), R("n1")], ["pk", "a", "n1"], "Two keys can not have the same name"),
    ([H("a"), H("b"), H("c"), H("d"), H("e")], ["pk", "a", "b", "c", "d", "e"],
     "Too many partition keys. GSI can have at most 4 partition keys"),
    ([H("a"), H("b"), H("c"), H("d"), H("zz")], ["pk", "a", "b", "c", "d"],
     "Too many partition keys. GSI can have at most 4 partition keys"),
    ([H("a"), R("n1"), R("n2"), R("n3"), R("n4"), R("n5")], ["pk", "a", "n1", "n2", "n3", "n4", "n5"],
     "Too many sort keys. GSI can have at most 4 sort keys"),
    ([H("a"), H("zz")], ["pk", "a"], "Attribute zz is not defined in AttributeDefinitions"),
    ([H("a"), R("zz"), R("n1")], ["pk", "a", "n1"], "Attribute zz is not defined in AttributeDefinitions"),
], ids=["too-big", "no-hash", "hash-after-range", "order-before-duplicate", "hash-twice", "range-twice",
        "five-hash", "count-before-definition", "five-range", "undefined-hash", "undefined-range"])
def test_create_table_refuses_bad_multi_attribute_schemas(unchecked, elements, defs, message):
    expect_error(lambda: unchecked.create_table(TableName=h.unique_name("bad"), **bad_schema(elements, defs)),
                 VE, message)


# A definition no key uses is still refused (the service's message for any index).
def test_unused_definition_refused(unchecked):
    kw = bad_schema([H("a"), H("b")], ["pk", "a", "b", "c"])
    err = expect_error(lambda: unchecked.create_table(TableName=h.unique_name("bad"), **kw), VE)
    assert h.error_of(err)[1] in (
        INVALID + "Some AttributeDefinitions are not used. AttributeDefinitions: [a, b, c, pk], keys used: [a, b, pk]",
        "The number of attributes in key schema must match the number of attributes defined in attribute "
        "definitions.")


# Local secondary indexes keep one sort key: a KeySchema of three elements is refused.
def test_lsi_keeps_a_single_sort_key(unchecked):
    kw = dict(KeySchema=[H("pk"), R("sk")], AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("a", "S"), ("b", "S")),
              BillingMode="PAY_PER_REQUEST",
              LocalSecondaryIndexes=[multi_gsi("lsi", H("pk"), R("a"), R("b"))])
    expect_error(lambda: unchecked.create_table(TableName=h.unique_name("lsi"), **kw), VE)


# UpdateTable creates a multi-attribute index on a table with items; the backfill indexes exactly the
# items with every key attribute; DescribeTable shows its key.
def test_update_table_creates_and_backfills(dynamodb, table):
    name = table(KeySchema=[H("pk")], AttributeDefinitions=ad(("pk", "S")))
    h.batch_put(dynamodb, name, ITEMS[:24] + SPARSE)
    dynamodb.update_table(TableName=name, AttributeDefinitions=DEFS,
                          GlobalSecondaryIndexUpdates=[{"Create": MK}])
    ix.wait_for(lambda: ix.describe_index(dynamodb, name, "mk_index")["IndexStatus"], lambda s: s == "ACTIVE",
                what="mk ACTIVE")
    assert ix.describe_index(dynamodb, name, "mk_index")["KeySchema"] == MK["KeySchema"]
    got = ix.wait_index_count(dynamodb, name, "mk_index", PARTITION, PV, 24)
    assert pks(got) == pks(sorted(ITEMS[:24], key=order_key))


# ---------------------------------------------------------------- maintenance

# An item is in the index only with every key attribute (of the declared type): Scan of the index
# holds the full items and none of the sparse ones.
def test_sparse_across_every_key_attribute(dynamodb, mk_table):
    got = ix.query_all(dynamodb, mk_table, "mk_index")[0]
    assert sorted(pks(got)) == sorted(pks(ITEMS))


# Changing any one key attribute moves the entry: to another partition (a HASH attribute), to
# another place in the order (a RANGE attribute), out of the index (REMOVE), back in (SET).
def test_changing_any_key_attribute_moves_the_entry(dynamodb, table):
    name = table(KeySchema=[H("pk")], AttributeDefinitions=DEFS, GlobalSecondaryIndexes=[MK])
    dynamodb.put_item(TableName=name, Item=item("m", a="A", b=1, x="x1", y=1, z=b"\x01"))
    dynamodb.put_item(TableName=name, Item=item("n", a="A", b=1, x="x1", y=5, z=b"\x01"))
    count = lambda b: len(ix.index_items(dynamodb, name, "mk_index", PARTITION, {":a": S("A"), ":b": N(b)}))  # noqa: E731
    order = lambda: pks(ix.index_items(dynamodb, name, "mk_index", PARTITION, PV))  # noqa: E731
    assert ix.wait_for(order, lambda o: o == ["m", "n"]) == ["m", "n"]
    dynamodb.update_item(TableName=name, Key={"pk": S("m")}, UpdateExpression="SET y = :y",
                         ExpressionAttributeValues={":y": N(9)})
    assert ix.wait_for(order, lambda o: o == ["n", "m"]) == ["n", "m"]
    dynamodb.update_item(TableName=name, Key={"pk": S("m")}, UpdateExpression="SET b = :b",
                         ExpressionAttributeValues={":b": N(2)})
    assert ix.wait_for(lambda: (count(1), count(2)), lambda c: c == (1, 1)) == (1, 1)
    dynamodb.update_item(TableName=name, Key={"pk": S("m")}, UpdateExpression="REMOVE z")
    assert ix.wait_for(lambda: count(2), lambda c: c == 0) == 0
    dynamodb.update_item(TableName=name, Key={"pk": S("m")}, UpdateExpression="SET z = :z",
                         ExpressionAttributeValues={":z": B(b"\x00")})
    assert ix.wait_for(lambda: count(2), lambda c: c == 1) == 1
    dynamodb.delete_item(TableName=name, Key={"pk": S("m")})
    assert ix.wait_for(lambda: count(2), lambda c: c == 0) == 0


# A key attribute of the wrong type is refused for any attribute of the key, as for a single one.
@dev("type-mismatch text truncated after 'Type mismatch for Index Key'")
def test_wrong_type_for_a_later_key_attribute(dynamodb, mk_table):
    expect_error(lambda: dynamodb.put_item(TableName=mk_table, Item=item("bad", a="A", b="one")), VE,
                 INVALID + "Type mismatch for Index Key b Expected: N Actual: S IndexName: mk_index")
    expect_error(lambda: dynamodb.put_item(TableName=mk_table, Item=item("bad", y="one")), VE,
                 INVALID + "Type mismatch for Index Key y Expected: N Actual: S IndexName: mk_index")


# An empty S or B is refused for any key attribute (named by the index and the attribute).
def test_empty_value_for_a_later_key_attribute(dynamodb, mk_table):
    expect_error(lambda: dynamodb.put_item(TableName=mk_table, Item=item("bad", a="A", z=b"")), VE,
                 "One or more parameter values are not valid. A value specified for a secondary index key is not "
                 "supported. The AttributeValue for a key attribute cannot contain an empty binary value. "
                 "IndexName: mk_index, IndexKey: z")


# ---------------------------------------------------------------- Query


LEGAL = [
    ("", {}, lambda it: True),
    (" AND x = :x", {":x": S("x10")}, lambda it: it["x"]["S"] == "x10"),
    (" AND x > :x", {":x": S("x1")}, lambda it: it["x"]["S"] > "x1"),
    (" AND x <= :x", {":x": S("x10")}, lambda it: it["x"]["S"] <= "x10"),
    (" AND begins_with(x, :x)", {":x": S("x1")}, lambda it: it["x"]["S"].startswith("x1")),
    (" AND x = :x AND y = :y", {":x": S("x2"), ":y": N(1)}, lambda it: it["x"]["S"] == "x2" and it["y"]["N"] == "1"),
    (" AND x = :x AND y < :y", {":x": S("x2"), ":y": N(1)}, lambda it: it["x"]["S"] == "x2" and int(it["y"]["N"]) < 1),
    (" AND x = :x AND y >= :y", {":x": S("x2"), ":y": N(1)},
     lambda it: it["x"]["S"] == "x2" and int(it["y"]["N"]) >= 1),
    (" AND x = :x AND y BETWEEN :lo AND :hi", {":x": S("x1"), ":lo": N(-5), ":hi": N(1)},
     lambda it: it["x"]["S"] == "x1" and -5 <= int(it["y"]["N"]) <= 1),
    (" AND y > :y AND x = :x", {":x": S("x1"), ":y": N(-2)},   # any order of the terms
     lambda it: it["x"]["S"] == "x1" and int(it["y"]["N"]) > -2),
    (" AND x = :x AND y = :y AND z = :z", {":x": S("x1"), ":y": N(10), ":z": B(b"\x00\x01")},
     lambda it: (it["x"]["S"], it["y"]["N"], bytes(it["z"]["B"])) == ("x1", "10", b"\x00\x01")),
    (" AND x = :x AND y = :y AND z > :z", {":x": S("x1"), ":y": N(10), ":z": B(b"\x00")},
     lambda it: (it["x"]["S"], it["y"]["N"]) == ("x1", "10") and bytes(it["z"]["B"]) > b"\x00"),
    (" AND x = :x AND y = :y AND z < :z", {":x": S("x1"), ":y": N(10), ":z": B(b"\x00\x01")},
     lambda it: (it["x"]["S"], it["y"]["N"]) == ("x1", "10") and bytes(it["z"]["B"]) < b"\x00\x01"),
    (" AND x = :x AND y = :y AND begins_with(z, :z)", {":x": S("x1"), ":y": N(10), ":z": B(b"\x00")},
     lambda it: (it["x"]["S"], it["y"]["N"]) == ("x1", "10") and bytes(it["z"]["B"]).startswith(b"\x00")),
    (" AND x = :x AND y = :y AND z BETWEEN :lo AND :hi", {":x": S("x1"), ":y": N(10), ":lo": B(b"\x00\x01"),
                                                          ":hi": B(b"\x01")},
     lambda it: (it["x"]["S"], it["y"]["N"]) == ("x1", "10") and b"\x00\x01" <= bytes(it["z"]["B"]) <= b"\x01"),
]


# Every legal shape of key condition returns exactly the matching items, ordered by x (bytes), then y
# (numerically), then z (bytes), forward and backward.
@pytest.mark.parametrize("condition, values, keep", LEGAL, ids=[c or "partition" for c, _, _ in LEGAL])
def test_legal_key_conditions(dynamodb, mk_table, condition, values, keep):
    want = expected(keep=keep)
    assert want, "the case selects something"
    assert pks(query(dynamodb, mk_table, PARTITION + condition, values)) == want
    assert pks(query(dynamodb, mk_table, PARTITION + condition, values, ScanIndexForward=False)) == want[::-1]


ILLEGAL = [
    ("a = :a", {}, "HASH key attributes b must have equality conditions specified in the query"),
    ("x = :x", {":x": S("x1")}, "HASH key attributes a, b must have equality conditions specified in the query"),
    ("a = :a AND b > :b", {}, "HASH key attributes b must have equality conditions specified in the query"),
    (PARTITION + " AND y = :y", {":y": N(1)},
     "RANGE key attributes x must have equality conditions specified in the query because a condition is present "
     "on key attribute y"),
    (PARTITION + " AND z = :z", {":z": B(b"\x01")},
     "RANGE key attributes x, y must have equality conditions specified in the query because a condition is "
     "present on key attribute z"),
    (PARTITION + " AND x > :x AND y = :y", {":x": S("x1"), ":y": N(1)},
     "RANGE key attributes x must have equality conditions specified in the query because a condition is present "
     "on key attribute y"),
    (PARTITION + " AND x = :x AND x = :x", {":x": S("x1")},
     "KeyConditionExpressions must only contain one condition per key"),
    (PARTITION + " AND pk = :p", {":p": S("i000")}, "Query condition missed key schema element"),
    (PARTITION + " AND x = :x AND y = :y AND z = :z AND pk = :p",
     {":x": S("x1"), ":y": N(1), ":z": B(b"\x01"), ":p": S("i000")}, "Query key condition not supported"),
    (PARTITION + " AND x = :y", {":y": N(1)}, INVALID + "Condition parameter type does not match schema type"),
    (PARTITION + " AND x = :x", {":x": S("")},
     "One or more parameter values are not valid. A value specified for a secondary index key is not supported. "
     "The AttributeValue for a key attribute cannot contain an empty string value. IndexName: mk_index, IndexKey: x"),
    (PARTITION + " AND x = :x OR y = :y", {":x": S("x1"), ":y": N(1)},
     "Invalid operator used in KeyConditionExpression: OR"),
]


# Each violation of the rules with DynamoDB Local 3.3's message: the partition-key attributes
# without "=" (in key order), then the sort-key attributes before the last one tested that lack "=",
# then attributes of no key; a condition per attribute at most, no more conditions than attributes.
@pytest.mark.parametrize("condition, values, message", ILLEGAL,
                         ids=["partition-missing", "no-partition", "partition-range", "first-sort-skipped",
                              "two-sorts-skipped", "range-before-equality", "twice", "not-a-key", "too-many",
                              "mistyped", "empty", "or"])
def test_illegal_key_conditions(dynamodb, mk_table, condition, values, message):
    vals = {k: v for k, v in dict(PV, **values).items() if k in condition}
    expect_error(lambda: dynamodb.query(TableName=mk_table, IndexName="mk_index", KeyConditionExpression=condition,
                                        ExpressionAttributeValues=vals), VE, message)


# Paging with Limit: every LastEvaluatedKey holds the table's key and every index key attribute, and
# the pages together are the whole ordered result, forward and backward.
@pytest.mark.parametrize("forward", [True, False])
def test_paging_carries_every_key_attribute(dynamodb, mk_table, forward):
    pages = h.paginate(dynamodb.query, TableName=mk_table, IndexName="mk_index", KeyConditionExpression=PARTITION,
                       ExpressionAttributeValues=PV, Limit=5, ScanIndexForward=forward)
    keys = [p["LastEvaluatedKey"] for p in pages if "LastEvaluatedKey" in p]
    assert keys and all(sorted(k) == ["a", "b", "pk", "x", "y", "z"] for k in keys)
    want = expected()
    assert pks(h.page_items(pages)) == (want if forward else want[::-1])


# A start key outside the key condition is refused, its partition as its sort attributes, with the
# range key predicate's message (DynamoDB Local 3.3, for any key attribute of such an index).
@pytest.mark.parametrize("change", [{"a": S("B")}, {"b": N(2)}, {"x": S("x2")}], ids=["a", "b", "x"])
def test_start_key_outside_the_condition(dynamodb, mk_table, change):
    start = dict(ITEMS[0], **change)
    expect_error(lambda: dynamodb.query(TableName=mk_table, IndexName="mk_index",
                                        KeyConditionExpression=PARTITION + " AND x = :x",
                                        ExpressionAttributeValues=dict(PV, **{":x": S("x1")}), ExclusiveStartKey=start),
                 VE, "The provided starting key does not match the range key predicate")


# Legacy KeyConditions: one entry per key attribute, the same rules.
def test_legacy_key_conditions(dynamodb, mk_table):
    eq = lambda v: {"ComparisonOperator": "EQ", "AttributeValueList": [v]}  # noqa: E731
    got = h.page_items(h.paginate(dynamodb.query, TableName=mk_table, IndexName="mk_index", KeyConditions={
        "a": eq(S("A")), "b": eq(N(1)), "x": eq(S("x2")),
        "y": {"ComparisonOperator": "GT", "AttributeValueList": [N(-2)]}}))
    assert pks(got) == expected(keep=lambda it: it["x"]["S"] == "x2" and int(it["y"]["N"]) > -2)
    expect_error(lambda: dynamodb.query(TableName=mk_table, IndexName="mk_index",
                                        KeyConditions={"a": eq(S("A")), "b": eq(N(1)), "y": eq(N(1))}), VE,
                 "RANGE key attributes x must have equality conditions specified in the query because a condition "
                 "is present on key attribute y")


# A filter and a projection work on such an index as on any other; a filter may not test any of its
# key attributes.
def test_filter_and_projection(dynamodb, mk_table):
    got = query(dynamodb, mk_table, PARTITION + " AND x = :x", {":x": S("x1"), ":f": S(ITEMS[0]["pk"]["S"])},
                FilterExpression="pk = :f", ProjectionExpression="pk, z")
    assert got == [{"pk": ITEMS[0]["pk"], "z": ITEMS[0]["z"]}]
    expect_error(lambda: query(dynamodb, mk_table, PARTITION, {":f": N(1)}, FilterExpression="y = :f"), VE,
                 "Filter Expression can only contain non-primary key attributes: Primary key attribute: y")


# Scan and a two-segment parallel Scan of the index return its entries, each once.
def test_scan_and_parallel_scan(dynamodb, mk_table):
    whole = ix.query_all(dynamodb, mk_table, "mk_index")[0]
    parts = [ix.query_all(dynamodb, mk_table, "mk_index", Segment=i, TotalSegments=2)[0] for i in range(2)]
    assert sorted(pks(whole)) == sorted(pks(parts[0] + parts[1])) == sorted(pks(ITEMS))


# ConsumedCapacity INDEXES bills the index for what the Query read (eventually consistent: 0.5 per 4 KB).
def test_consumed_capacity_indexes(dynamodb, mk_table):
    r = dynamodb.query(TableName=mk_table, IndexName="mk_index", KeyConditionExpression=PARTITION + " AND x = :x",
                       ExpressionAttributeValues=dict(PV, **{":x": S("x1")}), ReturnConsumedCapacity="INDEXES")
    total, table_units, gsis, _ = ix.capacity_arms(r["ConsumedCapacity"])
    assert r["Count"] == len(YS) * len(ZS)
    assert (total, table_units, gsis) == (0.5, 0.0, {"mk_index": 0.5})


# PartiQL does not read a multi-attribute index (DynamoDB Local 3.3; the documentation is silent),
# whatever the WHERE clause; the table itself is read as ever.
@pytest.mark.parametrize("statement", ['SELECT * FROM "{t}"."mk_index"', "SELECT * FROM \"{t}\".\"mk_index\" WHERE a = 'A' AND b = 1"])
def test_partiql_refuses_a_multi_attribute_index(dynamodb, mk_table, statement):
    expect_error(lambda: dynamodb.execute_statement(Statement=statement.format(t=mk_table)), VE,
                 "PartiQL statements cannot be executed on tables with composite HASH keys or composite RANGE keys.")
    got = dynamodb.execute_statement(Statement="SELECT * FROM \"%s\" WHERE pk = 'i000'" % mk_table)["Items"]
    assert got == [ITEMS[0]]


# ---------------------------------------------------------------- backups, restarts

@dev("the backup operations are UnknownOperationException")
def test_backup_and_restore_keep_the_index(dynamodb, table):
    name = table(KeySchema=[H("pk")], AttributeDefinitions=DEFS, GlobalSecondaryIndexes=[MK])
    h.batch_put(dynamodb, name, ITEMS[:30])
    arn = dynamodb.create_backup(TableName=name, BackupName="mk_backup")["BackupDetails"]["BackupArn"]
    ix.wait_for(lambda: dynamodb.describe_backup(BackupArn=arn)["BackupDescription"]["BackupDetails"]["BackupStatus"],
                lambda s: s == "AVAILABLE", what="backup available")
    described = dynamodb.describe_backup(BackupArn=arn)["BackupDescription"]["SourceTableFeatureDetails"]
    assert described["GlobalSecondaryIndexes"][0]["KeySchema"] == MK["KeySchema"]
    target = h.unique_name("mk-restored")
    table.created.append(target)
    dynamodb.restore_table_from_backup(TargetTableName=target, BackupArn=arn)
    h.wait_active(dynamodb, target)
    assert ix.describe_index(dynamodb, target, "mk_index")["KeySchema"] == MK["KeySchema"]
    got = ix.wait_index_count(dynamodb, target, "mk_index", PARTITION, PV, 30)
    assert pks(got) == pks(sorted(ITEMS[:30], key=order_key))


@pytest.mark.needs_own_server
def test_restart_keeps_the_index(launch_dynamod, tmp_path):
    data_dir = str(tmp_path / "data")
    server = launch_dynamod(data_dir=data_dir)
    client = h.make_client(server.endpoint)
    name = h.unique_name("mk")
    client.create_table(TableName=name, KeySchema=[H("pk")], AttributeDefinitions=DEFS, GlobalSecondaryIndexes=[MK],
                        BillingMode="PAY_PER_REQUEST")
    h.batch_put(client, name, ITEMS[:24])
    server.stop()
    server = launch_dynamod(data_dir=data_dir)
    client = h.make_client(server.endpoint)
    assert client.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"][0]["KeySchema"] == MK["KeySchema"]
    got = ix.index_items(client, name, "mk_index", PARTITION + " AND x = :x", dict(PV, **{":x": S("x10")}))
    assert pks(got) == pks(sorted((it for it in ITEMS[:24] if it["x"]["S"] == "x10"), key=order_key))
