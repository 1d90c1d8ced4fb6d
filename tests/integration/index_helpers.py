"""Helpers shared by the secondary-index suites (test_gsi.py, test_lsi.py,
test_gsi_update_table.py, test_index_scenarios.py, test_consumed_capacity_indexes.py).

Endpoint-agnostic like dynamo_helpers. Specification: /work/notes/errors-indexes.md.
"""
import time

import dynamo_helpers as h

VE = "ValidationException"
INVALID = "One or more parameter values were invalid: "

S = lambda v: {"S": v}  # noqa: E731
N = lambda v: {"N": str(v)}  # noqa: E731
B = lambda v: {"B": v}  # noqa: E731


def ks(*pairs):
    """KeySchema from (name, HASH|RANGE) pairs."""
    return [{"AttributeName": n, "KeyType": t} for n, t in pairs]


def ad(*pairs):
    """AttributeDefinitions from (name, S|N|B) pairs."""
    return [{"AttributeName": n, "AttributeType": t} for n, t in pairs]


def projection(kind="ALL", include=None):
    p = {"ProjectionType": kind}
    if include:
        p["NonKeyAttributes"] = list(include)
    return p


def gsi(name, hash_key, range_key=None, kind="ALL", include=None, throughput=None):
    """A GlobalSecondaryIndexes entry (or an UpdateTable Create action)."""
    pairs = [(hash_key, "HASH")] + ([(range_key, "RANGE")] if range_key else [])
    index = {"IndexName": name, "KeySchema": ks(*pairs), "Projection": projection(kind, include)}
    if throughput:
        index["ProvisionedThroughput"] = {"ReadCapacityUnits": throughput[0], "WriteCapacityUnits": throughput[1]}
    return index


def lsi(name, range_key, kind="ALL", include=None, hash_key="pk"):
    """A LocalSecondaryIndexes entry."""
    return {"IndexName": name, "KeySchema": ks((hash_key, "HASH"), (range_key, "RANGE")),
            "Projection": projection(kind, include)}


def plain(value):
    """The Python value inside one AttributeValue ({"S": "x"} -> "x")."""
    return next(iter(value.values()))


def canon(value):
    """An item (or AttributeValue) with set members sorted, for order-insensitive comparison
    (the service does not preserve the order of SS/NS/BS members)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in ("SS", "NS", "BS") and isinstance(v, list):
                out[k] = sorted(v)
            else:
                out[k] = canon(v)
        return out
    if isinstance(value, list):
        return [canon(v) for v in value]
    return value


def key_of(item, names):
    return {n: item[n] for n in names}


def entry_of(item, names):
    """The index entry of `item`: the attributes in `names` that the item has."""
    return {n: item[n] for n in names if n in item}


def wait_for(fn, done, timeout=120, what="condition"):
    """Poll fn() until done(result) is true; returns the last result. GSIs are eventually
    consistent on the real service (emulators answer at once)."""
    deadline = time.monotonic() + timeout
    delay = 0.05
    while True:
        got = fn()
        if done(got):
            return got
        if time.monotonic() > deadline:
            raise AssertionError("%s not reached after %ss; last: %r" % (what, timeout, got))
        time.sleep(delay)
        delay = min(delay * 2, 2.0)


def query_all(client, table, index=None, kce=None, values=None, names=None, limit=None, **kw):
    """All pages of a Query (or of a Scan when kce is None); returns (items, pages)."""
    args = dict(TableName=table, **kw)
    if index:
        args["IndexName"] = index
    if kce:
        args["KeyConditionExpression"] = kce
    if values:
        args["ExpressionAttributeValues"] = values
    if names:
        args["ExpressionAttributeNames"] = names
    if limit:
        args["Limit"] = limit
    pages = h.paginate(client.query if kce else client.scan, max_pages=1000, **args)
    return h.page_items(pages), pages


def index_items(client, table, index, kce, values, **kw):
    """Items of an index query (all pages)."""
    return query_all(client, table, index, kce, values, **kw)[0]


def wait_index_count(client, table, index, kce, values, expected, timeout=120):
    """Wait until an index query (all pages) returns `expected` items; return them."""
    return wait_for(lambda: index_items(client, table, index, kce, values),
                    lambda items: len(items) == expected, timeout,
                    "%s/%s holding %d items" % (table, index, expected))


def sized_item(key, size, pad="f", **attrs):
    """key + attrs (plain strings become S) + one S padding attribute; exactly `size` bytes."""
    item = dict(key)
    for name, value in attrs.items():
        item[name] = S(value) if isinstance(value, str) else value
    return h.padded_item(item, size, pad_name=pad)


def capacity_arms(cc):
    """(total, table, {gsi: units}, {lsi: units}) of a ConsumedCapacity (INDEXES)."""
    gsis = {k: v["CapacityUnits"] for k, v in cc.get("GlobalSecondaryIndexes", {}).items()}
    lsis = {k: v["CapacityUnits"] for k, v in cc.get("LocalSecondaryIndexes", {}).items()}
    return cc["CapacityUnits"], cc.get("Table", {}).get("CapacityUnits"), gsis, lsis


def describe_index(client, table, name):
    desc = client.describe_table(TableName=table)["Table"]
    for index in desc.get("GlobalSecondaryIndexes", []) + desc.get("LocalSecondaryIndexes", []):
        if index["IndexName"] == name:
            return index
    return None


# A GSI key attribute given a value of another type, for the tables of test_gsi.py and
# test_transact_index_keys.py: the attribute, the value, the declared type, the type given, the index.
def mismatch(attr, expected, actual, index):
    return INVALID + "Type mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s" % (attr, expected, actual, index)


WRONG_TYPES = [
    ("g", N(1), "S", "N", "by_g"),
    ("n", S("1"), "N", "S", "by_g_n"),
    ("b", S("x"), "B", "S", "by_b"),
    ("g", B(b"x"), "S", "B", "by_g"),
    ("g", {"NULL": True}, "S", "NULL", "by_g"),
    ("g", {"BOOL": True}, "S", "BOOL", "by_g"),
    ("g", {"L": [S("x")]}, "S", "L", "by_g"),
    ("g", {"M": {"a": S("x")}}, "S", "M", "by_g"),
    ("g", {"SS": ["x"]}, "S", "SS", "by_g"),
]
WRONG_IDS = ["S<-N", "N<-S", "B<-S", "S<-B", "S<-NULL", "S<-BOOL", "S<-L", "S<-M", "S<-SS"]
