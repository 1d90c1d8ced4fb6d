"""Index keys inside TransactWriteItems (issue 32 item 3), every form.

An empty string or binary GSI key value, from a Put or an Update, is refused with a top-level
ValidationException carrying the standalone write's text (nothing is written); a wrong-typed or
non-scalar GSI key value cancels the transaction with a ValidationError reason carrying the
service's whole "Type mismatch for Index Key ..." text (docs/service-fidelity.md).
"""
import pytest

import dynamo_helpers as h
from batch_txn_helpers import TCE, reasons_of
from dynamo_helpers import check_error
import index_helpers as ix
from index_helpers import INVALID, VE, B, N, S, ad, gsi, mismatch

dev = pytest.mark.dynamodb_local_deviation
EMPTY_PUT = ("One or more parameter values are not valid. A value specified for a secondary index key is not supported. "
             "The AttributeValue for a key attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s")
EMPTY_UPDATE = ("One or more parameter values are not valid. The update expression attempted to update a secondary "
                "index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an "
                "empty %s value.")
CANCELLED = "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]"


# Hash-only table with three GSIs: by_b (HASH b B), by_g (HASH g S), by_g_n (HASH g S, RANGE n N).
@pytest.fixture(scope="module")
def strict(module_tables):
    return module_tables("hash", tag="txix",
                         AttributeDefinitions=ad(("pk", "S"), ("b", "B"), ("g", "S"), ("n", "N")),
                         GlobalSecondaryIndexes=[gsi("by_b", "b"), gsi("by_g", "g"), gsi("by_g_n", "g", "n", "KEYS_ONLY")])


def get(dynamodb, table, k):
    return dynamodb.get_item(TableName=table, Key={"pk": S(k)}, ConsistentRead=True).get("Item")


def put(table, item):
    return {"Put": {"TableName": table, "Item": item}}


def update(table, k, attr, value):
    return {"Update": {"TableName": table, "Key": {"pk": S(k)}, "UpdateExpression": "SET #a = :v",
                       "ExpressionAttributeNames": {"#a": attr}, "ExpressionAttributeValues": {":v": value}}}


EMPTY = [("g", S(""), "string", "by_g"), ("b", B(b""), "binary", "by_b")]


@pytest.mark.parametrize("attr,value,kind,index", EMPTY, ids=["string", "binary"])
def test_empty_index_key_put(dynamodb, strict, attr, value, kind, index):
    k = h.unique_name("ep")
    with pytest.raises(Exception) as info:
        dynamodb.transact_write_items(TransactItems=[put(strict, {"pk": S(k + "-ok")}),
                                                     put(strict, {"pk": S(k), attr: value})])
    check_error(info.value, VE, EMPTY_PUT % (kind, index, attr))
    assert get(dynamodb, strict, k + "-ok") is None


@pytest.mark.parametrize("attr,value,kind,index", EMPTY, ids=["string", "binary"])
@pytest.mark.parametrize("stored", [False, True], ids=["new-item", "stored-item"])
def test_empty_index_key_update(dynamodb, strict, attr, value, kind, index, stored):
    k = h.unique_name("eu")
    if stored:
        dynamodb.put_item(TableName=strict, Item={"pk": S(k), "g": S("G")})
    with pytest.raises(Exception) as info:
        dynamodb.transact_write_items(TransactItems=[put(strict, {"pk": S(k + "-ok")}),
                                                     update(strict, k, attr, value)])
    check_error(info.value, VE, EMPTY_UPDATE % kind)
    assert get(dynamodb, strict, k + "-ok") is None
    assert get(dynamodb, strict, k) == ({"pk": S(k), "g": S("G")} if stored else None)


# test_gsi's wrong types (index_helpers), and the sets besides.
WRONG_TYPES = ix.WRONG_TYPES + [
    ("n", {"NS": ["1"]}, "N", "NS", "by_g_n"),
    ("b", {"BS": [b"x"]}, "B", "BS", "by_b"),
]
WRONG_IDS = ix.WRONG_IDS + ["N<-NS", "B<-BS"]


def expect_type_cancellation(dynamodb, strict, action, message):
    k = action_key = h.unique_name("wt")
    with pytest.raises(Exception) as info:
        dynamodb.transact_write_items(TransactItems=[put(strict, {"pk": S(k + "-ok")}), action(action_key)])
    code, msg, status = h.error_of(info.value)
    assert (code, msg, status) == (TCE, CANCELLED, 400), (code, msg)
    reasons = reasons_of(info.value)
    assert [r["Code"] for r in reasons] == ["None", "ValidationError"]
    assert reasons[1]["Message"] == message
    assert get(dynamodb, strict, k + "-ok") is None


@dev("the cancellation reason's message is truncated")
@pytest.mark.parametrize("attr,value,expected,actual,index", WRONG_TYPES, ids=WRONG_IDS)
def test_wrong_type_index_key_put(dynamodb, strict, attr, value, expected, actual, index):
    def action(k):
        item = {"pk": S(k), "g": S("G"), "n": N(1), "b": B(b"b")}
        item[attr] = value
        return put(strict, item)
    expect_type_cancellation(dynamodb, strict, action, mismatch(attr, expected, actual, index))


@dev("the cancellation reason's message is truncated")
@pytest.mark.parametrize("attr,value,expected,actual,index", WRONG_TYPES, ids=WRONG_IDS)
def test_wrong_type_index_key_update(dynamodb, strict, attr, value, expected, actual, index):
    expect_type_cancellation(dynamodb, strict, lambda k: update(strict, k, attr, value),
                             mismatch(attr, expected, actual, index))
