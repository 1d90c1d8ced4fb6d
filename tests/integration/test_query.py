"""Query: key conditions of every form on S, N and B sort keys, ordering in both directions,
paging (Limit, ExclusiveStartKey, the 1 MB page), LastEvaluatedKey shapes for table and
index queries, Select, Count/ScannedCount with filters, projections, ConsistentRead, and the
operation-level errors.

Catalogue: /work/notes/errors-query-scan-update.md ("Query"). KeyConditionExpression
syntax errors belong to /work/notes/expressions.md.
"""
from decimal import Decimal

import pytest

import dynamo_helpers as h
from dynamo_helpers import ENVELOPE, coral_either, either_envelope, expect_error

dev = pytest.mark.dynamodb_local_deviation
VE = "ValidationException"
INVALID = "One or more parameter values were invalid: "
MB = 1024 * 1024

S = lambda v: {"S": v}  # noqa: E731
N = lambda v: {"N": v}  # noqa: E731
B = lambda v: {"B": v}  # noqa: E731

S_KEYS = ["A", "a", "aa", "ab", "b", "ba", "c", "z", "\u00e9"]  # UTF-8 byte order ("é" = C3 A9 > "z")
N_KEYS = ["-10", "-1.5", "0", "0.001", "1", "2", "10", "100", "1000"]  # numeric order
B_KEYS = [b"\x00", b"\x01", b"\x01\x02", b"\x7f", b"\x80", b"\xff", b"\xff\x00"]  # unsigned byte order


def ks(*pairs):
    return [{"AttributeName": n, "KeyType": t} for n, t in pairs]


def ad(*pairs):
    return [{"AttributeName": n, "AttributeType": t} for n, t in pairs]


@pytest.fixture(scope="module")
def tables(dynamodb, module_tables):
    """Four tables, filled once for the module.

    qs: pk S / sk S, GSI gsi (g S, gs N, KEYS_ONLY), GSI gsiall (g S, ALL), LSI lsi (l N, INCLUDE x)
    qn: pk S / sk N (also the 1.2 MB partition "big"); qb: pk S / sk B; orders: PK S / SK S.
    """
    qs = module_tables(tag="qs", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                       AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("g", "S"), ("gs", "N"), ("l", "N")),
                       GlobalSecondaryIndexes=[
                           {"IndexName": "gsi", "KeySchema": ks(("g", "HASH"), ("gs", "RANGE")),
                            "Projection": {"ProjectionType": "KEYS_ONLY"}},
                           {"IndexName": "gsiall", "KeySchema": ks(("g", "HASH")),
                            "Projection": {"ProjectionType": "ALL"}}],
                       LocalSecondaryIndexes=[
                           {"IndexName": "lsi", "KeySchema": ks(("pk", "HASH"), ("l", "RANGE")),
                            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["x"]}}])
    qn = module_tables("range", tag="qn")
    qb = module_tables(tag="qb", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                       AttributeDefinitions=ad(("pk", "S"), ("sk", "B")))
    orders = module_tables(tag="orders", KeySchema=ks(("PK", "HASH"), ("SK", "RANGE")),
                           AttributeDefinitions=ad(("PK", "S"), ("SK", "S")))
    items = []
    for i, k in enumerate(S_KEYS):
        items.append({"pk": S("p"), "sk": S(k), "g": S("G"), "gs": N(str(i)), "l": N(str(100 - i)),
                      "x": S("x%d" % i), "y": S("y%d" % i), "m": {"M": {"k": N(str(i)), "o": S("other")}}})
    items += [{"pk": S("other"), "sk": S(k)} for k in ("a", "b")]
    h.batch_put(dynamodb, qs, items)
    h.batch_put(dynamodb, qn, [{"pk": S("p"), "sk": N(k), "f": N(str(i % 3))} for i, k in enumerate(N_KEYS)])
    h.batch_put(dynamodb, qn, [h.padded_item({"pk": S("big"), "sk": N(str(i))}, 4000) for i in range(300)])
    h.batch_put(dynamodb, qb, [{"pk": S("p"), "sk": B(k)} for k in B_KEYS])
    h.batch_put(dynamodb, orders, ORDER_ITEMS)
    for index in ("gsi", "gsiall"):  # GSIs are eventually consistent on the real service
        h.wait_for_count(lambda: len(h.page_items(h.paginate(
            dynamodb.query, TableName=qs, IndexName=index, KeyConditionExpression="g = :g",
            ExpressionAttributeValues={":g": S("G")}))), len(S_KEYS))
    return {"qs": qs, "qn": qn, "qb": qb, "orders": orders}


def query(client, table, kce, values, names=None, **kw):
    """A Query; strongly consistent unless it targets a GSI (the data is written just before)."""
    if kw.get("IndexName") not in ("gsi", "gsiall"):
        kw.setdefault("ConsistentRead", True)
    args = dict(TableName=table, KeyConditionExpression=kce, ExpressionAttributeValues=values, **kw)
    if names:
        args["ExpressionAttributeNames"] = names
    return client.query(**args)


def sk_list(items, attr="sk"):
    return [next(iter(it[attr].values())) for it in items]


# ---------------------------------------------------------------- key conditions


def s_order(v):
    return v.encode()


def n_order(v):
    return Decimal(v)


def b_order(v):
    return v


def kc_cases(keys, order, wrap, absent, begins=None):
    """(label, condition, values, expected keys ascending) for every sort-key operator."""
    srt = sorted(keys, key=order)
    mid, lo, hi = srt[4], srt[2], srt[6]
    k = order
    cases = [
        ("eq", "sk = :v", {":v": wrap(mid)}, [x for x in srt if k(x) == k(mid)]),
        ("lt", "sk < :v", {":v": wrap(mid)}, [x for x in srt if k(x) < k(mid)]),
        ("le", "sk <= :v", {":v": wrap(mid)}, [x for x in srt if k(x) <= k(mid)]),
        ("gt", "sk > :v", {":v": wrap(mid)}, [x for x in srt if k(x) > k(mid)]),
        ("ge", "sk >= :v", {":v": wrap(mid)}, [x for x in srt if k(x) >= k(mid)]),
        ("between", "sk BETWEEN :a AND :b", {":a": wrap(lo), ":b": wrap(hi)},
         [x for x in srt if k(lo) <= k(x) <= k(hi)]),
        ("between-same", "sk BETWEEN :a AND :b", {":a": wrap(mid), ":b": wrap(mid)}, [mid]),
        ("eq-none", "sk = :v", {":v": wrap(absent)}, []),
    ]
    if begins is not None:
        prefix, expected = begins
        cases.append(("begins_with", "begins_with(sk, :v)", {":v": wrap(prefix)}, expected))
    return cases


S_CASES = kc_cases(S_KEYS, s_order, S, "abc", ("a", ["a", "aa", "ab"]))
S_CASES.append(("begins_with-utf8", "begins_with(sk, :v)", {":v": S("\u00e9")}, ["\u00e9"]))
S_CASES.append(("lt-case-sensitive", "sk < :v", {":v": S("a")}, ["A"]))
N_CASES = kc_cases(N_KEYS, n_order, N, "-99")
N_CASES.append(("eq-other-spelling", "sk = :v", {":v": N("1E+3")}, ["1000"]))
N_CASES.append(("between-decimals", "sk BETWEEN :a AND :b", {":a": N("-1.50"), ":b": N("0.0010")}, ["-1.5", "0", "0.001"]))
B_CASES = kc_cases(B_KEYS, b_order, B, b"\x02", (b"\x01", [b"\x01", b"\x01\x02"]))
B_CASES.append(("begins_with-ff", "begins_with(sk, :v)", {":v": B(b"\xff")}, [b"\xff", b"\xff\x00"]))


# Every sort-key operator on a string sort key, both directions: exactly the matching items,
# in UTF-8 byte order (reversed with ScanIndexForward=false).
@pytest.mark.parametrize("label,cond,values,expected", S_CASES, ids=[c[0] for c in S_CASES])
@pytest.mark.parametrize("forward", [True, False], ids=["fwd", "rev"])
def test_key_conditions_string(dynamodb, tables, label, cond, values, expected, forward):
    resp = query(dynamodb, tables["qs"], "pk = :p AND " + cond, dict(values, **{":p": S("p")}),
                 ScanIndexForward=forward)
    assert sk_list(resp["Items"]) == (expected if forward else expected[::-1])
    assert resp["Count"] == resp["ScannedCount"] == len(expected)
    assert "LastEvaluatedKey" not in resp


# Same for a number sort key: numeric order, numerically equal spellings match.
@pytest.mark.parametrize("label,cond,values,expected", N_CASES, ids=[c[0] for c in N_CASES])
@pytest.mark.parametrize("forward", [True, False], ids=["fwd", "rev"])
def test_key_conditions_number(dynamodb, tables, label, cond, values, expected, forward):
    resp = query(dynamodb, tables["qn"], "pk = :p AND " + cond, dict(values, **{":p": S("p")}),
                 ScanIndexForward=forward)
    assert sk_list(resp["Items"]) == (expected if forward else expected[::-1])
    assert "LastEvaluatedKey" not in resp


# Same for a binary sort key: unsigned byte order (0x80 sorts after 0x7f).
@pytest.mark.parametrize("label,cond,values,expected", B_CASES, ids=[c[0] for c in B_CASES])
@pytest.mark.parametrize("forward", [True, False], ids=["fwd", "rev"])
def test_key_conditions_binary(dynamodb, tables, label, cond, values, expected, forward):
    resp = query(dynamodb, tables["qb"], "pk = :p AND " + cond, dict(values, **{":p": S("p")}),
                 ScanIndexForward=forward)
    assert sk_list(resp["Items"]) == (expected if forward else expected[::-1])


# Partition-key-only queries return the whole partition and nothing of other partitions; a
# partition without items answers Count 0, ScannedCount 0, Items [] and no LastEvaluatedKey.
def test_partition_only(dynamodb, tables):
    resp = query(dynamodb, tables["qs"], "pk = :p", {":p": S("p")})
    assert sk_list(resp["Items"]) == S_KEYS and resp["Count"] == len(S_KEYS)
    resp = query(dynamodb, tables["qs"], "pk = :p", {":p": S("nobody")})
    assert resp["Items"] == [] and resp["Count"] == 0 and resp["ScannedCount"] == 0
    assert "LastEvaluatedKey" not in resp


# The key condition may name its attributes through placeholders and list the sort-key
# condition first.
def test_key_condition_placeholders_and_order(dynamodb, tables):
    resp = query(dynamodb, tables["qs"], "begins_with(#s, :a) AND #p = :p", {":p": S("p"), ":a": S("b")},
                 names={"#p": "pk", "#s": "sk"})
    assert sk_list(resp["Items"]) == ["b", "ba"]


# ---------------------------------------------------------------- paging


# Paging with Limit across page boundaries, both directions: the pages concatenate to the
# full result, each page has at most Limit items and its LastEvaluatedKey is the key of its
# last item.
@pytest.mark.parametrize("limit", [1, 2, 4])
@pytest.mark.parametrize("forward", [True, False], ids=["fwd", "rev"])
def test_paging_with_limit(dynamodb, tables, limit, forward):
    pages = h.paginate(dynamodb.query, TableName=tables["qs"], KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues={":p": S("p")}, Limit=limit, ScanIndexForward=forward,
                       ConsistentRead=True)
    assert sk_list(h.page_items(pages)) == (S_KEYS if forward else S_KEYS[::-1])
    for page in pages:
        assert page["Count"] <= limit
        if "LastEvaluatedKey" in page:
            last = page["Items"][-1]
            assert page["LastEvaluatedKey"] == {"pk": last["pk"], "sk": last["sk"]}


# Paging a range condition: the ExclusiveStartKey continues inside the condition.
@pytest.mark.parametrize("forward", [True, False], ids=["fwd", "rev"])
def test_paging_with_condition(dynamodb, tables, forward):
    pages = h.paginate(dynamodb.query, TableName=tables["qn"],
                       KeyConditionExpression="pk = :p AND sk BETWEEN :a AND :b",
                       ExpressionAttributeValues={":p": S("p"), ":a": N("-1.5"), ":b": N("10")},
                       Limit=2, ScanIndexForward=forward, ConsistentRead=True)
    expected = ["-1.5", "0", "0.001", "1", "2", "10"]
    assert sk_list(h.page_items(pages)) == (expected if forward else expected[::-1])


# When Limit is reached exactly at the last matching item the service does not look ahead:
# it still returns a LastEvaluatedKey, and the next page is empty with none. A Limit above
# the number of items gives no LastEvaluatedKey.
def test_limit_reached_exactly_at_end(dynamodb, tables):
    n = len(S_KEYS)
    resp = query(dynamodb, tables["qs"], "pk = :p", {":p": S("p")}, Limit=n)
    assert resp["Count"] == n and resp["LastEvaluatedKey"] == {"pk": S("p"), "sk": S(S_KEYS[-1])}
    tail = query(dynamodb, tables["qs"], "pk = :p", {":p": S("p")}, Limit=n,
                 ExclusiveStartKey=resp["LastEvaluatedKey"])
    assert tail["Items"] == [] and tail["Count"] == 0 and tail["ScannedCount"] == 0
    assert "LastEvaluatedKey" not in tail
    assert "LastEvaluatedKey" not in query(dynamodb, tables["qs"], "pk = :p", {":p": S("p")}, Limit=n + 1)


# The same with a sort-key condition: Limit reached at the last item of the range still gives a
# LastEvaluatedKey, though the partition's next item is outside the range ("If LastEvaluatedKey is
# not empty, it does not necessarily mean that there is more data", the developer guide).
@dev("looks ahead past the range's last item and gives no LastEvaluatedKey")
def test_limit_reached_exactly_at_end_of_range(dynamodb, tables):
    resp = query(dynamodb, tables["qs"], "pk = :p AND sk <= :b", {":p": S("p"), ":b": S("b")}, Limit=5)
    assert [i["sk"]["S"] for i in resp["Items"]] == ["A", "a", "aa", "ab", "b"]
    assert resp["LastEvaluatedKey"] == {"pk": S("p"), "sk": S("b")}
    tail = query(dynamodb, tables["qs"], "pk = :p AND sk <= :b", {":p": S("p"), ":b": S("b")}, Limit=5,
                 ExclusiveStartKey=resp["LastEvaluatedKey"])
    assert tail["Items"] == [] and "LastEvaluatedKey" not in tail


# An ExclusiveStartKey need not be an existing item: the query continues after that position.
@pytest.mark.parametrize("forward,expected", [(True, ["b", "ba", "c", "z", "\u00e9"]), (False, ["ab", "aa", "a", "A"])])
def test_exclusive_start_key_between_items(dynamodb, tables, forward, expected):
    resp = query(dynamodb, tables["qs"], "pk = :p", {":p": S("p")}, ScanIndexForward=forward,
                 ExclusiveStartKey={"pk": S("p"), "sk": S("ac")})
    assert sk_list(resp["Items"]) == expected


# Limit counts items read before the filter: Limit 3 with a filter keeping one of the first
# three gives Count 1, ScannedCount 3 and a LastEvaluatedKey on the third (unreturned) item.
def test_limit_counts_before_filter(dynamodb, tables):
    resp = query(dynamodb, tables["qs"], "pk = :p", {":p": S("p"), ":x": S("x1")}, Limit=3,
                 FilterExpression="x = :x")
    assert sk_list(resp["Items"]) == ["a"] and resp["Count"] == 1 and resp["ScannedCount"] == 3
    assert resp["LastEvaluatedKey"] == {"pk": S("p"), "sk": S("aa")}


# LastEvaluatedKey of an index query holds the table key plus the index key.
@pytest.mark.parametrize("index,kce,values,attrs", [
    ("gsi", "g = :g", {":g": S("G")}, {"pk", "sk", "g", "gs"}),
    ("gsiall", "g = :g", {":g": S("G")}, {"pk", "sk", "g"}),
    ("lsi", "pk = :p", {":p": S("p")}, {"pk", "sk", "l"}),
])
def test_index_last_evaluated_key_shape(dynamodb, tables, index, kce, values, attrs):
    resp = query(dynamodb, tables["qs"], kce, values, IndexName=index, Limit=2)
    assert set(resp["LastEvaluatedKey"]) == attrs
    last = resp["Items"][-1]
    assert resp["LastEvaluatedKey"] == {a: last[a] for a in attrs}
    rest = h.paginate(dynamodb.query, TableName=tables["qs"], IndexName=index, KeyConditionExpression=kce,
                      ExpressionAttributeValues=values, Limit=2, ExclusiveStartKey=resp["LastEvaluatedKey"])
    # (index paging: eventually consistent by necessity on a GSI; the fixture waited for it)
    assert len(resp["Items"]) + len(h.page_items(rest)) == len(S_KEYS)


# Index queries are ordered by the index sort key (the LSI's l = 100 - position runs
# opposite to sk; the GSI's gs follows it).
def test_index_ordering(dynamodb, tables):
    resp = query(dynamodb, tables["qs"], "pk = :p AND l >= :l", {":p": S("p"), ":l": N("97")}, IndexName="lsi")
    assert sk_list(resp["Items"]) == ["ab", "aa", "a", "A"]
    resp = query(dynamodb, tables["qs"], "g = :g AND gs < :n", {":g": S("G"), ":n": N("3")}, IndexName="gsi",
                 ScanIndexForward=False)
    assert sk_list(resp["Items"]) == ["aa", "a", "A"]


# ---------------------------------------------------------------- the 1 MB page


def big_query(client, table, **kw):
    return client.query(TableName=table, KeyConditionExpression="pk = :p", ConsistentRead=True,
                        ExpressionAttributeValues=dict({":p": S("big")}, **kw.pop("values", {})), **kw)


# 300 items of 4,000 bytes (~1.2 MB) in one partition: the first page stops once 1 MB has
# been read (the item crossing the limit is the last one returned), LastEvaluatedKey is its
# key, and paging returns every item exactly once, in order, in both directions.
@pytest.mark.parametrize("forward", [True, False], ids=["fwd", "rev"])
def test_one_megabyte_page(dynamodb, tables, forward):
    first = big_query(dynamodb, tables["qn"], ScanIndexForward=forward)
    items = first["Items"]
    assert 0 < first["Count"] < 300 and first["ScannedCount"] == first["Count"]
    size = sum(h.item_size(it) for it in items)
    # at most one item past 1 MB; the lower bound leaves room for any per-item overhead the
    # service may count internally (not documented)
    assert 0.9 * MB <= size <= MB + 4000, size
    assert first["LastEvaluatedKey"] == {"pk": S("big"), "sk": items[-1]["sk"]}
    pages = h.paginate(dynamodb.query, TableName=tables["qn"], KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues={":p": S("big")}, ScanIndexForward=forward, ConsistentRead=True)
    got = [int(x) for x in sk_list(h.page_items(pages))]
    assert got == (list(range(300)) if forward else list(range(299, -1, -1)))
    assert len(pages) == 2


# The 1 MB limit applies to the data read, before the filter: a filter matching nothing
# still ends the first page at 1 MB with Count 0 and a LastEvaluatedKey.
@dev("applies the 1 MB limit after the filter (reads the whole partition, no LastEvaluatedKey)")
def test_one_megabyte_page_counts_before_filter(dynamodb, tables):
    first = big_query(dynamodb, tables["qn"], FilterExpression="filler = :no", values={":no": S("no")})
    assert first["Count"] == 0 and first["Items"] == []
    assert 0 < first["ScannedCount"] < 300
    assert "LastEvaluatedKey" in first


# Projection and Select=COUNT do not change how much is read: the page ends at the same item.
def test_one_megabyte_page_projection_and_count(dynamodb, tables):
    plain = big_query(dynamodb, tables["qn"])
    projected = big_query(dynamodb, tables["qn"], ProjectionExpression="sk")
    counted = big_query(dynamodb, tables["qn"], Select="COUNT")
    assert projected["Count"] == counted["Count"] == plain["Count"]
    assert projected["LastEvaluatedKey"] == counted["LastEvaluatedKey"] == plain["LastEvaluatedKey"]
    assert all(set(it) == {"sk"} for it in projected["Items"])
    assert "Items" not in counted


# ---------------------------------------------------------------- Select, projections, counts


# Select=COUNT returns Count and ScannedCount and no Items member at all; with a filter
# Count is the number kept, ScannedCount the number read.
def test_select_count(dynamodb, tables):
    resp = query(dynamodb, tables["qn"], "pk = :p", {":p": S("p")}, Select="COUNT")
    assert "Items" not in resp and resp["Count"] == resp["ScannedCount"] == len(N_KEYS)
    resp = query(dynamodb, tables["qn"], "pk = :p", {":p": S("p"), ":z": N("0")}, Select="COUNT",
                 FilterExpression="f = :z")
    assert "Items" not in resp and resp["Count"] == 3 and resp["ScannedCount"] == len(N_KEYS)


# FilterExpression keeps matching items; Count/ScannedCount reflect after/before filtering.
def test_filter_counts(dynamodb, tables):
    resp = query(dynamodb, tables["qn"], "pk = :p AND sk >= :z", {":p": S("p"), ":z": N("0"), ":one": N("1")},
                 FilterExpression="f = :one")
    assert sk_list(resp["Items"]) == ["1", "100"] and resp["Count"] == 2 and resp["ScannedCount"] == 7


# ProjectionExpression / SPECIFIC_ATTRIBUTES: only the named paths (nested ones rebuilt inside
# their parents); key attributes only when asked for; an item without them comes back empty.
def test_projection(dynamodb, tables):
    resp = query(dynamodb, tables["qs"], "pk = :p AND sk = :s", {":p": S("p"), ":s": S("b")},
                 ProjectionExpression="x, m.k, absent")
    assert resp["Items"] == [{"x": S("x4"), "m": {"M": {"k": N("4")}}}]
    resp = query(dynamodb, tables["qs"], "pk = :p AND sk = :s", {":p": S("p"), ":s": S("b")},
                 ProjectionExpression="absent", Select="SPECIFIC_ATTRIBUTES")
    assert resp["Items"] == [{}] and resp["Count"] == 1


# Index queries return the projected attributes by default (ALL_PROJECTED_ATTRIBUTES):
# table key + index key (+ INCLUDEd attributes).
@pytest.mark.parametrize("index,kce,values,attrs", [
    ("gsi", "g = :g", {":g": S("G")}, {"pk", "sk", "g", "gs"}),
    ("lsi", "pk = :p", {":p": S("p")}, {"pk", "sk", "l", "x"}),
    ("gsiall", "g = :g", {":g": S("G")}, {"pk", "sk", "g", "gs", "l", "x", "y", "m"}),
])
@pytest.mark.parametrize("select", [None, "ALL_PROJECTED_ATTRIBUTES"])
def test_index_projected_attributes(dynamodb, tables, index, kce, values, attrs, select):
    kw = {"Select": select} if select else {}
    resp = query(dynamodb, tables["qs"], kce, values, IndexName=index, **kw)
    assert resp["Count"] == len(S_KEYS)
    assert all(set(it) == attrs for it in resp["Items"])


# Select=ALL_ATTRIBUTES on an LSI fetches the whole item from the table.
def test_lsi_all_attributes(dynamodb, tables):
    resp = query(dynamodb, tables["qs"], "pk = :p", {":p": S("p")}, IndexName="lsi", Select="ALL_ATTRIBUTES")
    assert all(set(it) == {"pk", "sk", "g", "gs", "l", "x", "y", "m"} for it in resp["Items"])


# ConsistentRead is allowed on the table and on an LSI, refused on a GSI.
def test_consistent_read(dynamodb, tables):
    query(dynamodb, tables["qs"], "pk = :p", {":p": S("p")}, ConsistentRead=True)
    query(dynamodb, tables["qs"], "pk = :p", {":p": S("p")}, IndexName="lsi", ConsistentRead=True)
    expect_error(lambda: query(dynamodb, tables["qs"], "g = :g", {":g": S("G")}, IndexName="gsi",
                               ConsistentRead=True),
                 VE, either_envelope("Consistent reads are not supported on global secondary indexes"))


# Filters may use attributes that are keys of *other* indexes, but not the keys of the
# table/index being queried (pk and sk on the table; g and gs on the GSI).
@pytest.mark.parametrize("index,kce,filt,bad", [
    (None, "pk = :p", "sk = :v", "sk"),
    (None, "pk = :p", "pk = :v", "pk"),
    (None, "pk = :p", "x = :v OR attribute_exists(sk)", "sk"),
    (None, "pk = :p", "size(sk) > :n", "sk"),
    ("gsi", "g = :g", "gs = :n", "gs"),
    ("lsi", "pk = :p", "l = :n", "l"),
])
def test_filter_on_key_attribute(dynamodb, tables, index, kce, filt, bad):
    values = {":p": S("p"), ":g": S("G"), ":v": S("b"), ":n": N("1")}
    values = {k: v for k, v in values.items() if k in kce or k in filt}
    kw = {"IndexName": index} if index else {}
    expect_error(lambda: query(dynamodb, tables["qs"], kce, values, FilterExpression=filt, **kw), VE,
                 either_envelope("Filter Expression can only contain non-primary key attributes: "
                                 "Primary key attribute: " + bad))


# ...whereas a table key attribute is a plain attribute in a GSI query's filter.
def test_filter_on_table_key_in_gsi_query(dynamodb, tables):
    resp = query(dynamodb, tables["qs"], "g = :g", {":g": S("G"), ":s": S("b")}, IndexName="gsi",
                 FilterExpression="sk = :s")
    assert sk_list(resp["Items"]) == ["b"]


# ---------------------------------------------------------------- composite sort keys


ORDER_ITEMS = (
    [{"PK": S("USER#1"), "SK": S("PROFILE"), "name": S("Ada")},
     {"PK": S("USER#1"), "SK": S("ORDER#2025-12-31#o0"), "total": N("5")},
     {"PK": S("USER#1"), "SK": S("ORDER#2026-02-01#o9"), "total": N("9")},
     {"PK": S("USER#1"), "SK": S("ORDER#2026-02#o10"), "total": N("10")},
     {"PK": S("USER#2"), "SK": S("ORDER#2026-01-15#x1"), "total": N("1")}]
    + [{"PK": S("USER#1"), "SK": S("ORDER#2026-01-%02d#o%d" % (d, d)), "total": N(str(d))} for d in range(1, 8)]
)
USER1_ORDERS = sorted(it["SK"]["S"] for it in ORDER_ITEMS if it["PK"]["S"] == "USER#1" and it["SK"]["S"].startswith("ORDER#"))


# The single-table pattern: begins_with(SK, "ORDER#") selects a user's orders (not the
# profile, not other users), in date order, both directions, across page boundaries.
@pytest.mark.parametrize("forward", [True, False], ids=["fwd", "rev"])
@pytest.mark.parametrize("limit", [None, 3])
def test_orders_begins_with(dynamodb, tables, forward, limit):
    kw = {"Limit": limit} if limit else {}
    pages = h.paginate(dynamodb.query, TableName=tables["orders"],
                       KeyConditionExpression="PK = :pk AND begins_with(SK, :prefix)",
                       ExpressionAttributeValues={":pk": S("USER#1"), ":prefix": S("ORDER#")},
                       ScanIndexForward=forward, ConsistentRead=True, **kw)
    got = sk_list(h.page_items(pages), "SK")
    assert got == (USER1_ORDERS if forward else USER1_ORDERS[::-1])
    if limit:
        assert len(pages) == 4 and all(p["Count"] <= 3 for p in pages)


# BETWEEN "ORDER#2026-01" AND "ORDER#2026-02" is a byte range: every January order, and
# "ORDER#2026-02" itself would match, but "ORDER#2026-02-01#..." and "ORDER#2026-02#..." sort
# after the upper bound and are excluded.
@pytest.mark.parametrize("forward", [True, False], ids=["fwd", "rev"])
@pytest.mark.parametrize("limit", [None, 2])
def test_orders_between_months(dynamodb, tables, forward, limit):
    kw = {"Limit": limit} if limit else {}
    pages = h.paginate(dynamodb.query, TableName=tables["orders"],
                       KeyConditionExpression="PK = :pk AND SK BETWEEN :from AND :to",
                       ExpressionAttributeValues={":pk": S("USER#1"), ":from": S("ORDER#2026-01"),
                                                  ":to": S("ORDER#2026-02")},
                       ScanIndexForward=forward, ConsistentRead=True, **kw)
    expected = ["ORDER#2026-01-%02d#o%d" % (d, d) for d in range(1, 8)]
    got = sk_list(h.page_items(pages), "SK")
    assert got == (expected if forward else expected[::-1])
    if limit:
        for page in pages[:-1]:
            assert page["LastEvaluatedKey"] == {"PK": S("USER#1"), "SK": page["Items"][-1]["SK"]}


# ---------------------------------------------------------------- errors


# Neither KeyConditions nor KeyConditionExpression.
def test_no_key_condition(unchecked, tables):
    expect_error(lambda: unchecked.query(TableName=tables["qs"]), VE,
                 either_envelope("Either the KeyConditions or KeyConditionExpression parameter must be specified "
                                 "in the request."))


# The partition key must be constrained with =; the sort key alone is not a query.
@pytest.mark.parametrize("kce,values,message", [
    pytest.param("sk = :v", {":v": S("a")}, "Query condition missed key schema element: pk", id="sort-key-only",
                 marks=dev("'Query condition missed key schema element' without the attribute name")),
    pytest.param("x = :v", {":v": S("a")}, "Query condition missed key schema element: pk", id="non-key",
                 marks=dev("'Query condition missed key schema element' without the attribute name")),
    pytest.param("pk = :p AND x = :v", {":p": S("p"), ":v": S("a")}, "Query condition missed key schema element: sk",
                 id="pk-and-non-key",
                 marks=dev("'Query condition missed key schema element' without the attribute name")),
    pytest.param("pk > :p", {":p": S("p")}, "Query key condition not supported", id="pk-range"),
    pytest.param("begins_with(pk, :p)", {":p": S("p")}, "Query key condition not supported", id="pk-begins"),
])
def test_key_condition_shape_errors(dynamodb, tables, kce, values, message):
    expect_error(lambda: query(dynamodb, tables["qs"], kce, values), VE, either_envelope(message))


# A key condition value of the wrong type for the key attribute.
@pytest.mark.parametrize("kce,values", [
    ("pk = :v", {":v": N("1")}),
    ("pk = :p AND sk > :v", {":p": S("p"), ":v": N("1")}),
])
def test_key_condition_type_mismatch(dynamodb, tables, kce, values):
    expect_error(lambda: query(dynamodb, tables["qs"], kce, values), VE,
                 either_envelope(INVALID + "Condition parameter type does not match schema type"))


# IndexName must name an index of the table.
def test_unknown_index(dynamodb, tables):
    expect_error(lambda: query(dynamodb, tables["qs"], "pk = :p", {":p": S("p")}, IndexName="nope"), VE,
                 either_envelope("The table does not have the specified index: nope"))


# Select rules. Query answers these inside the "1 validation error detected: " envelope
# (us-east-1, 2026); the bare text is the older form.
@pytest.mark.parametrize("kw,message", [
    ({"Select": "SPECIFIC_ATTRIBUTES"},
     "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"),
    ({"Select": "ALL_PROJECTED_ATTRIBUTES"}, "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"),
    ({"Select": "COUNT", "ProjectionExpression": "x"},
     "Cannot specify the ProjectionExpression when choosing to get only the Count"),
    ({"Select": "ALL_ATTRIBUTES", "ProjectionExpression": "x"},
     "Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES"),
    ({"Select": "ALL_PROJECTED_ATTRIBUTES", "ProjectionExpression": "x", "IndexName": "lsi"},
     "Cannot specify the ProjectionExpression when choosing to get ALL_PROJECTED_ATTRIBUTES"),
], ids=["specific-without-projection", "all-projected-without-index", "count-with-projection",
        "all-attributes-with-projection", "all-projected-with-projection"])
def test_select_errors(dynamodb, tables, kw, message):
    expect_error(lambda: query(dynamodb, tables["qs"], "pk = :p", {":p": S("p")}, **kw), VE,
                 either_envelope(message))


# SPECIFIC_ATTRIBUTES without a projection: a Query's text is enveloped (a Scan's is bare:
# test_scan.py; the service, 2026, docs/service-fidelity.md).
@dev("answers the bare sentence")
def test_select_specific_without_projection_enveloped(dynamodb, tables):
    expect_error(lambda: query(dynamodb, tables["qs"], "pk = :p", {":p": S("p")}, Select="SPECIFIC_ATTRIBUTES"), VE,
                 ENVELOPE + "Must specify the AttributesToGet or ProjectionExpression when choosing to get "
                 "SPECIFIC_ATTRIBUTES")


# Of several errors in one read, the first in this order is named (DynamoDB Local; the service's
# order is not documented): a strongly consistent read of a GSI, the key condition, the filter's
# key attributes, ExclusiveStartKey, filter attributes the index lacks, Select against the
# projection, attributes asked for that a GSI lacks.
CONSISTENT_GSI = "Consistent reads are not supported on global secondary indexes"
GSI_KC = {"KeyConditionExpression": "g = :g", "ExpressionAttributeValues": {":g": S("G")}, "IndexName": "gsi"}
LSI_KC = {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": S("p")}, "IndexName": "lsi"}
TABLE_KC = {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": S("p")}}


@pytest.mark.parametrize("operation,kw,message", [
    pytest.param("query", dict(GSI_KC, ConsistentRead=True, KeyConditionExpression="gs = :g"), CONSISTENT_GSI,
                 id="consistent-before-key-condition"),
    pytest.param("query", dict(GSI_KC, ConsistentRead=True, ExpressionAttributeValues={":g": S("G"), ":e": S("")},
                               KeyConditionExpression="g = :g AND begins_with(gs, :e)"), CONSISTENT_GSI,
                 id="consistent-before-empty-key"),
    pytest.param("query", dict(GSI_KC, ConsistentRead=True, FilterExpression="gs = :g"), CONSISTENT_GSI,
                 id="consistent-before-filter-key"),
    pytest.param("query", dict(GSI_KC, ConsistentRead=True, Select="ALL_ATTRIBUTES"), CONSISTENT_GSI,
                 id="consistent-before-select"),
    pytest.param("scan", dict(IndexName="gsi", ConsistentRead=True, Select="ALL_ATTRIBUTES"), CONSISTENT_GSI,
                 id="scan-consistent-before-select"),
    # A Scan looks its index up and checks ConsistentRead before reading its expressions; a
    # Query reads them first.
    pytest.param("scan", dict(IndexName="gsi", ConsistentRead=True, FilterExpression="begins_with(a, :n)",
                              ExpressionAttributeValues={":n": N("1")}), CONSISTENT_GSI,
                 id="scan-consistent-before-filter-operand"),
    pytest.param("scan", dict(IndexName="gsi", ConsistentRead=True, FilterExpression="a = = :n"), CONSISTENT_GSI,
                 id="scan-consistent-before-syntax"),
    pytest.param("scan", dict(IndexName="gsi", ConsistentRead=True, ExpressionAttributeValues={":n": N("1")}),
                 CONSISTENT_GSI, id="scan-consistent-before-values-without-expression"),
    pytest.param("scan", dict(IndexName="nope", FilterExpression="a = = :n"),
                 "The table does not have the specified index: nope", id="scan-index-before-syntax"),
    pytest.param("query", dict(GSI_KC, ConsistentRead=True, FilterExpression="begins_with(a, :n)",
                               ExpressionAttributeValues={":g": S("G"), ":n": N("1")}),
                 "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: "
                 "begins_with, operand type: N", id="query-filter-operand-before-consistent"),
    pytest.param("query", dict(GSI_KC, Select="ALL_ATTRIBUTES", ExclusiveStartKey={"zz": S("a")}),
                 "The provided starting key is invalid", id="start-key-before-select"),
    pytest.param("query", dict(GSI_KC, FilterExpression="zz = :g", ExclusiveStartKey={"zz": S("a")}),
                 "The provided starting key is invalid", id="start-key-before-unprojected-filter"),
    pytest.param("query", dict(LSI_KC, Select="ALL_ATTRIBUTES", ProjectionExpression="a", FilterExpression="zz = :p"),
                 INVALID + "Secondary index lsi does not project one or more filter attributes: [zz]",
                 id="unprojected-filter-before-select"),
    pytest.param("query", dict(TABLE_KC, Select="ALL_PROJECTED_ATTRIBUTES", ProjectionExpression="a"),
                 "Cannot specify the ProjectionExpression when choosing to get ALL_PROJECTED_ATTRIBUTES",
                 id="projection-before-index-for-all-projected"),
    pytest.param("scan", dict(Select="ALL_PROJECTED_ATTRIBUTES", ProjectionExpression="a"),
                 "Cannot specify the ProjectionExpression when choosing to get ALL_PROJECTED_ATTRIBUTES",
                 id="scan-projection-before-index-for-all-projected"),
    # A Scan checks Select before the key paths; a Query after them.
    pytest.param("scan", dict(Select="SPECIFIC_ATTRIBUTES", FilterExpression="g.x = :g",
                              ExpressionAttributeValues={":g": S("G")}),
                 "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES",
                 id="scan-select-before-key-path"),
    pytest.param("scan", dict(Select="COUNT", ProjectionExpression="g.x"),
                 "Cannot specify the ProjectionExpression when choosing to get only the Count",
                 id="scan-count-before-key-path"),
    pytest.param("scan", dict(IndexName="gsi", Select="ALL_ATTRIBUTES", FilterExpression="pk.x = :g",
                              ExpressionAttributeValues={":g": S("G")}),
                 INVALID + "Select type ALL_ATTRIBUTES is not supported for global secondary index gsi because its "
                 "projection type is not ALL", id="scan-all-attributes-before-key-path"),
    pytest.param("scan", dict(IndexName="gsi", Select="ALL_ATTRIBUTES", ExclusiveStartKey={"zz": S("a")}),
                 "The provided starting key is invalid", id="scan-start-key-before-select"),
    pytest.param("query", dict(TABLE_KC, Select="SPECIFIC_ATTRIBUTES", FilterExpression="g.x = :p"),
                 "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: "
                 "IndexKey: g", id="query-key-path-before-select"),
])
def test_read_error_order(dynamodb, tables, operation, kw, message):
    expect_error(lambda: getattr(dynamodb, operation)(TableName=tables["qs"], **kw), VE, either_envelope(message))


# ALL_ATTRIBUTES on a GSI whose projection is not ALL cannot be served.
def test_select_all_attributes_on_keys_only_gsi(dynamodb, tables):
    expect_error(lambda: query(dynamodb, tables["qs"], "g = :g", {":g": S("G")}, IndexName="gsi",
                               Select="ALL_ATTRIBUTES"), VE,
                 either_envelope(INVALID + "Select type ALL_ATTRIBUTES is not supported for global secondary index "
                                 "gsi because its projection type is not ALL"))


# Projecting an attribute a GSI does not hold is refused (text not established for the
# service; DynamoDB Local: "One or more parameter values were invalid: Global secondary
# index gsi does not project [y]").
def test_projection_of_unprojected_gsi_attribute(dynamodb, tables):
    expect_error(lambda: query(dynamodb, tables["qs"], "g = :g", {":g": S("G")}, IndexName="gsi",
                               ProjectionExpression="y"), VE)


# The attributes are named in the order of a java.util.HashSet that the ProjectionExpression's
# paths entered last to first, or the AttributesToGet first to last (DynamoDB Local's text; the
# service's is not documented). "bb" and "zz" share a bucket; 13 names make the set grow to 32
# buckets, where "b0" comes before "a1".
THIRTEEN = ["a1", "b0", "c", "d", "e", "f", "h", "i", "j", "k", "l", "pk", "g"]


@pytest.mark.parametrize("operation", ["query", "scan"])
@pytest.mark.parametrize("kw,named", [
    pytest.param({"ProjectionExpression": "m, s"}, "s, m", id="buckets"),
    pytest.param({"ProjectionExpression": "bb, zz"}, "zz, bb", id="one-bucket-last-first"),
    pytest.param({"ProjectionExpression": "zz, bb"}, "bb, zz", id="one-bucket-reversed"),
    pytest.param({"ProjectionExpression": "bb.x, zz, bb.y"}, "bb, zz", id="last-path-of-a-root"),
    pytest.param({"ProjectionExpression": "zz[0], bb, pk, zz[1]"}, "zz, bb", id="projected-left-out"),
    pytest.param({"ProjectionExpression": ", ".join(THIRTEEN)}, "c, d, e, f, h, i, j, k, l, b0, a1",
                 id="grown-set"),
    pytest.param({"AttributesToGet": ["bb", "zz"]}, "bb, zz", id="attributes-to-get"),
    pytest.param({"AttributesToGet": ["zz", "bb"]}, "zz, bb", id="attributes-to-get-reversed"),
])
def test_unprojected_gsi_attributes_named_in_set_order(dynamodb, tables, operation, kw, named):
    if operation == "query":
        condition = ({"KeyConditions": {"g": {"ComparisonOperator": "EQ", "AttributeValueList": [S("G")]}}}
                     if "AttributesToGet" in kw else
                     {"KeyConditionExpression": "g = :g", "ExpressionAttributeValues": {":g": S("G")}})
        call = lambda: dynamodb.query(TableName=tables["qs"], IndexName="gsi", **condition, **kw)
    else:
        call = lambda: dynamodb.scan(TableName=tables["qs"], IndexName="gsi", **kw)
    expect_error(call, VE, INVALID + "Global secondary index gsi does not project [%s]" % named)


# Select must be one of the four values.
@dev("'Select must be ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, COUNT, or SPECIFIC_ATTRIBUTES'")
def test_select_enum(unchecked, tables):
    expect_error(lambda: unchecked.query(TableName=tables["qs"], KeyConditionExpression="pk = :p",
                                         ExpressionAttributeValues={":p": S("p")}, Select="BOGUS"), VE,
                 "1 validation error detected: Value 'BOGUS' at 'select' failed to satisfy constraint: "
                 "Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, "
                 "ALL_PROJECTED_ATTRIBUTES]")


# Limit must be at least 1 (Coral constraint; wording mid-rollout).
@pytest.mark.parametrize("limit", [0, -1])
@dev("'Limit must be greater than or equal to 1'")
def test_limit_bounds(unchecked, tables, limit):
    expect_error(lambda: unchecked.query(TableName=tables["qs"], KeyConditionExpression="pk = :p",
                                         ExpressionAttributeValues={":p": S("p")}, Limit=limit), VE,
                 coral_either("limit", "Limit", limit, "Member must have value greater than or equal to 1"))


# ExpressionAttributeValues that the expressions do not use are refused.
def test_unused_expression_attribute_value(dynamodb, tables):
    expect_error(lambda: query(dynamodb, tables["qs"], "pk = :p", {":p": S("p"), ":u": S("u")}), VE,
                 either_envelope("Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}"))


ESK_INVALID = "The provided starting key is invalid"


# ExclusiveStartKey must be exactly the key of the table (plus the index key for an index
# query) with the right types, and inside the key condition.
@pytest.mark.parametrize("index,kce,values,esk,messages", [
    pytest.param(None, "pk = :p", {":p": S("p")}, {"pk": S("p"), "zz": S("a")}, ESK_INVALID, id="wrong-name"),
    pytest.param(None, "pk = :p", {":p": S("p")}, {}, ESK_INVALID, id="empty"),
    pytest.param(None, "pk = :p", {":p": S("p")}, {"pk": S("p")}, ESK_INVALID, id="missing-sort-key",
                 marks=dev("'Exclusive Start Key must have same size as table's key schema'")),
    pytest.param(None, "pk = :p", {":p": S("p")}, {"pk": S("p"), "sk": S("a"), "x": S("x")}, ESK_INVALID,
                 id="extra-attribute", marks=dev("'Exclusive Start Key must have same size as table's key schema'")),
    pytest.param(None, "pk = :p", {":p": S("p")}, {"pk": S("p"), "sk": N("1")},
                 [ESK_INVALID, "The provided key element does not match the schema"], id="wrong-type",
                 marks=dev("'Type mismatch for attribute to update'")),
    pytest.param(None, "pk = :p", {":p": S("p")}, {"pk": S("other"), "sk": S("a")},
                 "The provided starting key is outside query boundaries based on provided conditions",
                 id="other-partition", marks=dev("'The provided starting key does not match the range key predicate'")),
    pytest.param(None, "pk = :p AND sk > :s", {":p": S("p"), ":s": S("b")}, {"pk": S("p"), "sk": S("a")},
                 "The provided starting key does not match the range key predicate", id="outside-range-condition"),
    pytest.param("gsi", "g = :g", {":g": S("G")}, {"pk": S("p"), "sk": S("a")}, ESK_INVALID, id="gsi-table-key-only"),
    pytest.param("gsi", "g = :g", {":g": S("G")}, {"g": S("G"), "gs": N("1")}, ESK_INVALID, id="gsi-index-key-only"),
    pytest.param("gsi", "g = :g", {":g": S("G")}, {"pk": S("p"), "sk": S("a"), "g": S("G"), "gs": N("1"), "x": S("x")},
                 ESK_INVALID, id="gsi-extra-attribute"),
    pytest.param("lsi", "pk = :p", {":p": S("p")}, {"pk": S("p"), "sk": S("a")}, ESK_INVALID, id="lsi-table-key-only",
                 marks=dev("'Exclusive Start Key must have same size as table's key schema'")),
])
def test_exclusive_start_key_errors(dynamodb, tables, index, kce, values, esk, messages):
    kw = {"IndexName": index} if index else {}
    expect_error(lambda: query(dynamodb, tables["qs"], kce, values, ExclusiveStartKey=esk, **kw), VE,
                 messages if isinstance(messages, list) else [messages])


# A key condition on a nested path, of a key attribute or not, through a name or not: the
# service's own text (eu-west-2, 2026: docs/service-fidelity.md), after the filter's and the
# projection's paths into keys (test_key_paths.py).
NESTED_KEY_CONDITION = ("Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested "
                        "attributes")


@dev("'Key attributes must be scalars; ...' for a key attribute's path")
@pytest.mark.parametrize("index,kce,names", [
    (None, "pk.foo = :p", None),
    (None, "pk[0] = :p", None),
    (None, "pk = :p AND sk.foo = :s", None),
    (None, "pk = :p AND begins_with(sk.foo, :s)", None),
    (None, "pk = :p AND sk.foo BETWEEN :s AND :s", None),
    (None, "#d.foo = :p", {"#d": "pk"}),
    ("gsi", "g.x = :p", None),
], ids=["partition", "partition-index", "sort", "begins-with", "between", "through-name", "gsi"])
def test_key_condition_on_nested_key(dynamodb, tables, index, kce, names):
    kw = {"IndexName": index} if index else {}
    values = {":p": S("p")}
    if ":s" in kce:
        values[":s"] = S("a")
    expect_error(lambda: query(dynamodb, tables["qs"], kce, values, names, **kw), VE, NESTED_KEY_CONDITION)


@dev("the bare sentence, without 'Invalid KeyConditionExpression: '")
def test_key_condition_on_nested_attribute(dynamodb, tables):
    expect_error(lambda: query(dynamodb, tables["qs"], "pk = :p AND foo.bar = :s", {":p": S("p"), ":s": S("a")}), VE,
                 NESTED_KEY_CONDITION)


# A query on a missing table.
@dev("'Cannot do operations on a non-existent table'")
def test_missing_table(dynamodb):
    expect_error(lambda: query(dynamodb, h.unique_name("none"), "pk = :p", {":p": S("p")}),
                 "ResourceNotFoundException", "Requested resource not found")



# ---------------------------------------------------------------- empty key values
# A key condition may not compare a key with an empty string or binary, as no key can hold one:
# the table's keys are named as keys, and on an index every key it is queried by as the index's
# (DynamoDB Local's texts; the service gives these texts for empty keys in GetItem and PutItem).
EMPTY = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty "
EMPTY_INDEX = ("One or more parameter values are not valid. A value specified for a secondary index key is not "
               "supported. The AttributeValue for a key attribute cannot contain an empty ")


@pytest.fixture(scope="module")
def empty_keys(module_tables):
    return module_tables(
        tag="qempty", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
        AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("g", "S"), ("b", "B"), ("l", "S")),
        GlobalSecondaryIndexes=[{"IndexName": "by_g", "KeySchema": ks(("g", "HASH"), ("b", "RANGE")),
                                 "Projection": {"ProjectionType": "ALL"}}],
        LocalSecondaryIndexes=[{"IndexName": "by_l", "KeySchema": ks(("pk", "HASH"), ("l", "RANGE")),
                                "Projection": {"ProjectionType": "ALL"}}])


@pytest.mark.parametrize("index,kce,values,message", [
    (None, "pk = :e", {":e": S("")}, EMPTY + "string value. Key: pk"),
    (None, "pk = :a AND sk = :e", {":a": S("a"), ":e": S("")}, EMPTY + "string value. Key: sk"),
    (None, "pk = :a AND begins_with(sk, :e)", {":a": S("a"), ":e": S("")}, EMPTY + "string value. Key: sk"),
    (None, "pk = :a AND sk BETWEEN :e AND :a", {":a": S("a"), ":e": S("")}, EMPTY + "string value. Key: sk"),
    ("by_g", "g = :e", {":e": S("")}, EMPTY_INDEX + "string value. IndexName: by_g, IndexKey: g"),
    ("by_g", "g = :a AND begins_with(b, :e)", {":a": S("a"), ":e": B(b"")},
     EMPTY_INDEX + "binary value. IndexName: by_g, IndexKey: b"),
    ("by_l", "pk = :e", {":e": S("")}, EMPTY_INDEX + "string value. IndexName: by_l, IndexKey: pk"),
    ("by_l", "pk = :a AND l > :e", {":a": S("a"), ":e": S("")}, EMPTY_INDEX + "string value. IndexName: by_l, IndexKey: l"),
    # each key's type is checked before it is checked for emptiness, the partition key's first
    (None, "pk = :e AND sk = :n", {":e": S(""), ":n": N("1")}, EMPTY + "string value. Key: pk"),
], ids=["partition", "sort", "begins-with", "between", "gsi-partition", "gsi-sort-binary", "lsi-partition",
        "lsi-sort", "before-sort-type"])
def test_empty_key_value_in_key_condition(dynamodb, empty_keys, index, kce, values, message):
    kw = {"IndexName": index} if index else {}
    expect_error(lambda: dynamodb.query(TableName=empty_keys, KeyConditionExpression=kce,
                                        ExpressionAttributeValues=values, **kw), VE, either_envelope(message))


def test_empty_key_value_in_key_conditions(dynamodb, empty_keys):
    expect_error(lambda: dynamodb.query(TableName=empty_keys, IndexName="by_g", KeyConditions={
        "g": {"ComparisonOperator": "EQ", "AttributeValueList": [S("a")]},
        "b": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [B(b"")]}}),
        VE, either_envelope(EMPTY_INDEX + "binary value. IndexName: by_g, IndexKey: b"))


# ---------------------------------------------------------------- which expression's error
# Of errors in several expressions, the FilterExpression's is named first, then the
# ProjectionExpression's, then the KeyConditionExpression's (DynamoDB Local; the order is not
# documented).
@pytest.mark.parametrize("kce,filter_,projection,message", [
    ("pk = = :p", "x = = :n", None, 'Invalid FilterExpression: Syntax error; token: "=", near: "= = :n"'),
    ("pk = = :p", None, "a,,b", 'Invalid ProjectionExpression: Syntax error; token: ",", near: ",,b"'),
    ("pk = :p", "x = = :n", "a,,b", 'Invalid FilterExpression: Syntax error; token: "=", near: "= = :n"'),
    ("pk = :p AND sk BETWEEN :hi AND :lo", "x = :zz", None,
     "Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :zz"),
], ids=["filter-before-key", "projection-before-key", "filter-before-projection", "filter-undefined-before-key-bounds"])
def test_expression_error_order(dynamodb, tables, kce, filter_, projection, message):
    text = kce + (filter_ or "") + (projection or "")
    values = {k: v for k, v in {":p": S("p"), ":n": N("1"), ":hi": S("z"), ":lo": S("a")}.items() if k in text}
    kw = dict(KeyConditionExpression=kce, ExpressionAttributeValues=values)
    if filter_:
        kw["FilterExpression"] = filter_
    if projection:
        kw["ProjectionExpression"] = projection
    expect_error(lambda: dynamodb.query(TableName=tables["qs"], **kw), VE, either_envelope(message))
