"""ReturnConsumedCapacity on PutItem / GetItem / DeleteItem: exact units for items of known
size around the 1 KB (write) and 4 KB (read) boundaries.

Item size = UTF-8 bytes of each attribute name + size of each value (S: UTF-8 bytes).
Write units = ceil(size / 1024), at least 1; read units = ceil(size / 4096), halved for
eventually consistent reads; a missing item still costs one read (0.5 / 1) and deleting
a missing item one write.
"""
import uuid

import pytest


def fresh_key(tag):
    return "%s-%s" % (tag, uuid.uuid4().hex[:8])


def item_of_size(key, size):
    """An item {pk: key, d: "x"*n} of exactly `size` bytes."""
    base = len("pk") + len(key.encode()) + len("d")
    assert size >= base
    return {"pk": {"S": key}, "d": {"S": "x" * (size - base)}}


def expected_total(table, units):
    return {"TableName": table, "CapacityUnits": units}


def expected_indexes(table, units):
    return {"TableName": table, "CapacityUnits": units, "Table": {"CapacityUnits": units}}


# Without ReturnConsumedCapacity (or with NONE) there is no ConsumedCapacity member.
@pytest.mark.parametrize("rcc", [None, "NONE"])
def test_none(dynamodb, hash_table, rcc):
    kw = {"ReturnConsumedCapacity": rcc} if rcc else {}
    assert "ConsumedCapacity" not in dynamodb.put_item(TableName=hash_table, Item={"pk": {"S": "none"}}, **kw)
    assert "ConsumedCapacity" not in dynamodb.get_item(TableName=hash_table, Key={"pk": {"S": "none"}}, **kw)
    assert "ConsumedCapacity" not in dynamodb.delete_item(TableName=hash_table, Key={"pk": {"S": "none"}}, **kw)


# Deleting an item that is not there is no different.
@pytest.mark.dynamodb_local_deviation("returns ConsumedCapacity (1.0) for a DeleteItem of a missing item")
@pytest.mark.parametrize("rcc", [None, "NONE"])
def test_none_delete_missing(dynamodb, hash_table, rcc):
    kw = {"ReturnConsumedCapacity": rcc} if rcc else {}
    assert "ConsumedCapacity" not in dynamodb.delete_item(TableName=hash_table, Key={"pk": {"S": "never-put"}}, **kw)


# PutItem of a new item costs ceil(size / 1 KB) write units.
@pytest.mark.parametrize("size,units", [(20, 1.0), (1024, 1.0), (1025, 2.0), (2048, 2.0), (2049, 3.0), (409600, 400.0)])
def test_put_new_item(dynamodb, hash_table, size, units):
    t = hash_table
    resp = dynamodb.put_item(TableName=t, Item=item_of_size(fresh_key("p"), size), ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == expected_total(t, units)


# Overwriting bills the larger of the old and the new item.
@pytest.mark.parametrize("old,new,units", [(3000, 20, 3.0), (20, 3000, 3.0), (1500, 1500, 2.0)])
def test_put_overwrite_bills_larger(dynamodb, hash_table, old, new, units):
    t, k = hash_table, fresh_key("o")
    dynamodb.put_item(TableName=t, Item=item_of_size(k, old))
    resp = dynamodb.put_item(TableName=t, Item=item_of_size(k, new), ReturnConsumedCapacity="TOTAL",
                             ReturnValues="ALL_OLD")
    assert resp["ConsumedCapacity"] == expected_total(t, units)
    assert resp["Attributes"] == item_of_size(k, old)


# INDEXES adds the per-table breakdown (no index members on a table without indexes).
def test_put_indexes(dynamodb, hash_table):
    t = hash_table
    resp = dynamodb.put_item(TableName=t, Item=item_of_size(fresh_key("i"), 1025), ReturnConsumedCapacity="INDEXES")
    assert resp["ConsumedCapacity"] == expected_indexes(t, 2.0)


# GetItem: ceil(size / 4 KB) units, halved when eventually consistent.
@pytest.mark.parametrize("size,strong,eventual", [(20, 1.0, 0.5), (4096, 1.0, 0.5), (4097, 2.0, 1.0),
                                                  (8192, 2.0, 1.0), (8193, 3.0, 1.5), (409600, 100.0, 50.0)])
def test_get_item_units(dynamodb, hash_table, size, strong, eventual):
    t, k = hash_table, fresh_key("g")
    dynamodb.put_item(TableName=t, Item=item_of_size(k, size))
    key = {"pk": {"S": k}}
    resp = dynamodb.get_item(TableName=t, Key=key, ConsistentRead=True, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == expected_total(t, strong)
    resp = dynamodb.get_item(TableName=t, Key=key, ConsistentRead=False, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == expected_total(t, eventual)
    resp = dynamodb.get_item(TableName=t, Key=key, ReturnConsumedCapacity="INDEXES")
    assert resp["ConsumedCapacity"] == expected_indexes(t, eventual)


# Reading a missing item still costs one read.
def test_get_missing_item(dynamodb, hash_table):
    key = {"pk": {"S": "absent"}}
    resp = dynamodb.get_item(TableName=hash_table, Key=key, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == expected_total(hash_table, 0.5)
    resp = dynamodb.get_item(TableName=hash_table, Key=key, ConsistentRead=True, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == expected_total(hash_table, 1.0)


# A projection does not reduce the read cost: the whole item is read.
def test_get_projection_costs_whole_item(dynamodb, hash_table):
    t, k = hash_table, fresh_key("g")
    dynamodb.put_item(TableName=t, Item=item_of_size(k, 5000))
    resp = dynamodb.get_item(TableName=t, Key={"pk": {"S": k}}, ConsistentRead=True,
                             ProjectionExpression="pk", ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == expected_total(t, 2.0)


# DeleteItem bills the deleted item's size; ALL_OLD does not change the bill.
@pytest.mark.parametrize("size,units", [(20, 1.0), (1024, 1.0), (1025, 2.0), (5000, 5.0)])
@pytest.mark.parametrize("rv", ["NONE", "ALL_OLD"])
def test_delete_item_units(dynamodb, hash_table, size, units, rv):
    t, k = hash_table, fresh_key("d")
    dynamodb.put_item(TableName=t, Item=item_of_size(k, size))
    resp = dynamodb.delete_item(TableName=t, Key={"pk": {"S": k}}, ReturnValues=rv, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == expected_total(t, units)


# Deleting a missing item costs one write unit.
def test_delete_missing_item(dynamodb, hash_table):
    resp = dynamodb.delete_item(TableName=hash_table, Key={"pk": {"S": "never"}}, ReturnConsumedCapacity="INDEXES")
    assert resp["ConsumedCapacity"] == expected_indexes(hash_table, 1.0)


# Sizes count UTF-8 bytes, not characters: 512 two-byte characters are 1 KB.
def test_utf8_size(dynamodb, hash_table):
    t = hash_table
    item = {"pk": {"S": "u"}, "d": {"S": "\u00e9" * 510}}  # 2+1+1 + 1020 = 1024 bytes
    resp = dynamodb.put_item(TableName=t, Item=item, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == expected_total(t, 1.0)
    item["d"] = {"S": "\u00e9" * 511}  # 1026 bytes
    resp = dynamodb.put_item(TableName=t, Item={"pk": {"S": "u2"}, "d": item["d"]}, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == expected_total(t, 2.0)
