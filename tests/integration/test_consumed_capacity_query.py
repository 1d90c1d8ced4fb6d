"""ReturnConsumedCapacity on Query and Scan (and the conditional-write cases that can be
observed): a page is billed as ONE read of the summed size of the items read, rounded up to
4 KB once - before the filter, regardless of projection or Select=COUNT; eventually
consistent reads cost half.

Item sizes are exact (names + values, see /work/notes/item-size.md); every item below is
padded to a known size with one string attribute. Catalogue: /work/notes/errors-query-scan-update.md
("ConsumedCapacity").
"""
import math

import pytest

import dynamo_helpers as h
from dynamo_helpers import expect_error

dev = pytest.mark.dynamodb_local_deviation
S = lambda v: {"S": v}  # noqa: E731


def rcu(total_bytes, consistent):
    units = math.ceil(total_bytes / 4096)
    return float(units) if consistent else units / 2


@pytest.fixture(scope="module")
def tbl(dynamodb, module_tables):
    """pk S / sk S (+ GSI g KEYS_ONLY) with partitions of known total size:

    small: 10 items x 300 B = 3,000 B          wide:  10 items x 4,178 B = 41,780 B (~40.8 KB)
    edge4k: 2 items = 4,096 B exactly          edge4k1: 2 items = 4,097 B
    """
    name = module_tables(tag="ccq",
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                               {"AttributeName": "sk", "AttributeType": "S"},
                                               {"AttributeName": "g", "AttributeType": "S"}],
                         GlobalSecondaryIndexes=[{"IndexName": "gsi",
                                                  "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                                  "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    items = [h.padded_item({"pk": S("small"), "sk": S("s%d" % i)}, 300) for i in range(10)]
    items += [h.padded_item({"pk": S("wide"), "sk": S("s%d" % i), "g": S("G")}, 4178) for i in range(10)]
    items += [h.padded_item({"pk": S("edge4k"), "sk": S("s%d" % i)}, 2048) for i in range(2)]
    items += [h.padded_item({"pk": S("edge4k1"), "sk": S("s0")}, 2048),
              h.padded_item({"pk": S("edge4k1"), "sk": S("s1")}, 2049)]
    h.batch_put(dynamodb, name, items)
    h.wait_for_count(lambda: dynamodb.query(TableName=name, IndexName="gsi", KeyConditionExpression="g = :g",
                                            ExpressionAttributeValues={":g": S("G")}, Select="COUNT")["Count"], 10)
    return name


def query_units(client, table, pk, consistent, **kw):
    resp = client.query(TableName=table, KeyConditionExpression="pk = :p", ExpressionAttributeValues=dict(
        {":p": S(pk)}, **kw.pop("values", {})), ConsistentRead=consistent, ReturnConsumedCapacity="TOTAL", **kw)
    assert resp["ConsumedCapacity"]["TableName"] == table
    return resp["ConsumedCapacity"]["CapacityUnits"], resp


# Ten 300-byte items read by one Query: 3,000 bytes rounded once = 1 RCU strongly consistent,
# 0.5 eventually consistent - whereas ten GetItems of the same items cost 10 x 1 RCU.
def test_small_items_rounded_once(dynamodb, tbl):
    assert query_units(dynamodb, tbl, "small", True)[0] == 1.0
    assert query_units(dynamodb, tbl, "small", False)[0] == 0.5
    total = sum(dynamodb.get_item(TableName=tbl, Key={"pk": S("small"), "sk": S("s%d" % i)}, ConsistentRead=True,
                                  ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]["CapacityUnits"]
                for i in range(10))
    assert total == 10.0


# A page of 41,780 bytes (~40.8 KB) rounds up to 44 KB: 11 RCU strong, 5.5 eventual.
@pytest.mark.parametrize("consistent,units", [(True, 11.0), (False, 5.5)])
def test_forty_kilobytes(dynamodb, tbl, consistent, units):
    assert query_units(dynamodb, tbl, "wide", consistent)[0] == units == rcu(41780, consistent)


# The 4 KB boundary applies to the page total: 4,096 bytes is 1 RCU, 4,097 bytes is 2.
@pytest.mark.parametrize("pk,units", [("edge4k", 1.0), ("edge4k1", 2.0)])
def test_page_total_boundary(dynamodb, tbl, pk, units):
    assert query_units(dynamodb, tbl, pk, True)[0] == units


# The filter does not reduce the bill (items are read before they are filtered), nor does a
# projection or Select=COUNT.
@pytest.mark.parametrize("kw", [
    {"FilterExpression": "attribute_not_exists(filler)"},
    {"FilterExpression": "filler = :x", "values": {":x": S("nothing")}},
    {"ProjectionExpression": "sk"},
    {"Select": "COUNT"},
], ids=["filter-none-kept", "filter-value", "projection", "count"])
def test_filter_projection_count_cost_the_same(dynamodb, tbl, kw):
    units, resp = query_units(dynamodb, tbl, "wide", True, **kw)
    assert units == 11.0 and resp["ScannedCount"] == 10


# Limit bounds what is read, hence what is billed: 3 x 4,178 B = 12,534 B -> 4 RCU / 2 RCU.
@pytest.mark.parametrize("consistent,units", [(True, 4.0), (False, 2.0)])
def test_limit_reduces_the_bill(dynamodb, tbl, consistent, units):
    assert query_units(dynamodb, tbl, "wide", consistent, Limit=3)[0] == units


# INDEXES adds the per-table breakdown for a table query.
def test_indexes_shape(dynamodb, tbl):
    resp = dynamodb.query(TableName=tbl, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("wide")},
                          ConsistentRead=True, ReturnConsumedCapacity="INDEXES")
    assert resp["ConsumedCapacity"] == {"TableName": tbl, "CapacityUnits": 11.0, "Table": {"CapacityUnits": 11.0}}


# No ReturnConsumedCapacity (or NONE): no ConsumedCapacity member.
def test_none(dynamodb, tbl):
    resp = dynamodb.query(TableName=tbl, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("small")},
                          ReturnConsumedCapacity="NONE")
    assert "ConsumedCapacity" not in resp
    assert "ConsumedCapacity" not in dynamodb.scan(TableName=tbl, Limit=1)


# A GSI query is billed on the index entries read (here KEYS_ONLY entries of ~25 bytes),
# not on the table items: 10 entries << 4 KB -> 0.5 RCU (GSI reads are eventually consistent).
def test_gsi_query_bills_index_entries(dynamodb, tbl):
    resp = dynamodb.query(TableName=tbl, IndexName="gsi", KeyConditionExpression="g = :g",
                          ExpressionAttributeValues={":g": S("G")}, ReturnConsumedCapacity="TOTAL")
    assert resp["Count"] == 10
    assert resp["ConsumedCapacity"] == {"TableName": tbl, "CapacityUnits": 0.5}


# Scan: the same rule over the page it reads (eventually consistent by default).
def test_scan_sums_the_page(dynamodb, tbl):
    total = 3000 + 41780 + 4096 + 4097
    for consistent in (True, False):
        resp = dynamodb.scan(TableName=tbl, ConsistentRead=consistent, ReturnConsumedCapacity="TOTAL")
        assert resp["Count"] == 24
        assert resp["ConsumedCapacity"] == {"TableName": tbl, "CapacityUnits": rcu(total, consistent)}
    resp = dynamodb.scan(TableName=tbl, ConsistentRead=True, ReturnConsumedCapacity="TOTAL",
                         FilterExpression="attribute_not_exists(filler)")
    assert resp["Count"] == 0 and resp["ConsumedCapacity"]["CapacityUnits"] == rcu(total, True)


# ---------------------------------------------------------------- conditional writes


# A failed conditional write is billed (documented: existing item size, or 1 WCU) but the
# ConditionalCheckFailedException carries no ConsumedCapacity - that is all a client can see.
@pytest.mark.parametrize("op", ["put", "update", "delete"])
def test_failed_condition_reports_no_capacity(dynamodb, module_tables, op):
    t = module_tables("hash", tag="ccw")
    dynamodb.put_item(TableName=t, Item=h.padded_item({"pk": S("c")}, 3000))
    kw = dict(ConditionExpression="attribute_not_exists(pk)", ReturnConsumedCapacity="TOTAL")
    if op == "put":
        call = lambda: dynamodb.put_item(TableName=t, Item={"pk": S("c")}, **kw)  # noqa: E731
    elif op == "update":
        call = lambda: dynamodb.update_item(TableName=t, Key={"pk": S("c")}, UpdateExpression="SET a = :a",  # noqa: E731
                                            ExpressionAttributeValues={":a": S("x")}, **kw)
    else:
        call = lambda: dynamodb.delete_item(TableName=t, Key={"pk": S("c")}, **kw)  # noqa: E731
    err = expect_error(call, "ConditionalCheckFailedException", "The conditional request failed")
    assert "ConsumedCapacity" not in err.response


# A successful conditional write is billed like an unconditional one: UpdateItem bills the
# larger of the before and after images (3,000 B item shrunk to 3 B -> 3 WCU).
def test_conditional_update_bills_larger_image(dynamodb, module_tables):
    t = module_tables("hash", tag="ccw2")
    dynamodb.put_item(TableName=t, Item=h.padded_item({"pk": S("c")}, 3000))
    resp = dynamodb.update_item(TableName=t, Key={"pk": S("c")}, UpdateExpression="REMOVE filler",
                                ConditionExpression="attribute_exists(filler)", ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == {"TableName": t, "CapacityUnits": 3.0}
    resp = dynamodb.update_item(TableName=t, Key={"pk": S("c")}, UpdateExpression="SET filler = :f",
                                ExpressionAttributeValues={":f": S("x" * 2500)}, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 3.0  # 2 + 1 + 6 + 2500 = 2,509 B
