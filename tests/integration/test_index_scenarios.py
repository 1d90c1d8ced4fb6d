"""The design-method seed scenarios, written to read like the designs they teach.

Each test builds the table a single-table design would use, writes the items the access patterns
need, and then serves every access pattern with one request, checking what a client sees - the
items, their order, and where it matters the capacity reported with ReturnConsumedCapacity=INDEXES.

Specification of the index behaviour relied on: /work/notes/errors-indexes.md.
"""
import pytest

import dynamo_helpers as h
import index_helpers as ix
from dynamo_helpers import expect_error
from index_helpers import N, S, ad, gsi, ks, lsi


def single_table(module_tables, tag, *indexes, extra_defs=()):
    """PK/SK table (both S) with the given GSIs (GSI key attributes are S unless listed)."""
    defs = [("PK", "S"), ("SK", "S")] + list(extra_defs)
    return module_tables(tag=tag, KeySchema=ks(("PK", "HASH"), ("SK", "RANGE")), AttributeDefinitions=ad(*defs),
                         **({"GlobalSecondaryIndexes": list(indexes)} if indexes else {}))


def item(pk, sk, **attrs):
    out = {"PK": S(pk), "SK": S(sk)}
    for k, v in attrs.items():
        out[k] = S(v) if isinstance(v, str) else N(v) if isinstance(v, (int, float)) else v
    return out


def sks(items):
    return [i["SK"]["S"] for i in items]


# ---------------------------------------------------------------- one-to-one and one-to-many
# A user's profile (one-to-one), settings (one-to-one) and orders (one-to-many) live in ONE item
# collection, PK = USER#u42. Sort keys are chosen so that one Query returns the whole aggregate, and
# begins_with on the sort key narrows it to the orders - in date order, because the order id starts
# with an ISO date.
def test_one_to_many_under_one_partition(dynamodb, module_tables):
    table = single_table(module_tables, "sc_user")
    u42 = [item("USER#u42", "PROFILE", name="Ada", email="ada@example.com"),
           item("USER#u42", "SETTINGS", theme="dark", locale="en-GB"),
           item("USER#u42", "ORDER#2024-03-02#o7", total=25),
           item("USER#u42", "ORDER#2023-11-30#o3", total=80),
           item("USER#u42", "ORDER#2024-01-15#o5", total=12)]
    h.batch_put(dynamodb, table, u42 + [item("USER#u7", "PROFILE", name="Bob"), item("USER#u7", "ORDER#2024-02-01#o6", total=5)])

    everything = dynamodb.query(TableName=table, KeyConditionExpression="PK = :u",
                                ExpressionAttributeValues={":u": S("USER#u42")}, ConsistentRead=True)
    assert everything["Count"] == 5 and "LastEvaluatedKey" not in everything
    assert sks(everything["Items"]) == ["ORDER#2023-11-30#o3", "ORDER#2024-01-15#o5", "ORDER#2024-03-02#o7",
                                        "PROFILE", "SETTINGS"]

    orders = dynamodb.query(TableName=table, KeyConditionExpression="PK = :u AND begins_with(SK, :o)",
                            ExpressionAttributeValues={":u": S("USER#u42"), ":o": S("ORDER#")},
                            ScanIndexForward=False, Limit=2, ConsistentRead=True)
    assert sks(orders["Items"]) == ["ORDER#2024-03-02#o7", "ORDER#2024-01-15#o5"]     # the two most recent

    profile = dynamodb.get_item(TableName=table, Key={"PK": S("USER#u42"), "SK": S("PROFILE")}, ConsistentRead=True)
    assert profile["Item"]["name"] == S("Ada")


# ---------------------------------------------------------------- adjacency list
# User <-> Group membership (many-to-many). Each membership is one edge item stored in the user's
# partition (PK = USER#u, SK = GROUP#g) that also carries the inverted key GSI1PK = GROUP#g,
# GSI1SK = USER#u. The relationship is therefore held twice - as the table item (user -> groups) and as
# its GSI1 entry (group -> users) - without the application writing a second item. Group metadata
# lives in GSI1 under the same GSI1PK, so begins_with(GSI1SK, "USER#") separates members from it.
def test_adjacency_list_user_group_membership(dynamodb, module_tables):
    table = single_table(module_tables, "sc_adj", gsi("GSI1", "GSI1PK", "GSI1SK"),
                         extra_defs=[("GSI1PK", "S"), ("GSI1SK", "S")])
    memberships = [("u1", "g7", "admin"), ("u2", "g7", "member"), ("u3", "g7", "member"), ("u1", "g9", "member"),
                   ("u3", "g9", "admin")]
    items = [item("USER#%s" % u, "PROFILE", name=u.upper()) for u in ("u1", "u2", "u3")]
    items += [item("GROUP#%s" % g, "METADATA", GSI1PK="GROUP#%s" % g, GSI1SK="METADATA", title="Group " + g)
              for g in ("g7", "g9")]
    items += [item("USER#%s" % u, "GROUP#%s" % g, GSI1PK="GROUP#%s" % g, GSI1SK="USER#%s" % u, role=role)
              for u, g, role in memberships]
    h.batch_put(dynamodb, table, items)

    # user -> groups: the table key
    groups = dynamodb.query(TableName=table, KeyConditionExpression="PK = :u AND begins_with(SK, :g)",
                            ExpressionAttributeValues={":u": S("USER#u1"), ":g": S("GROUP#")}, ConsistentRead=True)
    assert sks(groups["Items"]) == ["GROUP#g7", "GROUP#g9"]

    # group -> users: the inverted index, one Query
    members = ix.wait_index_count(dynamodb, table, "GSI1", "GSI1PK = :g AND begins_with(GSI1SK, :u)",
                                  {":g": S("GROUP#g7"), ":u": S("USER#")}, 3)
    assert [m["GSI1SK"]["S"] for m in members] == ["USER#u1", "USER#u2", "USER#u3"]
    assert [m["role"]["S"] for m in members] == ["admin", "member", "member"]
    # the group's whole GSI1 partition: metadata + members
    whole = ix.index_items(dynamodb, table, "GSI1", "GSI1PK = :g", {":g": S("GROUP#g7")})
    assert [w["GSI1SK"]["S"] for w in whole] == ["METADATA", "USER#u1", "USER#u2", "USER#u3"]

    # removing a membership removes both directions
    dynamodb.delete_item(TableName=table, Key={"PK": S("USER#u2"), "SK": S("GROUP#g7")})
    left = ix.wait_index_count(dynamodb, table, "GSI1", "GSI1PK = :g AND begins_with(GSI1SK, :u)",
                               {":g": S("GROUP#g7"), ":u": S("USER#")}, 2)
    assert [m["GSI1SK"]["S"] for m in left] == ["USER#u1", "USER#u3"]


# ---------------------------------------------------------------- sparse index
# Only pending orders carry the attributes of the sparse index PendingByDate (PENDING_PK =
# "STATUS#PENDING", PENDING_SK = order date). Delivering an order REMOVEs them: the order leaves the
# index (one index write - a delete), and from then on its writes cost the index nothing. Orders
# that were never pending never touch the index at all.
def test_sparse_pending_index(dynamodb, module_tables):
    table = single_table(module_tables, "sc_sparse", gsi("PendingByDate", "PENDING_PK", "PENDING_SK", "KEYS_ONLY"),
                         extra_defs=[("PENDING_PK", "S"), ("PENDING_SK", "S")])

    def put(order, date, pending):
        extra = {"PENDING_PK": "STATUS#PENDING", "PENDING_SK": date} if pending else {}
        return dynamodb.put_item(TableName=table, ReturnConsumedCapacity="INDEXES",
                                 Item=item("ORDER#%s" % order, "ORDER", status="PENDING" if pending else "DELIVERED",
                                           date=date, **extra))["ConsumedCapacity"]

    cc = put("o1", "2024-05-03", True)
    assert ix.capacity_arms(cc) == (2.0, 1.0, {"PendingByDate": 1.0}, {})     # put into the index
    put("o2", "2024-05-01", True)
    put("o3", "2024-05-02", True)
    cc = put("o4", "2024-04-01", False)
    assert ix.capacity_arms(cc) == (1.0, 1.0, {}, {})                          # outside the index: free
    assert "GlobalSecondaryIndexes" not in cc

    pending = ix.wait_index_count(dynamodb, table, "PendingByDate", "PENDING_PK = :p", {":p": S("STATUS#PENDING")}, 3)
    assert [p["PK"]["S"] for p in pending] == ["ORDER#o2", "ORDER#o3", "ORDER#o1"]     # oldest first

    delivered = dynamodb.update_item(TableName=table, Key={"PK": S("ORDER#o2"), "SK": S("ORDER")},
                                     UpdateExpression="SET #s = :d REMOVE PENDING_PK, PENDING_SK",
                                     ExpressionAttributeNames={"#s": "status"}, ExpressionAttributeValues={":d": S("DELIVERED")},
                                     ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert ix.capacity_arms(delivered) == (2.0, 1.0, {"PendingByDate": 1.0}, {})     # leaving = one delete
    later = dynamodb.update_item(TableName=table, Key={"PK": S("ORDER#o2"), "SK": S("ORDER")},
                                 UpdateExpression="SET rating = :r", ExpressionAttributeValues={":r": N(5)},
                                 ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert ix.capacity_arms(later) == (1.0, 1.0, {}, {})
    pending = ix.wait_index_count(dynamodb, table, "PendingByDate", "PENDING_PK = :p", {":p": S("STATUS#PENDING")}, 2)
    assert [p["PK"]["S"] for p in pending] == ["ORDER#o3", "ORDER#o1"]


# ---------------------------------------------------------------- overloaded GSI
# One generic index, GSI1 (GSI1PK, GSI1SK), serves two unrelated access patterns because different
# entity types put different things in its key: reviews are indexed by product (GSI1PK = PRODUCT#p,
# GSI1SK = REVIEW#<date>), orders by status (GSI1PK = STATUS#<status>, GSI1SK = ORDER#<date>).
def test_overloaded_gsi_reviews_and_orders(dynamodb, module_tables):
    table = single_table(module_tables, "sc_over", gsi("GSI1", "GSI1PK", "GSI1SK"),
                         extra_defs=[("GSI1PK", "S"), ("GSI1SK", "S")])
    items = [
        item("REVIEW#r1", "REVIEW", GSI1PK="PRODUCT#p1", GSI1SK="REVIEW#2024-02-10", stars=4),
        item("REVIEW#r2", "REVIEW", GSI1PK="PRODUCT#p1", GSI1SK="REVIEW#2024-01-05", stars=2),
        item("REVIEW#r3", "REVIEW", GSI1PK="PRODUCT#p2", GSI1SK="REVIEW#2024-03-01", stars=5),
        item("ORDER#o1", "ORDER", GSI1PK="STATUS#PENDING", GSI1SK="ORDER#2024-03-04", total=10),
        item("ORDER#o2", "ORDER", GSI1PK="STATUS#SHIPPED", GSI1SK="ORDER#2024-03-01", total=20),
        item("ORDER#o3", "ORDER", GSI1PK="STATUS#PENDING", GSI1SK="ORDER#2024-02-28", total=30),
    ]
    h.batch_put(dynamodb, table, items)
    reviews = ix.wait_index_count(dynamodb, table, "GSI1", "GSI1PK = :p AND begins_with(GSI1SK, :r)",
                                  {":p": S("PRODUCT#p1"), ":r": S("REVIEW#")}, 2)
    assert [r["PK"]["S"] for r in reviews] == ["REVIEW#r2", "REVIEW#r1"]
    pending = ix.wait_index_count(dynamodb, table, "GSI1", "GSI1PK = :s", {":s": S("STATUS#PENDING")}, 2)
    assert [(o["PK"]["S"], o["total"]["N"]) for o in pending] == [("ORDER#o3", "30"), ("ORDER#o1", "10")]
    newest_first = ix.index_items(dynamodb, table, "GSI1", "GSI1PK = :s", {":s": S("STATUS#PENDING")}, ScanIndexForward=False)
    assert [o["PK"]["S"] for o in newest_first] == ["ORDER#o1", "ORDER#o3"]


# ---------------------------------------------------------------- GSI write amplification
# Every GSI that holds an item is written with it. A 2,000-byte item (2 WCU) in a table with four GSIs
# projecting ALL costs 2 + 4 x 2 = 10 WCU per write - and INDEXES shows each GSI with 2.0. Updating a
# non-key attribute rewrites all four entries again (10); deleting the item deletes four entries.
def test_gsi_write_amplification(dynamodb, module_tables):
    names = ["GSI%d" % i for i in range(1, 5)]
    table = module_tables("hash", tag="sc_amp", AttributeDefinitions=ad(("pk", "S"), *[(n + "PK", "S") for n in names]),
                          GlobalSecondaryIndexes=[gsi(n, n + "PK") for n in names])
    doc = ix.sized_item({"pk": S("doc#1")}, 2000, **{n + "PK": "K" for n in names})
    cc = dynamodb.put_item(TableName=table, Item=doc, ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert cc["TableName"] == table
    assert ix.capacity_arms(cc) == (10.0, 2.0, {n: 2.0 for n in names}, {})
    total = dynamodb.put_item(TableName=table, Item=dict(doc, f=S("y" * len(doc["f"]["S"]))),
                              ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]
    assert total == {"TableName": table, "CapacityUnits": 10.0}
    cc = dynamodb.delete_item(TableName=table, Key={"pk": S("doc#1")}, ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert ix.capacity_arms(cc) == (10.0, 2.0, {n: 2.0 for n in names}, {})


# ---------------------------------------------------------------- item collection limit
# Forum threads keyed by forum with an LSI by last post: every item of a forum - and its LSI entry -
# belongs to the forum's item collection. dynamod started with --item-collection-limit 64KB stands in
# for the service's 10 GB: the busy forum fills up and further posts fail with
# ItemCollectionSizeLimitExceededException, while deleting an old thread succeeds and makes room, and
# other forums are unaffected.
@pytest.mark.needs_own_server
def test_lsi_collection_hits_limit_then_accepts_delete(launch_dynamod):
    server = launch_dynamod(args=["--item-collection-limit", "64KB"], in_memory=True)
    c = h.make_client(server.endpoint)
    table = h.unique_name("sc_icl")
    c.create_table(TableName=table, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("forum", "HASH"), ("subject", "RANGE")),
                   AttributeDefinitions=ad(("forum", "S"), ("subject", "S"), ("last_post", "S")),
                   LocalSecondaryIndexes=[lsi("by_last_post", "last_post", hash_key="forum")])
    h.wait_active(c, table)

    def post(forum, n):
        return ix.sized_item({"forum": S(forum), "subject": S("t%03d" % n)}, 1500, last_post="2024-01-%02d" % (n % 28 + 1))

    written = 0
    with pytest.raises(c.exceptions.ItemCollectionSizeLimitExceededException) as info:
        while written < 100:
            c.put_item(TableName=table, Item=post("busy", written))
            written += 1
    assert info.value.response["Error"]["Message"] == "Collection size exceeded."
    assert written == 65536 // 3000                       # 21 threads x (1,500 + 1,500 LSI entry) fit
    c.delete_item(TableName=table, Key={"forum": S("busy"), "subject": S("t000")})
    c.put_item(TableName=table, Item=post("busy", written))
    c.put_item(TableName=table, Item=post("quiet", 0))
    threads = c.query(TableName=table, IndexName="by_last_post", KeyConditionExpression="forum = :f",
                      ExpressionAttributeValues={":f": S("busy")}, Select="COUNT", ConsistentRead=True)
    assert threads["Count"] == written
    expect_error(lambda: c.put_item(TableName=table, Item=post("busy", 99)),
                 "ItemCollectionSizeLimitExceededException", "Collection size exceeded.")
