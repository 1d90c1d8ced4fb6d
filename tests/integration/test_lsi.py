"""Local secondary indexes: strongly consistent reads, entry contents per projection, ordering and
paging by the LSI sort key, fetching non-projected attributes from the table, filters, LSI key
validation, the 400 KB limit that includes LSI entries, ReturnItemCollectionMetrics, and (own server)
the item collection size limit with a lowered --item-collection-limit.

Specification: /work/notes/errors-indexes.md (sections 0, 1, 3). Unlike GSIs, LSIs support
ConsistentRead, so reads here need no polling.
"""
import pytest

import dynamo_helpers as h
import index_helpers as ix
from dynamo_helpers import expect_error
from index_helpers import INVALID, VE, N, S, ad, gsi, ks, lsi

dev = pytest.mark.dynamodb_local_deviation

# ---------------------------------------------------------------- the threads table
# forum (HASH) / subject (RANGE); LSIs declared alphabetically:
#   by_last_post  RANGE last_post (S)  KEYS_ONLY
#   by_replies    RANGE replies (N)    INCLUDE [author]
#   by_views      RANGE views (N)      ALL
THREAD_KEYS = ("forum", "subject")


def thread(forum, subject, **attrs):
    item = {"forum": S(forum), "subject": S(subject)}
    for k, v in attrs.items():
        item[k] = S(v) if isinstance(v, str) else N(v) if isinstance(v, (int, float)) else v
    return item


THREADS = [
    thread("EC2", "a-boot", last_post="2024-05-01", replies=3, views=40, author="ana", body="How do I boot?"),
    thread("EC2", "b-billing", last_post="2024-01-20", replies=12, views=400, author="bo", body="Billing question"),
    thread("EC2", "c-cpu", last_post="2024-03-11", replies=1, views=7, body="CPU credits"),
    thread("EC2", "d-disk", replies=0, views=2, author="dee", body="No posts yet"),       # no last_post
    thread("EC2", "e-eip", last_post="2024-02-02", views=19, author="eve"),               # no replies
    thread("S3", "a-acl", last_post="2024-04-04", replies=5, views=50, author="al", body="ACLs"),
]
EC2 = [t for t in THREADS if t["forum"] == S("EC2")]
PROJECTED = {
    "by_last_post": THREAD_KEYS + ("last_post",),
    "by_replies": THREAD_KEYS + ("replies", "author"),
    "by_views": None,  # ALL
}
RANGE_OF = {"by_last_post": "last_post", "by_replies": "replies", "by_views": "views"}


@pytest.fixture(scope="module")
def threads(dynamodb, module_tables):
    name = module_tables(tag="lsi_thr", KeySchema=ks(("forum", "HASH"), ("subject", "RANGE")),
                         AttributeDefinitions=ad(("forum", "S"), ("subject", "S"), ("last_post", "S"),
                                                 ("replies", "N"), ("views", "N")),
                         LocalSecondaryIndexes=[lsi("by_last_post", "last_post", "KEYS_ONLY", hash_key="forum"),
                                                lsi("by_replies", "replies", "INCLUDE", ["author"], hash_key="forum"),
                                                lsi("by_views", "views", hash_key="forum")])
    h.batch_put(dynamodb, name, THREADS)
    return name


def forum_query(client, table, index, forum="EC2", values=None, **kw):
    kw.setdefault("ConsistentRead", True)
    return ix.index_items(client, table, index, "forum = :f", dict({":f": S(forum)}, **(values or {})), **kw)


def sort_value(item, attr):
    v = item[attr]
    return float(v["N"]) if "N" in v else v["S"]


# DescribeTable lists LSIs with key schema, projection, IndexArn and counters, but - unlike GSIs -
# without IndexStatus or ProvisionedThroughput (they share the table's).
def test_describe_lists_lsis(dynamodb, threads):
    desc = dynamodb.describe_table(TableName=threads)["Table"]
    got = {i["IndexName"]: i for i in desc["LocalSecondaryIndexes"]}
    assert sorted(got) == ["by_last_post", "by_replies", "by_views"]
    assert got["by_replies"]["KeySchema"] == ks(("forum", "HASH"), ("replies", "RANGE"))
    assert got["by_replies"]["Projection"] == {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["author"]}
    for name, entry in got.items():
        assert entry["IndexArn"] == desc["TableArn"] + "/index/" + name
        assert "IndexStatus" not in entry and "ProvisionedThroughput" not in entry
        assert "ItemCount" in entry and "IndexSizeBytes" in entry
    assert "GlobalSecondaryIndexes" not in desc


# ConsistentRead is allowed on an LSI (Query and Scan) and sees a write at once - no polling needed.
def test_consistent_read_sees_write_immediately(dynamodb, threads):
    item = thread("RDS", "a-new", last_post="2024-06-01", replies=2, views=1)
    dynamodb.put_item(TableName=threads, Item=item)
    assert forum_query(dynamodb, threads, "by_views", "RDS") == [item]
    scanned = ix.query_all(dynamodb, threads, "by_last_post", ConsistentRead=True)[0]
    assert ix.entry_of(item, PROJECTED["by_last_post"]) in scanned
    dynamodb.delete_item(TableName=threads, Key=ix.key_of(item, THREAD_KEYS))
    assert forum_query(dynamodb, threads, "by_views", "RDS") == []


# Entries hold exactly: KEYS_ONLY -> table key + LSI sort key; INCLUDE -> + the listed attributes the
# item has; ALL -> the whole item. Items lacking the LSI sort key are not in that index (sparse), and
# entries come in LSI sort-key order.
@pytest.mark.parametrize("index", ["by_last_post", "by_replies", "by_views"])
def test_entry_contents_order_and_sparseness(dynamodb, threads, index):
    attr = RANGE_OF[index]
    holding = sorted((t for t in EC2 if attr in t), key=lambda t: sort_value(t, attr))
    expected = [t if PROJECTED[index] is None else ix.entry_of(t, PROJECTED[index]) for t in holding]
    assert forum_query(dynamodb, threads, index) == expected
    assert forum_query(dynamodb, threads, index, ScanIndexForward=False) == expected[::-1]


# Sort-key conditions apply to the LSI sort key (numeric for N).
def test_lsi_sort_key_condition(dynamodb, threads):
    got = ix.index_items(dynamodb, threads, "by_replies", "forum = :f AND replies BETWEEN :lo AND :hi",
                         {":f": S("EC2"), ":lo": N(1), ":hi": N(5)}, ConsistentRead=True)
    assert [ix.plain(t["replies"]) for t in got] == ["1", "3"]


# Select=ALL_ATTRIBUTES on a KEYS_ONLY (or INCLUDE) LSI fetches the whole items from the table,
# still in LSI order.
@pytest.mark.parametrize("index", ["by_last_post", "by_replies"])
def test_all_attributes_fetches_from_table(dynamodb, threads, index):
    attr = RANGE_OF[index]
    holding = sorted((t for t in EC2 if attr in t), key=lambda t: sort_value(t, attr))
    assert ix.canon(forum_query(dynamodb, threads, index, Select="ALL_ATTRIBUTES")) == ix.canon(holding)


# A projection naming a non-projected attribute is served by fetching it from the table (unlike GSIs).
def test_projection_of_non_projected_attribute_fetches(dynamodb, threads):
    got = forum_query(dynamodb, threads, "by_last_post", ProjectionExpression="body, last_post")
    holding = sorted((t for t in EC2 if "last_post" in t), key=lambda t: t["last_post"]["S"])
    assert got == [ix.entry_of(t, ("body", "last_post")) for t in holding]


# A filter on an attribute the LSI does not project is refused - even with ALL_ATTRIBUTES or a
# projection naming it (ALT on AWS: "<index>.*does not project.*filter.*<attr>"; DynamoDB Local:
# "One or more parameter values were invalid: Secondary index by_last_post does not project one or
# more filter attributes: [body]").
@pytest.mark.parametrize("extra", [{}, {"Select": "ALL_ATTRIBUTES"}, {"ProjectionExpression": "body"}],
                         ids=["default", "all-attributes", "projection"])
def test_filter_on_non_projected_attribute_refused(dynamodb, threads, extra):
    expect_error(lambda: forum_query(dynamodb, threads, "by_last_post", values={":b": S("x")}, FilterExpression="body = :b", **extra),
                 VE, regex=r".*\bby_last_post\b.*does not project.*filter.*\bbody\b.*")


# The table's sort key is projected into every LSI, so it may be filtered on; the LSI's own sort key
# may not (it belongs in the key condition).
def test_filter_on_table_sort_key_allowed_index_key_refused(dynamodb, threads):
    got = forum_query(dynamodb, threads, "by_last_post", values={":s": S("b-billing")}, FilterExpression="subject = :s")
    assert [ix.plain(t["subject"]) for t in got] == ["b-billing"]
    expect_error(lambda: forum_query(dynamodb, threads, "by_last_post", values={":l": S("2024")}, FilterExpression="last_post > :l"),
                 VE, h.either_envelope("Filter Expression can only contain non-primary key attributes: "
                                       "Primary key attribute: last_post"))


# Of a filter on the LSI's sort key and a filter (or projection) attribute the LSI does not hold,
# the key is named first, and a bad key condition before either (DynamoDB Local).
@pytest.mark.parametrize("kw,message", [
    ({"FilterExpression": "body = :b OR last_post > :b"},
     "Filter Expression can only contain non-primary key attributes: Primary key attribute: last_post"),
    ({"FilterExpression": "last_post > :b", "ProjectionExpression": "body"},
     "Filter Expression can only contain non-primary key attributes: Primary key attribute: last_post"),
], ids=["filter", "projection"])
def test_filter_on_index_key_named_before_projection(dynamodb, threads, kw, message):
    expect_error(lambda: forum_query(dynamodb, threads, "by_last_post", values={":b": S("x")}, **kw), VE,
                 h.either_envelope(message))


def test_key_condition_error_named_before_projection(dynamodb, threads):
    expect_error(lambda: dynamodb.query(TableName=threads, IndexName="by_last_post", KeyConditionExpression="forum > :f",
                                        FilterExpression="body = :b",
                                        ExpressionAttributeValues={":f": S("EC2"), ":b": S("x")}), VE,
                 h.either_envelope("Query key condition not supported"))


# ---------------------------------------------------------------- paging over equal LSI keys
# Items of one partition sharing the LSI sort key: every item once across pages, the cursor holds
# the table key + the LSI sort key (CONF, captured on AWS), paged == unpaged.
@pytest.mark.parametrize("limit", [1, 3, 10])
def test_equal_lsi_keys_paging(dynamodb, threads, limit):
    forum = "TIES-%d" % limit
    items = [thread(forum, "s%02d" % i, replies=7 if i < 8 else i, views=i) for i in range(10)]
    h.batch_put(dynamodb, threads, items)
    unpaged = forum_query(dynamodb, threads, "by_replies", forum)
    paged, pages = ix.query_all(dynamodb, threads, "by_replies", "forum = :f", {":f": S(forum)}, limit=limit,
                                ConsistentRead=True)
    assert paged == unpaged
    assert sorted(ix.plain(i["subject"]) for i in paged) == ["s%02d" % i for i in range(10)]
    assert [ix.plain(i["replies"]) for i in paged][-2:] == ["8", "9"]
    for page in pages:
        if "LastEvaluatedKey" in page and page["Items"]:
            last = page["Items"][-1]
            assert page["LastEvaluatedKey"] == {"forum": last["forum"], "subject": last["subject"], "replies": last["replies"]}


# ---------------------------------------------------------------- LSI key validation
# A wrong-typed LSI sort key refuses the write (status here, exact text below).
def test_wrong_type_lsi_key_refused(dynamodb, threads):
    key = {"forum": S("BAD"), "subject": S("type")}
    expect_error(lambda: dynamodb.put_item(TableName=threads, Item=dict(key, replies=S("many"))), VE)
    assert "Item" not in dynamodb.get_item(TableName=threads, Key=key, ConsistentRead=True)


@dev("type-mismatch text truncated after 'Type mismatch for Index Key'")
def test_wrong_type_lsi_key_message(dynamodb, threads):
    expect_error(lambda: dynamodb.put_item(TableName=threads, Item=thread("BAD", "type", replies="many")), VE,
                 h.either_envelope(INVALID + "Type mismatch for Index Key replies Expected: N Actual: S IndexName: by_replies"))


# An update that would give the LSI sort key a value of the wrong type is refused like a PutItem,
# and the item keeps its old form.
@dev("accepts it and stores the S in the N-typed LSI key")
@pytest.mark.parametrize("expression", ["SET replies = :v", "SET replies = if_not_exists(replies, :v)"],
                         ids=["set", "if-not-exists"])
def test_wrong_type_lsi_key_by_update_refused(dynamodb, threads, expression):
    item = thread("BAD", "update")
    dynamodb.put_item(TableName=threads, Item=item)
    key = {"forum": item["forum"], "subject": item["subject"]}
    expect_error(lambda: dynamodb.update_item(TableName=threads, Key=key, UpdateExpression=expression,
                                              ExpressionAttributeValues={":v": S("many")}), VE)
    assert dynamodb.get_item(TableName=threads, Key=key, ConsistentRead=True)["Item"] == item


# An empty string LSI key is refused with the secondary-index text (CONF captured).
def test_empty_lsi_key(dynamodb, threads):
    expect_error(lambda: dynamodb.put_item(TableName=threads, Item=thread("BAD", "empty", last_post="")), VE,
                 h.either_envelope("One or more parameter values are not valid. A value specified for a secondary index key "
                                   "is not supported. The AttributeValue for a key attribute cannot contain an empty string "
                                   "value. IndexName: by_last_post, IndexKey: last_post"))


# LSI sort keys obey the 1,024-byte sort-key limit: 1,024 bytes are accepted...
def test_lsi_sort_key_at_size_limit(dynamodb, threads):
    item = thread("SIZE", "ok", last_post="x" * 1024)
    dynamodb.put_item(TableName=threads, Item=item)
    assert forum_query(dynamodb, threads, "by_last_post", "SIZE") == [item]


# ...1,025 are refused, by PutItem and by UpdateItem (text as for GSI keys, Max Size 1024).
@pytest.mark.parametrize("op", ["put", "update"])
@dev("'... Size limit exceeded' for PutItem; UpdateItem accepts a 1,025-byte LSI sort key")
def test_lsi_sort_key_over_size_limit(dynamodb, threads, op):
    key = {"forum": S("SIZE"), "subject": S("ko-" + op)}
    if op == "put":
        call = lambda: dynamodb.put_item(TableName=threads, Item=dict(key, last_post=S("x" * 1025)))  # noqa: E731
    else:
        call = lambda: dynamodb.update_item(TableName=threads, Key=key, UpdateExpression="SET last_post = :v",  # noqa: E731
                                            ExpressionAttributeValues={":v": S("x" * 1025)})
    expect_error(call, VE, h.either_envelope(INVALID + "Size limit exceeded for Index Key last_post Actual Size: 1025 bytes "
                                             "Max Size: 1024 bytes IndexName: by_last_post"))


# ---------------------------------------------------------------- 400 KB including LSI entries
@pytest.fixture(scope="module")
def big_all(module_tables):
    return module_tables("hash", tag="lsi_big", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                         AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("l", "S")),
                         LocalSecondaryIndexes=[lsi("lsi_all", "l")])


def big(pk, size, **attrs):
    return ix.sized_item({"pk": S(pk), "sk": S("s")}, size, **attrs)


# With an ALL-projection LSI an item counts twice toward the 400 KB limit: 204,800 bytes + its
# 204,800-byte entry = 409,600 is accepted, one byte more is refused; without the LSI key the item
# may be 409,600 bytes on its own (DOC; DynamoDB Local agrees).
@pytest.mark.parametrize("size,with_key,ok", [(204800, True, True), (204801, True, False), (409600, False, True)],
                         ids=["with-entry-at-limit", "with-entry-over", "without-entry-at-limit"])
def test_item_size_limit_counts_lsi_entries(dynamodb, big_all, size, with_key, ok):
    item = big("sz-%d-%s" % (size, with_key), size, **({"l": "L"} if with_key else {}))
    if ok:
        dynamodb.put_item(TableName=big_all, Item=item)
    else:
        expect_error(lambda: dynamodb.put_item(TableName=big_all, Item=item), VE,
                     h.either_envelope("Item size has exceeded the maximum allowed size"))
        assert "Item" not in dynamodb.get_item(TableName=big_all, Key=ix.key_of(item, ("pk", "sk")), ConsistentRead=True)


# An update that puts a 300,000-byte item into the LSI (adding the LSI key) would exceed the limit.
@dev("UpdateItem does not count LSI entries toward the 400 KB limit")
def test_update_into_lsi_over_size_limit(dynamodb, big_all):
    item = big("upd", 300000)
    dynamodb.put_item(TableName=big_all, Item=item)
    expect_error(lambda: dynamodb.update_item(TableName=big_all, Key=ix.key_of(item, ("pk", "sk")),
                                              UpdateExpression="SET l = :l", ExpressionAttributeValues={":l": S("L")}),
                 VE, h.either_envelope("Item size to update has exceeded the maximum allowed size"))


# KEYS_ONLY LSI entries count too (key values are part of the entry): item + entry = 409,600 is
# accepted, 409,601 refused.
@dev("KEYS_ONLY LSI entries are not counted in the 400 KB limit")
def test_item_size_limit_counts_keys_only_entries(dynamodb, module_tables):
    name = module_tables(tag="lsi_big2", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                         AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("l", "S")),
                         LocalSecondaryIndexes=[lsi("lsi_keys", "l", "KEYS_ONLY")])
    entry = h.item_size({"pk": S("ko"), "sk": S("s"), "l": S("L")})
    dynamodb.put_item(TableName=name, Item=big("ok", 409600 - entry, l="L"))
    expect_error(lambda: dynamodb.put_item(TableName=name, Item=big("ko", 409600 - entry + 1, l="L")), VE,
                 h.either_envelope("Item size has exceeded the maximum allowed size"))


# ---------------------------------------------------------------- ReturnItemCollectionMetrics
def metrics(forum):
    return {"ItemCollectionKey": {"forum": S(forum)}, "SizeEstimateRangeGB": [0.0, 1.0]}


# On a table with LSIs, PutItem / UpdateItem / DeleteItem with ReturnItemCollectionMetrics=SIZE
# return the collection's partition key and a whole-GB size bracket ([0.0, 1.0] below 1 GB).
@dev("ItemCollectionMetrics is never returned")
def test_item_collection_metrics_on_writes(dynamodb, threads):
    key = {"forum": S("ICM"), "subject": S("s")}
    resp = dynamodb.put_item(TableName=threads, Item=dict(key, views=N(1)), ReturnItemCollectionMetrics="SIZE")
    assert resp["ItemCollectionMetrics"] == metrics("ICM")
    resp = dynamodb.update_item(TableName=threads, Key=key, UpdateExpression="SET replies = :r",
                                ExpressionAttributeValues={":r": N(2)}, ReturnItemCollectionMetrics="SIZE")
    assert resp["ItemCollectionMetrics"] == metrics("ICM")
    resp = dynamodb.delete_item(TableName=threads, Key=key, ReturnItemCollectionMetrics="SIZE")
    assert resp["ItemCollectionMetrics"] == metrics("ICM")


# BatchWriteItem reports, per table, a list of metrics entries for the collections it wrote.
@dev("ItemCollectionMetrics is never returned")
def test_item_collection_metrics_on_batch(dynamodb, threads):
    resp = dynamodb.batch_write_item(RequestItems={threads: [
        {"PutRequest": {"Item": thread("ICMB1", "s", views=1)}},
        {"PutRequest": {"Item": thread("ICMB2", "s", views=2)}}]}, ReturnItemCollectionMetrics="SIZE")
    entries = resp["ItemCollectionMetrics"][threads]
    assert entries and all(e["SizeEstimateRangeGB"] == [0.0, 1.0] for e in entries)
    assert {ix.plain(e["ItemCollectionKey"]["forum"]) for e in entries} == {"ICMB1", "ICMB2"}


# NONE (or no parameter) returns no metrics; neither does a table without LSIs (here: GSI only).
def test_no_item_collection_metrics_without_lsi_or_when_none(dynamodb, threads, module_tables):
    resp = dynamodb.put_item(TableName=threads, Item=thread("ICMN", "s"), ReturnItemCollectionMetrics="NONE")
    assert "ItemCollectionMetrics" not in resp
    plain_table = module_tables("hash", tag="lsi_none", AttributeDefinitions=ad(("pk", "S"), ("g", "S")),
                                GlobalSecondaryIndexes=[gsi("by_g", "g")])
    for resp in (dynamodb.put_item(TableName=plain_table, Item={"pk": S("a"), "g": S("G")}, ReturnItemCollectionMetrics="SIZE"),
                 dynamodb.update_item(TableName=plain_table, Key={"pk": S("a")}, UpdateExpression="SET x = :x",
                                      ExpressionAttributeValues={":x": S("x")}, ReturnItemCollectionMetrics="SIZE"),
                 dynamodb.delete_item(TableName=plain_table, Key={"pk": S("a")}, ReturnItemCollectionMetrics="SIZE")):
        assert "ItemCollectionMetrics" not in resp


# Deleting a missing item: whether metrics come back is not established; if they do, they name the
# requested partition with the usual bracket.
def test_item_collection_metrics_delete_missing(dynamodb, threads):
    resp = dynamodb.delete_item(TableName=threads, Key={"forum": S("ICM-MISSING"), "subject": S("s")},
                                ReturnItemCollectionMetrics="SIZE")
    if "ItemCollectionMetrics" in resp:
        assert resp["ItemCollectionMetrics"] == metrics("ICM-MISSING")


# ---------------------------------------------------------------- item collection size limit
# dynamod started with --item-collection-limit 64KB (65,536 bytes). A collection's size is the sum of
# its items plus their LSI entries (here one ALL LSI, so every item with "l" counts twice). Exact
# accounting: /work/notes/errors-indexes.md section 1.3.
LIMIT = 64 * 1024
LIMIT_MESSAGE = "Collection size exceeded."


def limited_table(client):
    name = h.unique_name("icl")
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                        AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("l", "S")),
                        LocalSecondaryIndexes=[lsi("lsi_all", "l")])
    h.wait_active(client, name)
    return name


def fill_to_limit(client, table, pk="F"):
    """32 items of 1,000 bytes with an LSI entry (64,000) + one of 768 (1,536): exactly LIMIT."""
    items = [ix.sized_item({"pk": S(pk), "sk": S("s%03d" % i)}, 1000, l="L%03d" % i) for i in range(32)]
    h.batch_put(client, table, items)
    last = ix.sized_item({"pk": S(pk), "sk": S("s999")}, 768, l="L999")
    client.put_item(TableName=table, Item=last)
    return items + [last]


def collection_error(fn):
    return expect_error(fn, "ItemCollectionSizeLimitExceededException", LIMIT_MESSAGE)


@pytest.mark.needs_own_server
def test_item_collection_limit(launch_dynamod):
    server = launch_dynamod(args=["--item-collection-limit", "64KB"], in_memory=True)
    c = h.make_client(server.endpoint)
    table = limited_table(c)
    items = fill_to_limit(c, table)                         # exactly at the limit: accepted
    assert sum(2 * h.item_size(i) for i in items) == LIMIT
    # Any write that grows the full collection fails and writes nothing - even a tiny item with no
    # LSI entry, and a 1-byte growth of an existing item.
    tiny = {"pk": S("F"), "sk": S("tiny")}
    collection_error(lambda: c.put_item(TableName=table, Item=tiny))
    assert "Item" not in c.get_item(TableName=table, Key=tiny, ConsistentRead=True)
    grown = dict(items[0], f=S(items[0]["f"]["S"] + "x"))
    collection_error(lambda: c.put_item(TableName=table, Item=grown))
    collection_error(lambda: c.update_item(TableName=table, Key=ix.key_of(items[1], ("pk", "sk")),
                                           UpdateExpression="SET extra = :e", ExpressionAttributeValues={":e": S("e")}))
    collection_error(lambda: c.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": tiny}}]}))
    # Writes that do not grow it succeed: a same-size rewrite, a shrinking update.
    c.put_item(TableName=table, Item=dict(items[0], f=S("y" * len(items[0]["f"]["S"]))))
    c.update_item(TableName=table, Key=ix.key_of(items[2], ("pk", "sk")), UpdateExpression="REMOVE l")
    # Other partitions are unaffected.
    c.put_item(TableName=table, Item=ix.sized_item({"pk": S("G"), "sk": S("s")}, 1000, l="L"))
    # After a delete the freed space can be used again.
    c.delete_item(TableName=table, Key=ix.key_of(items[3], ("pk", "sk")))
    c.put_item(TableName=table, Item=ix.sized_item({"pk": S("F"), "sk": S("again")}, 1000, l="L"))


# The exact boundary: a collection may reach the limit exactly; the next byte is refused. The
# accepted write reports its metrics; space freed by a delete is usable again.
@pytest.mark.needs_own_server
def test_item_collection_limit_exact_boundary(launch_dynamod):
    server = launch_dynamod(args=["--item-collection-limit", "64KB"], in_memory=True)
    c = h.make_client(server.endpoint)
    table = limited_table(c)
    last = fill_to_limit(c, table)[-1]
    # Shrink the last item by 3 bytes (its LSI entry too): the collection is LIMIT - 6.
    c.put_item(TableName=table, Item=ix.sized_item(ix.key_of(last, ("pk", "sk", "l")), h.item_size(last) - 3))
    fits, too_much = {"pk": S("F"), "sk": S("z")}, {"pk": S("F"), "sk": S("y")}     # 6 bytes each, no LSI entry
    assert h.item_size(fits) == h.item_size(too_much) == 6
    resp = c.put_item(TableName=table, Item=fits, ReturnItemCollectionMetrics="SIZE")  # exactly LIMIT
    assert resp["ItemCollectionMetrics"] == {"ItemCollectionKey": {"pk": S("F")}, "SizeEstimateRangeGB": [0.0, 1.0]}
    collection_error(lambda: c.put_item(TableName=table, Item=too_much))
    c.delete_item(TableName=table, Key=fits)
    c.put_item(TableName=table, Item=too_much)


# In a transaction the limit cancels the transaction with reason ItemCollectionSizeLimitExceeded.
@pytest.mark.needs_own_server
def test_item_collection_limit_in_transaction(launch_dynamod):
    server = launch_dynamod(args=["--item-collection-limit", "64KB"], in_memory=True)
    c = h.make_client(server.endpoint)
    table = limited_table(c)
    fill_to_limit(c, table)
    with pytest.raises(c.exceptions.TransactionCanceledException) as info:
        c.transact_write_items(TransactItems=[
            {"Put": {"TableName": table, "Item": {"pk": S("F"), "sk": S("tx")}}},
            {"Put": {"TableName": table, "Item": {"pk": S("H"), "sk": S("tx")}}}])
    reasons = info.value.response["CancellationReasons"]
    assert reasons[0] == {"Code": "ItemCollectionSizeLimitExceeded", "Message": LIMIT_MESSAGE}
    assert reasons[1]["Code"] == "None"
    assert "Item" not in c.get_item(TableName=table, Key={"pk": S("H"), "sk": S("tx")}, ConsistentRead=True)


# Tables without LSIs have no item collections and no limit: one partition may grow past it.
@pytest.mark.needs_own_server
def test_no_collection_limit_without_lsi(launch_dynamod):
    server = launch_dynamod(args=["--item-collection-limit", "64KB"], in_memory=True)
    c = h.make_client(server.endpoint)
    name = h.unique_name("icl_plain")
    c.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                   AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("g", "S")), GlobalSecondaryIndexes=[gsi("by_g", "g")])
    h.wait_active(c, name)
    h.batch_put(c, name, [ix.sized_item({"pk": S("F"), "sk": S("s%03d" % i)}, 1000, g="G") for i in range(100)])
    assert c.query(TableName=name, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("F")},
                   Select="COUNT", ConsistentRead=True)["Count"] == 100
