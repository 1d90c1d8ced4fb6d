"""BatchWriteItem: request validation (exact messages; one bad request fails the whole call and
writes nothing), the answer's shape (UnprocessedItems always present), ConsumedCapacity per table
and ItemCollectionMetrics for tables with a local secondary index.

Catalogue: /work/notes/errors-batch-transact.md ("BatchWriteItem").
"""
import pytest

from batch_txn_helpers import (DUP_BATCH, EMPTY_S_KEY, ENUM_RCC, ENUM_RICM, KEY_SCHEMA, NOT_FOUND, B, N, S,
                               batch_write_all, by_table, pad_item)
from dynamo_helpers import ENVELOPE, either_envelope, expect_error, unique_name

dev = pytest.mark.dynamodb_local_deviation
VE = "ValidationException"
RNF = "ResourceNotFoundException"
TWO_TYPES = "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"


def put(item):
    return {"PutRequest": {"Item": item}}


def delete(key):
    return {"DeleteRequest": {"Key": key}}


def hk(v):
    return {"pk": S(v)}


LSI_TABLE = dict(
    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"},
                          {"AttributeName": "l", "AttributeType": "S"}],
    LocalSecondaryIndexes=[{"IndexName": "lsi1", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                               {"AttributeName": "l", "KeyType": "RANGE"}],
                            "Projection": {"ProjectionType": "ALL"}}])


@pytest.fixture(scope="module")
def tables(module_tables):
    """h: pk S; r: pk S + sk N; b: pk B; lsi: pk S + sk S with an LSI on l."""
    return {
        "h": module_tables("hash", tag="bwh"),
        "r": module_tables("range", tag="bwr"),
        "b": module_tables("hash", tag="bwb", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "B"}]),
        "lsi": module_tables("hash", tag="bwl", **LSI_TABLE),
    }


def get(dynamodb, table, key):
    return dynamodb.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")


# ---------------------------------------------------------------- request validation


@dev("says 'BatchWriteItem cannot have a null or no requests set'")
def test_empty_request_items(unchecked):
    expect_error(lambda: unchecked.batch_write_item(RequestItems={}), VE, [
        "The requestItems parameter is required for BatchWriteItem",
        ENVELOPE + "Value at 'RequestItems' failed to satisfy constraint: Member must have length greater than or equal to 1"])


@dev("says 'The batch write request list for a table cannot be null or empty: <t>'")
def test_empty_request_list(unchecked, tables):
    t = tables["h"]
    expect_error(lambda: unchecked.batch_write_item(RequestItems={t: []}), VE,
                 ENVELOPE + "Value '{%s=[]}' at 'requestItems' failed to satisfy constraint: Map value must satisfy "
                 "constraint: [Member must have length less than or equal to 25, Member must have length greater "
                 "than or equal to 1]" % t)


@dev("says 'Too many items requested for the BatchWriteItem call' for one table too")
def test_more_than_25_requests_in_one_table(dynamodb, tables):
    t = tables["h"]
    reqs = [put(hk("p%d" % i)) if i % 2 else delete(hk("p%d" % i)) for i in range(26)]
    name = t.replace(".", r"\.")
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={t: reqs}), VE, regex=(
        r"1 validation error detected: (?:Value '\{%s=\[.+\]\}' at 'requestItems' failed to satisfy constraint: "
        r"Map value must satisfy constraint: \[Member must have length less than or equal to 25, Member must have "
        r"length greater than or equal to 1\]|Value at 'RequestItems\.%s\.member' failed to satisfy constraint: "
        r"Member must have length less than or equal to 25)" % (name, name)))
    assert get(dynamodb, t, hk("p1")) is None


# At most 25 per table, but 26 in the whole request.
def test_more_than_25_requests_across_tables(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={
        tables["h"]: [put(hk("x%d" % i)) for i in range(13)],
        tables["r"]: [put({"pk": S("x"), "sk": N(str(i))}) for i in range(13)]}), VE,
        "Too many items requested for the BatchWriteItem call")
    assert get(dynamodb, tables["h"], hk("x0")) is None


def test_25_requests_allowed(dynamodb, tables):
    t = tables["h"]
    batch_write_all(dynamodb, {t: [put({"pk": S("ok%02d" % i), "i": N(str(i))}) for i in range(25)]})
    assert get(dynamodb, t, hk("ok24")) == {"pk": S("ok24"), "i": N("24")}


@dev("own table-name sentence ('Invalid table/index name. ...')")
def test_bad_table_name(dynamodb):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={"bad!name": [put(hk("x"))]}), VE, regex=(
        r"1 validation error detected: Value '\{bad!name=\[WriteRequest\(putRequest=PutRequest\(item=\{pk=.+\}.*\)\]\}' "
        r"at 'requestItems' failed to satisfy constraint: Map keys must satisfy constraint: \[Member must have length "
        r"less than or equal to 255, Member must have length greater than or equal to 3, Member must satisfy regular "
        r"expression pattern: \[a-zA-Z0-9_\.-\]\+\]"))


@dev("accepts any ReturnConsumedCapacity / ReturnItemCollectionMetrics")
@pytest.mark.parametrize("kw,msg", [
    ({"ReturnConsumedCapacity": "BOGUS"}, ENVELOPE + ENUM_RCC),
    ({"ReturnItemCollectionMetrics": "BOGUS2"}, ENVELOPE + ENUM_RICM),
    # Two bad enums: the service stops at the first (eu-west-2 since June 2026; docs/service-fidelity.md).
    ({"ReturnConsumedCapacity": "BOGUS", "ReturnItemCollectionMetrics": "BOGUS2"}, ENVELOPE + ENUM_RCC),
], ids=["rcc", "ricm", "both"])
def test_bad_enums(unchecked, tables, kw, msg):
    t = tables["h"]
    expect_error(lambda: unchecked.batch_write_item(RequestItems={t: [put(hk("enum"))]}, **kw), VE, msg)
    assert get(unchecked, t, hk("enum")) is None


@dev("accepts any ReturnConsumedCapacity (and then reports the missing table)")
def test_bad_enum_before_missing_table(unchecked):
    expect_error(lambda: unchecked.batch_write_item(RequestItems={unique_name("nope"): [put(hk("a"))]},
                                                    ReturnConsumedCapacity="BOGUS"), VE, ENVELOPE + ENUM_RCC)


# A WriteRequest must hold exactly one of PutRequest / DeleteRequest; the service answers with the
# AttributeValue sentence (sic) for an empty one. (Both at once: same text on DynamoDB Local; the
# service's answer is not captured.)
@pytest.mark.parametrize("request_", [{}, {"PutRequest": {"Item": hk("a")}, "DeleteRequest": {"Key": hk("a")}}],
                         ids=["neither", "both"])
def test_put_and_delete_request_count(dynamodb, tables, request_):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={tables["h"]: [put(hk("pc")), request_]}), VE,
                 TWO_TYPES)
    assert get(dynamodb, tables["h"], hk("pc")) is None


@pytest.mark.parametrize("reqs", [
    [put(hk("d")), put(hk("d"))],
    [put(hk("d")), delete(hk("d"))],
    [delete(hk("d")), put({"pk": S("d"), "x": S("1")})],
    [delete(hk("d")), put(hk("e")), delete(hk("d"))],
], ids=["put-put", "put-delete", "delete-put", "delete-delete"])
def test_duplicate_keys(dynamodb, tables, reqs):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={tables["h"]: reqs}), VE, DUP_BATCH)
    assert get(dynamodb, tables["h"], hk("e")) is None


def test_duplicate_keys_attribute_order(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={tables["r"]: [
        put({"pk": S("p"), "sk": N("1")}), delete({"sk": N("1"), "pk": S("p")})]}), VE, DUP_BATCH)


# Same partition key with another sort key, or the same key in another table: not duplicates.
def test_not_duplicates(dynamodb, tables, table):
    other = table("hash", tag="bwo")
    batch_write_all(dynamodb, {
        tables["r"]: [put({"pk": S("nd"), "sk": N("1")}), put({"pk": S("nd"), "sk": N("2")})],
        tables["h"]: [put({"pk": S("nd"), "t": S("h")})],
        other: [put({"pk": S("nd"), "t": S("other")})]})
    assert get(dynamodb, tables["h"], hk("nd")) == {"pk": S("nd"), "t": S("h")}
    assert get(dynamodb, other, hk("nd")) == {"pk": S("nd"), "t": S("other")}
    assert get(dynamodb, tables["r"], {"pk": S("nd"), "sk": N("2")}) == {"pk": S("nd"), "sk": N("2")}


@dev("says 'Cannot do operations on a non-existent table'")
def test_missing_table(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={
        tables["h"]: [put(hk("mt"))], unique_name("nope"): [put(hk("a"))]}), RNF, NOT_FOUND)
    assert get(dynamodb, tables["h"], hk("mt")) is None


# BatchWriteItem looks the table up before checking for duplicates.
@dev("says 'Cannot do operations on a non-existent table'")
def test_missing_table_before_duplicates(dynamodb):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={
        unique_name("nope"): [put(hk("a")), delete(hk("a"))]}), RNF, NOT_FOUND)


# Unlike PutItem ('Missing the key pk in the item', 'Type mismatch for key ...'), BatchWriteItem
# answers every key problem with the schema-mismatch sentence.
@dev("own texts: 'One of the required keys was not given a value', 'Type mismatch for key' (truncated), "
     "'The number of conditions on the keys is invalid', 'Invalid attribute value type'")
@pytest.mark.parametrize("which,request_", [
    ("h", put({"other": S("x")})),
    ("h", put({"pk": N("5")})),
    ("h", put({"pk": {"L": [S("x")]}})),
    ("r", put({"pk": S("p")})),
    ("r", put({"pk": S("p"), "sk": S("1")})),
    ("h", delete({"other": S("x")})),
    ("h", delete({"pk": S("a"), "extra": S("b")})),
    ("h", delete({"pk": N("5")})),
    ("r", delete({"pk": S("p")})),
], ids=["put-no-key", "put-wrong-type", "put-list-key", "put-no-range", "put-range-type",
        "delete-wrong-name", "delete-extra", "delete-wrong-type", "delete-no-range"])
def test_key_does_not_match_schema(dynamodb, tables, which, request_):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={tables[which]: [request_]}), VE, KEY_SCHEMA)


@pytest.mark.parametrize("request_", [put(hk("")), delete(hk(""))], ids=["put", "delete"])
def test_empty_string_key(dynamodb, tables, request_):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={tables["h"]: [request_]}), VE, EMPTY_S_KEY)


@pytest.mark.parametrize("request_", [put({"pk": B(b"")}), delete({"pk": B(b"")})], ids=["put", "delete"])
def test_empty_binary_key(dynamodb, tables, request_):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={tables["b"]: [request_]}), VE,
                 EMPTY_S_KEY.replace("empty string value", "empty binary value"))


@dev("truncates after 'Type mismatch for Index Key'")
def test_index_key_wrong_type(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={tables["lsi"]: [
        put({"pk": S("a"), "sk": S("b"), "l": N("1")})]}), VE,
        "One or more parameter values were invalid: Type mismatch for Index Key l Expected: S Actual: N IndexName: lsi1")


@dev("one combined sentence for both key-size limits")
def test_hash_key_too_long(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={tables["h"]: [put(hk("a" * 2049))]}), VE,
                 "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes")


def test_item_too_large(dynamodb, tables):
    t = tables["h"]
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={t: [
        put(hk("small")), put(pad_item(hk("big"), 409601))]}), VE, "Item size has exceeded the maximum allowed size")
    assert get(dynamodb, t, hk("small")) is None


# One invalid value anywhere fails the whole call; nothing is written.
def test_bad_value_fails_whole_batch(dynamodb, tables):
    expect_error(lambda: dynamodb.batch_write_item(RequestItems={
        tables["r"]: [put({"pk": S("bv"), "sk": N("1")})],
        tables["h"]: [put(hk("bv1")), put({"pk": S("bv2"), "s": {"SS": []}})]}), VE,
        either_envelope("One or more parameter values were invalid: An string set  may not be empty"))
    assert get(dynamodb, tables["h"], hk("bv1")) is None
    assert get(dynamodb, tables["r"], {"pk": S("bv"), "sk": N("1")}) is None


# ---------------------------------------------------------------- behaviour


# Puts and deletes over several tables; the answer is exactly {"UnprocessedItems": {}}.
def test_puts_and_deletes(dynamodb, tables):
    h, r = tables["h"], tables["r"]
    dynamodb.put_item(TableName=h, Item={"pk": S("gone"), "v": S("old")})
    dynamodb.put_item(TableName=r, Item={"pk": S("gone"), "sk": N("7")})
    resp = dynamodb.batch_write_item(RequestItems={
        h: [put({"pk": S("new1"), "v": N("1")}), delete(hk("gone")), delete(hk("never-existed"))],
        r: [delete({"pk": S("gone"), "sk": N("7")}), put({"pk": S("new2"), "sk": N("1.50"), "m": {"M": {}}})]})
    resp.pop("ResponseMetadata")
    assert resp == {"UnprocessedItems": {}}
    assert get(dynamodb, h, hk("new1")) == {"pk": S("new1"), "v": N("1")}
    assert get(dynamodb, h, hk("gone")) is None
    assert get(dynamodb, r, {"pk": S("gone"), "sk": N("7")}) is None
    assert get(dynamodb, r, {"pk": S("new2"), "sk": N("1.5")}) == {"pk": S("new2"), "sk": N("1.5"), "m": {"M": {}}}


# A PutRequest replaces the whole item.
def test_put_replaces_item(dynamodb, tables):
    t = tables["h"]
    dynamodb.put_item(TableName=t, Item={"pk": S("rep"), "a": S("1"), "b": S("2")})
    batch_write_all(dynamodb, {t: [put({"pk": S("rep"), "c": S("3")})]})
    assert get(dynamodb, t, hk("rep")) == {"pk": S("rep"), "c": S("3")}


# ---------------------------------------------------------------- ConsumedCapacity


# AWS's worked example: items of 500 bytes and 3.5 KB are rounded separately: 1 + 4 = 5 WCU.
def test_capacity_aws_example(dynamodb, table):
    t = table("hash", tag="bwc")
    resp = dynamodb.batch_write_item(RequestItems={t: [put(pad_item(hk("a"), 500)), put(pad_item(hk("b"), 3584))]},
                                     ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == [{"TableName": t, "CapacityUnits": 5.0}]
    # Overwriting bills the larger of old and new (3.5 KB old, tiny new: 4); INDEXES adds "Table".
    resp = dynamodb.batch_write_item(RequestItems={t: [put(hk("b"))]}, ReturnConsumedCapacity="INDEXES")
    assert resp["ConsumedCapacity"] == [{"TableName": t, "CapacityUnits": 4.0, "Table": {"CapacityUnits": 4.0}}]
    # Deleting bills the deleted item's size (500 B: 1).
    resp = dynamodb.batch_write_item(RequestItems={t: [delete(hk("a"))]}, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == [{"TableName": t, "CapacityUnits": 1.0}]


# One entry per table, CapacityUnits only.
def test_capacity_one_entry_per_table(dynamodb, table):
    t1, t2 = table("hash", tag="bwc1"), table("range", tag="bwc2")
    resp = dynamodb.batch_write_item(RequestItems={
        t1: [put(pad_item(hk("a"), 1025)), put(hk("b"))],
        t2: [put({"pk": S("a"), "sk": N("1")})]}, ReturnConsumedCapacity="TOTAL")
    assert by_table(resp["ConsumedCapacity"]) == {t1: {"TableName": t1, "CapacityUnits": 3.0},
                                                  t2: {"TableName": t2, "CapacityUnits": 1.0}}


@pytest.mark.parametrize("rcc", [None, "NONE"])
def test_capacity_not_asked(dynamodb, tables, rcc):
    kw = {"ReturnConsumedCapacity": rcc} if rcc else {}
    assert "ConsumedCapacity" not in dynamodb.batch_write_item(RequestItems={tables["h"]: [put(hk("cna"))]}, **kw)


# Deleting an item that does not exist costs one write unit.
@dev("bills 2.0 for each missing-item delete")
def test_capacity_delete_missing_item(dynamodb, table):
    t = table("hash", tag="bwdm")
    dynamodb.put_item(TableName=t, Item=pad_item(hk("there"), 1500))
    resp = dynamodb.batch_write_item(RequestItems={t: [delete(hk("there")), delete(hk("missing1")),
                                                       delete(hk("missing2"))]}, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == [{"TableName": t, "CapacityUnits": 4.0}]


# A table with an LSI: INDEXES shows the LSI write (an item carrying the LSI key writes an index
# entry; one without it does not).
def test_capacity_local_index(dynamodb, table):
    t = table("hash", tag="bwli", **LSI_TABLE)
    resp = dynamodb.batch_write_item(RequestItems={t: [put({"pk": S("c1"), "sk": S("1"), "l": S("x")}),
                                                       put({"pk": S("c2"), "sk": S("1")})]},
                                     ReturnConsumedCapacity="INDEXES")
    assert resp["ConsumedCapacity"] == [{"TableName": t, "CapacityUnits": 3.0, "Table": {"CapacityUnits": 2.0},
                                         "LocalSecondaryIndexes": {"lsi1": {"CapacityUnits": 1.0}}}]


# ---------------------------------------------------------------- ItemCollectionMetrics


# With ReturnItemCollectionMetrics SIZE, every put/delete on a table with an LSI reports its item
# collection (a small one is [0, 1] GB); tables without an LSI are not listed.
@dev("never returns ItemCollectionMetrics")
def test_item_collection_metrics(dynamodb, tables):
    t = tables["lsi"]
    dynamodb.put_item(TableName=t, Item={"pk": S("icm3"), "sk": S("1")})
    resp = dynamodb.batch_write_item(RequestItems={
        t: [put({"pk": S("icm1"), "sk": S("1"), "l": S("x")}), put({"pk": S("icm2"), "sk": S("1")}),
            delete({"pk": S("icm3"), "sk": S("1")})],
        tables["h"]: [put(hk("icm-nolsi"))]}, ReturnItemCollectionMetrics="SIZE")
    assert resp["UnprocessedItems"] == {}
    metrics = resp["ItemCollectionMetrics"]
    assert set(metrics) == {t}
    got = sorted(metrics[t], key=lambda m: m["ItemCollectionKey"]["pk"]["S"])
    assert got == [{"ItemCollectionKey": {"pk": S(p)}, "SizeEstimateRangeGB": [0.0, 1.0]}
                   for p in ("icm1", "icm2", "icm3")]


@pytest.mark.parametrize("ricm", [None, "NONE"])
def test_item_collection_metrics_not_asked(dynamodb, tables, ricm):
    kw = {"ReturnItemCollectionMetrics": ricm} if ricm else {}
    resp = dynamodb.batch_write_item(RequestItems={tables["lsi"]: [put({"pk": S("icmn"), "sk": S("1")})]}, **kw)
    assert "ItemCollectionMetrics" not in resp
