"""The 400 KB gate on each write path (issue 32 item 2), one byte under and one byte over.

Measured on the service in 2026: the ceiling is the stored item, exactly 409,600 bytes (names and
values, keys included). The put paths say "Item size has exceeded the maximum allowed size", the
update paths "Item size to update has exceeded the maximum allowed size". A transacted Put over it
is a plain ValidationException before the transaction; a transacted Update over it cancels the
transaction with that reason. Standalone UpdateItem refuses when max(the finished item, what the
update writes + an action cost) is over: the names and values its actions write, plus 3 bytes and
19 per SET (20 through a list index) and 2 per REMOVE. A PartiQL UPDATE and a transacted Update
measure the finished item alone.
"""
import pytest

import dynamo_helpers as h
from batch_txn_helpers import expect_cancelled, pad_item
from dynamo_helpers import check_error

dev = pytest.mark.dynamodb_local_deviation
LIMIT = 409600
PUT_MSG = "Item size has exceeded the maximum allowed size"
UPDATE_MSG = "Item size to update has exceeded the maximum allowed size"
VE = "ValidationException"
S = lambda v: {"S": v}  # noqa: E731


@pytest.fixture(scope="module")
def tbl(module_tables):
    return module_tables("hash", tag="gate")


def refused(fn, message):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - checked here
        check_error(e, VE, message)
    else:
        pytest.fail("an item one byte over the limit was accepted")


def both_sides(write, make, message):
    """write(item or size) succeeds at the limit and is refused one byte over it."""
    write(make(0))
    refused(lambda: write(make(1)), message)


def get(dynamodb, tbl, k):
    return dynamodb.get_item(TableName=tbl, Key={"pk": S(k)}, ConsistentRead=True).get("Item")


# ---------------------------------------------------------------- the put paths


def test_put_item(dynamodb, tbl):
    both_sides(lambda item: dynamodb.put_item(TableName=tbl, Item=item),
               lambda over: pad_item({"pk": S("put")}, LIMIT + over), PUT_MSG)


def test_batch_write_item(dynamodb, tbl):
    both_sides(lambda item: dynamodb.batch_write_item(RequestItems={tbl: [{"PutRequest": {"Item": item}}]}),
               lambda over: pad_item({"pk": S("batch")}, LIMIT + over), PUT_MSG)


# Its size is known from the request: a plain ValidationException, nothing written.
def test_transacted_put(dynamodb, tbl):
    k = h.unique_name("txp")

    def write(item):
        dynamodb.transact_write_items(TransactItems=[{"Put": {"TableName": tbl, "Item": {"pk": S(k + "-other")}}},
                                                     {"Put": {"TableName": tbl, "Item": item}}])
    write(pad_item({"pk": S(k)}, LIMIT))
    dynamodb.delete_item(TableName=tbl, Key={"pk": S(k + "-other")})
    refused(lambda: write(pad_item({"pk": S(k)}, LIMIT + 1)), PUT_MSG)
    assert get(dynamodb, tbl, k + "-other") is None


def test_partiql_insert(dynamodb, tbl):
    def insert(over):
        item = pad_item({"pk": S("pq-%d" % over)}, LIMIT + over)
        dynamodb.execute_statement(Statement="INSERT INTO \"%s\" VALUE {'pk': ?, 'd': ?}" % tbl,
                                   Parameters=[item["pk"], item["d"]])
    insert(0)
    refused(lambda: insert(1), PUT_MSG)


# ---------------------------------------------------------------- the update paths


def stored(dynamodb, tbl, k, size):
    """A stored item of `size` bytes."""
    dynamodb.put_item(TableName=tbl, Item=pad_item({"pk": S(k)}, size))


# The stored item is 100 bytes short of the limit; SET a = :v adds 1 + len(v) bytes.
def test_transacted_update(dynamodb, tbl):
    k = h.unique_name("txu")
    stored(dynamodb, tbl, k, LIMIT - 100)

    def update(value_len):
        dynamodb.transact_write_items(TransactItems=[{"Update": {
            "TableName": tbl, "Key": {"pk": S(k)}, "UpdateExpression": "SET a = :v",
            "ExpressionAttributeValues": {":v": S("v" * value_len)}}}])
    update(99)
    expect_cancelled(lambda: update(100), ["ValidationError"], {0: UPDATE_MSG})
    assert h.item_size(get(dynamodb, tbl, k)) == LIMIT


def test_partiql_update(dynamodb, tbl):
    k = h.unique_name("pqu")
    stored(dynamodb, tbl, k, LIMIT - 100)

    def update(value_len):
        dynamodb.execute_statement(Statement="UPDATE \"%s\" SET a = ? WHERE pk = ?" % tbl,
                                   Parameters=[S("v" * value_len), S(k)])
    update(99)
    refused(lambda: update(100), UPDATE_MSG)


# The finished item is what binds when the update writes little to a large item.
def test_update_item_finished_item(dynamodb, tbl):
    k = h.unique_name("upf")
    stored(dynamodb, tbl, k, LIMIT - 100)

    def update(value_len):
        dynamodb.update_item(TableName=tbl, Key={"pk": S(k)}, UpdateExpression="SET a = :v",
                             ExpressionAttributeValues={":v": S("v" * value_len)})
    update(99)
    refused(lambda: update(100), UPDATE_MSG)


# What the update writes binds when the item is small: the key and the attributes left alone are
# not in it, the action cost is. `written` is the bytes of the names and values the actions write.
UPDATE_FORMS = {
    # form: (expression, value names, action cost, the names the actions write)
    "one SET": ("SET a = :v", [":v"], 22, "a"),
    "two SETs": ("SET a = :v, b = :w", [":v", ":w"], 41, "ab"),
    "SET beside REMOVE": ("SET a = :v REMOVE r", [":v"], 24, "a"),
    "SET through a list index": ("SET l[0] = :v", [":v"], 23, "l"),
    "SET through an alias": ("SET #long = :v", [":v"], 22, "a"),
}


@dev("DynamoDB Local measures the finished item alone")
@pytest.mark.parametrize("form", UPDATE_FORMS, ids=list(UPDATE_FORMS))
def test_update_item_written_attributes(dynamodb, tbl, form):
    expression, values, cost, names = UPDATE_FORMS[form]
    k = "w%d" % list(UPDATE_FORMS).index(form)  # a short key, so that the finished item stays smaller
    dynamodb.put_item(TableName=tbl, Item={"pk": S(k), "l": {"L": [S("x")]}} if "l[0]" in expression else {"pk": S(k)})

    def update(over):
        # The first value takes what is left; any others one byte each.
        room = LIMIT - cost - len(names) - (len(values) - 1) + over
        attribute_values = {name: S("v" * (room if i == 0 else 1)) for i, name in enumerate(values)}
        extra = {"ExpressionAttributeNames": {"#long": "a"}} if "#long" in expression else {}
        dynamodb.update_item(TableName=tbl, Key={"pk": S(k)}, UpdateExpression=expression,
                             ExpressionAttributeValues=attribute_values, **extra)
    update(0)
    assert h.item_size(get(dynamodb, tbl, k)) < LIMIT  # the finished item fits either way
    refused(lambda: update(1), UPDATE_MSG)
