"""Injected faults (docs/testing-companion.md): rules added through /dynamod/faults, --faults FILE
and `dynamod faults`, matched by operation, table, index and key prefix (items, batches,
transactions, a Query's partition key equality, PartiQL's WHERE and INSERT), fired by times, every
and probability; each error as boto3 sees it, with the SDK's retries counted; latency; partial
batches; transaction conflicts; a closed connection; the rules' counters in the list and the
Prometheus metrics; the control endpoints' security (--credentials, --control off), and the
command-line helpers signing for a strict server.

dynamod-only: the real service and DynamoDB Local have no fault injection, so every test here
runs against a dynamod it starts itself."""
import json
import subprocess
import time

import botocore.exceptions
import pytest

import companion_helpers as ch
import dynamo_helpers as h
import report_helpers as rh

pytestmark = pytest.mark.needs_own_server

ON_DEMAND_THROTTLE = (
    "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling "
    "your table or index so please try again shortly. If exceptions persist, check if you have a hot key: "
    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html")


@pytest.fixture(scope="module")
def server(dynamod_bin, tmp_path_factory):
    p = h.DynamodProcess(dynamod_bin, in_memory=True, log_dir=str(tmp_path_factory.mktemp("faults-log")))
    p.start()
    yield p
    p.stop()


@pytest.fixture(scope="module")
def client(server):
    return h.make_client(server.endpoint)


@pytest.fixture(scope="module")
def tbl(client):
    return ch.hash_table(client)


@pytest.fixture(autouse=True)
def no_rules_left(server):
    yield
    ch.ok(server.endpoint, "DELETE", "faults")


def put(client, table, pk, **attrs):
    item = {"pk": {"S": pk}}
    item.update({k: {"S": v} for k, v in attrs.items()})
    client.put_item(TableName=table, Item=item)


# ---------------------------------------------------------------- errors as SDKs see them


def test_throttling_twice_is_retried_through_by_standard_mode(server, client, tbl):
    put(client, tbl, "a")
    rule = ch.add_fault(server.endpoint, {"operations": ["GetItem"], "tables": [tbl],
                                          "error": "ThrottlingException", "times": 2})
    retrying = ch.retrying_client(server.endpoint, "standard", 3)
    resp = retrying.get_item(TableName=tbl, Key={"pk": {"S": "a"}})
    assert resp["Item"]["pk"] == {"S": "a"}
    assert resp["ResponseMetadata"]["RetryAttempts"] == 2
    assert ch.rules_by_id(server.endpoint)[rule]["fired"] == 2
    # Spent: the next call is answered at once.
    assert retrying.get_item(TableName=tbl, Key={"pk": {"S": "a"}})["ResponseMetadata"]["RetryAttempts"] == 0


def test_throttling_beyond_the_retries_reaches_the_caller(server, tbl):
    ch.add_fault(server.endpoint, {"operations": ["GetItem"], "tables": [tbl], "error": "ThrottlingException"})
    retrying = ch.retrying_client(server.endpoint, "standard", 3)
    with pytest.raises(botocore.exceptions.ClientError) as e:
        retrying.get_item(TableName=tbl, Key={"pk": {"S": "a"}})
    code, message, status = h.error_of(e.value)
    assert (code, message, status) == ("ThrottlingException", ON_DEMAND_THROTTLE, 400)
    assert e.value.response["ResponseMetadata"]["RetryAttempts"] == 2
    # The service names the throttled resource.
    reasons = json.loads(h.raw_request(server.endpoint, "GetItem",
                                       {"TableName": tbl, "Key": {"pk": {"S": "a"}}}).body)["throttlingReasons"]
    assert reasons[0]["reason"] == "TableReadKeyRangeThroughputExceeded"
    assert reasons[0]["resource"].endswith(":table/" + tbl)


# (error, HTTP status, whether botocore's standard mode retries it, the __type's namespace)
ERRORS = [
    ("InternalServerError", 500, True),
    ("ServiceUnavailable", 503, True),
    ("ThrottlingException", 400, True),
    ("ProvisionedThroughputExceededException", 400, True),
    ("RequestLimitExceeded", 400, True),
    ("TransactionConflictException", 400, False),
    ("ItemCollectionSizeLimitExceededException", 400, False),
]


@pytest.mark.parametrize("error,status,retried", ERRORS, ids=[e[0] for e in ERRORS])
def test_each_error_as_the_sdk_sees_it(server, client, tbl, error, status, retried):
    ch.add_fault(server.endpoint, {"operations": ["PutItem"], "tables": [tbl], "error": error, "times": 1})
    raw = h.raw_request(server.endpoint, "PutItem", {"TableName": tbl, "Item": {"pk": {"S": "e-" + error}}})
    assert raw.status == status
    assert raw.json["__type"] == "com.amazonaws.dynamodb.v20120810#" + error
    assert raw.json.get("message")
    # The item was not written.
    assert "Item" not in client.get_item(TableName=tbl, Key={"pk": {"S": "e-" + error}}, ConsistentRead=True)

    ch.add_fault(server.endpoint, {"operations": ["PutItem"], "tables": [tbl], "error": error, "times": 1})
    retrying = ch.retrying_client(server.endpoint, "standard", 3)
    if retried:
        resp = retrying.put_item(TableName=tbl, Item={"pk": {"S": "e-" + error}})
        assert resp["ResponseMetadata"]["RetryAttempts"] == 1
    else:
        with pytest.raises(botocore.exceptions.ClientError) as e:
            retrying.put_item(TableName=tbl, Item={"pk": {"S": "e-" + error}})
        assert h.error_of(e.value)[0] == error
        assert e.value.response["ResponseMetadata"]["RetryAttempts"] == 0


def test_internal_server_error_message(server, tbl):
    ch.add_fault(server.endpoint, {"operations": ["GetItem"], "error": "InternalServerError"})
    raw = h.raw_request(server.endpoint, "GetItem", {"TableName": tbl, "Key": {"pk": {"S": "a"}}})
    assert (raw.status, raw.json) == (500, {"__type": "com.amazonaws.dynamodb.v20120810#InternalServerError",
                                            "message": "Internal server error"})


def test_a_rule_may_give_its_own_message(server, tbl):
    ch.add_fault(server.endpoint, {"operations": ["GetItem"], "error": "ProvisionedThroughputExceededException",
                                   "message": "slow down"})
    raw = h.raw_request(server.endpoint, "GetItem", {"TableName": tbl, "Key": {"pk": {"S": "a"}}})
    assert raw.json["message"] == "slow down"


def test_transaction_canceled_names_the_conflicting_item(server, client, tbl):
    ch.add_fault(server.endpoint, {"operations": ["TransactWriteItems"], "error": "TransactionCanceledException",
                                   "conflict_item": 1, "times": 1})
    items = [{"Put": {"TableName": tbl, "Item": {"pk": {"S": "t%d" % i}}}} for i in range(3)]
    with pytest.raises(client.exceptions.TransactionCanceledException) as e:
        client.transact_write_items(TransactItems=items)
    assert e.value.response["Error"]["Message"] == (
        "Transaction cancelled, please refer cancellation reasons for specific reasons "
        "[None, TransactionConflict, None]")
    assert e.value.response["CancellationReasons"] == [
        {"Code": "None"},
        {"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"},
        {"Code": "None"}]
    for i in range(3):
        assert "Item" not in client.get_item(TableName=tbl, Key={"pk": {"S": "t%d" % i}}, ConsistentRead=True)
    # Fired once: the transaction goes through now.
    client.transact_write_items(TransactItems=items)
    assert "Item" in client.get_item(TableName=tbl, Key={"pk": {"S": "t1"}}, ConsistentRead=True)


# ---------------------------------------------------------------- latency


def test_fixed_latency_delays_the_real_answer(server, client, tbl):
    put(client, tbl, "slow")
    ch.add_fault(server.endpoint, {"operations": ["GetItem"], "tables": [tbl], "latency_ms": 300})
    started = time.monotonic()
    resp = client.get_item(TableName=tbl, Key={"pk": {"S": "slow"}})
    assert time.monotonic() - started >= 0.3
    assert resp["Item"]["pk"] == {"S": "slow"}


def test_latency_range_then_error(server, client, tbl):
    ch.add_fault(server.endpoint, {"operations": ["GetItem"], "tables": [tbl], "latency_ms": [200, 250],
                                   "error": "InternalServerError"})
    started = time.monotonic()
    with pytest.raises(botocore.exceptions.ClientError) as e:
        client.get_item(TableName=tbl, Key={"pk": {"S": "slow"}})
    assert time.monotonic() - started >= 0.2
    assert h.error_of(e.value)[:2] == ("InternalServerError", "Internal server error")


# ---------------------------------------------------------------- partial batches


def test_batch_write_returns_the_held_back_requests_unprocessed(server, client, tbl):
    ch.add_fault(server.endpoint, {"operations": ["BatchWriteItem"], "unprocessed": 2, "times": 1})
    requests = [{"PutRequest": {"Item": {"pk": {"S": "b%d" % i}}}} for i in range(4)]
    resp = client.batch_write_item(RequestItems={tbl: requests})
    assert resp["UnprocessedItems"] == {tbl: requests[2:]}
    written = [("Item" in client.get_item(TableName=tbl, Key={"pk": {"S": "b%d" % i}}, ConsistentRead=True))
               for i in range(4)]
    assert written == [True, True, False, False]
    # The usual loop: send the unprocessed ones again.
    assert client.batch_write_item(RequestItems=resp["UnprocessedItems"])["UnprocessedItems"] == {}
    assert "Item" in client.get_item(TableName=tbl, Key={"pk": {"S": "b3"}}, ConsistentRead=True)


def test_batch_get_returns_half_the_keys_unprocessed_with_their_parameters(server, client, tbl):
    for i in range(4):
        put(client, tbl, "g%d" % i, v="x")
    ch.add_fault(server.endpoint, {"operations": ["BatchGetItem"], "tables": [tbl], "unprocessed": True})
    keys = [{"pk": {"S": "g%d" % i}} for i in range(4)]
    resp = client.batch_get_item(RequestItems={tbl: {"Keys": keys, "ConsistentRead": True,
                                                     "ProjectionExpression": "pk"}})
    got = sorted(i["pk"]["S"] for i in resp["Responses"][tbl])
    assert got == ["g0", "g1"]
    assert all(set(i) == {"pk"} for i in resp["Responses"][tbl])
    assert resp["UnprocessedKeys"] == {tbl: {"Keys": keys[2:], "ConsistentRead": True, "ProjectionExpression": "pk"}}


def test_a_batch_of_one_is_never_held_back_whole(server, client, tbl):
    rule = ch.add_fault(server.endpoint, {"operations": ["BatchWriteItem"], "unprocessed": 5})
    resp = client.batch_write_item(RequestItems={tbl: [{"PutRequest": {"Item": {"pk": {"S": "one"}}}}]})
    assert resp["UnprocessedItems"] == {}
    assert ch.rules_by_id(server.endpoint)[rule]["fired"] == 1


# ---------------------------------------------------------------- closing the connection


def test_close_drops_the_connection_without_an_answer(server, client, tbl):
    ch.add_fault(server.endpoint, {"operations": ["GetItem"], "tables": [tbl], "close": True, "times": 1})
    with pytest.raises((botocore.exceptions.ConnectionClosedError, botocore.exceptions.EndpointConnectionError)):
        client.get_item(TableName=tbl, Key={"pk": {"S": "a"}})
    # The server goes on.
    client.get_item(TableName=tbl, Key={"pk": {"S": "a"}})


def test_close_is_retried_by_the_sdk(server, client, tbl):
    put(client, tbl, "c")
    ch.add_fault(server.endpoint, {"operations": ["GetItem"], "tables": [tbl], "close": True, "times": 1})
    resp = ch.retrying_client(server.endpoint).get_item(TableName=tbl, Key={"pk": {"S": "c"}})
    assert resp["Item"]["pk"] == {"S": "c"} and resp["ResponseMetadata"]["RetryAttempts"] == 1


# ---------------------------------------------------------------- matching and firing


def test_matches_by_table_key_prefix_and_operation(server, client, tbl):
    other = ch.hash_table(client)
    ch.add_fault(server.endpoint, {"operations": ["PutItem", "UpdateItem"], "tables": [tbl], "key_prefix": "hot#",
                                   "error": "ProvisionedThroughputExceededException"})
    with pytest.raises(client.exceptions.ProvisionedThroughputExceededException):
        put(client, tbl, "hot#1")
    with pytest.raises(client.exceptions.ProvisionedThroughputExceededException):
        client.update_item(TableName=tbl, Key={"pk": {"S": "hot#2"}}, UpdateExpression="SET v = :v",
                           ExpressionAttributeValues={":v": {"S": "x"}})
    put(client, tbl, "cold#1")
    put(client, other, "hot#1")
    client.get_item(TableName=tbl, Key={"pk": {"S": "hot#1"}})
    # In a batch or a transaction, any item of the table with the prefix matches.
    ch.add_fault(server.endpoint, {"operations": ["TransactWriteItems"], "key_prefix": "hot#",
                                   "error": "TransactionCanceledException"})
    client.transact_write_items(TransactItems=[{"Put": {"TableName": tbl, "Item": {"pk": {"S": "cold#2"}}}}])
    with pytest.raises(client.exceptions.TransactionCanceledException):
        client.transact_write_items(TransactItems=[{"Put": {"TableName": tbl, "Item": {"pk": {"S": "cold#3"}}}},
                                                   {"Put": {"TableName": tbl, "Item": {"pk": {"S": "hot#3"}}}}])


def test_matches_by_index(server, client):
    name = ch.hash_table(client, AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                       {"AttributeName": "g", "AttributeType": "S"}],
                         GlobalSecondaryIndexes=[{"IndexName": "byg",
                                                  "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                                  "Projection": {"ProjectionType": "ALL"}}])
    ch.add_fault(server.endpoint, {"operations": ["Query"], "index": "byg", "error": "ThrottlingException"})
    client.query(TableName=name, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "x"}})
    with pytest.raises(botocore.exceptions.ClientError) as e:
        client.query(TableName=name, IndexName="byg", KeyConditionExpression="g = :g",
                     ExpressionAttributeValues={":g": {"S": "x"}})
    code, message, _ = h.error_of(e.value)
    assert code == "ThrottlingException"
    assert message == ("Throughput exceeds the current capacity for one or more global secondary indexes. "
                       "DynamoDB is automatically scaling your index so please try again shortly.")


def test_a_query_matches_a_key_prefix_by_its_partition_key_equality(server, client):
    """A Query reads one partition: a rule's key prefix is matched against the value its key
    condition gives the partition key (of the table, or of the index it reads)."""
    name = ch.hash_table(client, AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                       {"AttributeName": "g", "AttributeType": "S"}],
                         GlobalSecondaryIndexes=[{"IndexName": "byg",
                                                  "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                                  "Projection": {"ProjectionType": "ALL"}}])
    ch.add_fault(server.endpoint, {"operations": ["Query"], "tables": [name], "key_prefix": "hot#",
                                   "error": "InternalServerError"})
    with pytest.raises(client.exceptions.InternalServerError):
        client.query(TableName=name, KeyConditionExpression="#k = :p", ExpressionAttributeNames={"#k": "pk"},
                     ExpressionAttributeValues={":p": {"S": "hot#1"}})
    with pytest.raises(client.exceptions.InternalServerError):
        client.query(TableName=name, KeyConditions={"pk": {"ComparisonOperator": "EQ",
                                                           "AttributeValueList": [{"S": "hot#2"}]}})
    with pytest.raises(client.exceptions.InternalServerError):
        client.query(TableName=name, IndexName="byg", KeyConditionExpression="g = :g",
                     ExpressionAttributeValues={":g": {"S": "hot#3"}})
    assert client.query(TableName=name, KeyConditionExpression="pk = :p",
                        ExpressionAttributeValues={":p": {"S": "cold"}})["Count"] == 0
    assert client.query(TableName=name, IndexName="byg", KeyConditionExpression="g = :g",
                        ExpressionAttributeValues={":g": {"S": "cold"}})["Count"] == 0
    # A Scan reads every partition: it never matches a rule with a key prefix.
    ch.add_fault(server.endpoint, {"operations": ["Scan"], "tables": [name], "key_prefix": "h",
                                   "error": "InternalServerError"})
    client.put_item(TableName=name, Item={"pk": {"S": "hot#4"}})
    assert client.scan(TableName=name)["Count"] == 1
    # PartiQL names the index it reads as "table"."index".
    ch.add_fault(server.endpoint, {"operations": ["ExecuteStatement"], "index": "byg", "key_prefix": "hot#",
                                   "error": "InternalServerError"})
    with pytest.raises(client.exceptions.InternalServerError):
        client.execute_statement(Statement='SELECT * FROM "%s"."byg" WHERE g = \'hot#5\'' % name)
    client.execute_statement(Statement='SELECT * FROM "%s"."byg" WHERE g = \'cold\'' % name)
    client.execute_statement(Statement='SELECT * FROM "%s" WHERE pk = \'hot#5\'' % name)


def test_partiql_statements_match_tables_and_key_prefixes(server, client, tbl):
    """PartiQL names its table in the statement: rules' tables match it, and a key prefix matches
    the partition key its WHERE fixes with = (a literal or a parameter) or its INSERT's item."""
    other = ch.hash_table(client)
    by_table = ch.add_fault(server.endpoint, {"operations": ["ExecuteStatement"], "tables": [other],
                                              "error": "RequestLimitExceeded"})
    with pytest.raises(client.exceptions.RequestLimitExceeded):
        client.execute_statement(Statement='SELECT * FROM "%s"' % other)
    client.execute_statement(Statement='SELECT * FROM "%s" WHERE pk = \'x\'' % tbl)
    ch.ok(server.endpoint, "DELETE", "faults/" + by_table)

    ch.add_fault(server.endpoint, {"operations": ["ExecuteStatement", "ExecuteTransaction"], "tables": [tbl],
                                   "key_prefix": "hot#", "error": "TransactionCanceledException"})
    with pytest.raises(client.exceptions.TransactionCanceledException):
        client.execute_statement(Statement='SELECT * FROM "%s" WHERE pk = ?' % tbl,
                                 Parameters=[{"S": "hot#1"}])
    with pytest.raises(client.exceptions.TransactionCanceledException):
        client.execute_statement(Statement="UPDATE \"%s\" SET v = 1 WHERE pk = 'hot#2'" % tbl)
    with pytest.raises(client.exceptions.TransactionCanceledException):
        client.execute_statement(Statement="INSERT INTO \"%s\" VALUE {'pk': 'hot#3'}" % tbl)
    client.execute_statement(Statement='SELECT * FROM "%s" WHERE pk = ?' % tbl, Parameters=[{"S": "cold"}])
    client.execute_statement(Statement="INSERT INTO \"%s\" VALUE {'pk': 'pql-cold'}" % tbl)
    # A transaction's reasons name each statement; conflict_item (0 unless given) is the conflicting one.
    with pytest.raises(client.exceptions.TransactionCanceledException) as e:
        client.execute_transaction(TransactStatements=[
            {"Statement": "UPDATE \"%s\" SET v = 1 WHERE pk = 'pql-cold'" % tbl},
            {"Statement": "DELETE FROM \"%s\" WHERE pk = ?" % tbl, "Parameters": [{"S": "hot#4"}]}])
    assert [r["Code"] for r in e.value.response["CancellationReasons"]] == ["TransactionConflict", "None"]
    # Scanning with PartiQL fixes no key.
    client.execute_statement(Statement='SELECT * FROM "%s"' % tbl)
    assert client.get_item(TableName=tbl, Key={"pk": {"S": "pql-cold"}})["Item"]


def test_every_nth_match(server, client, tbl):
    rule = ch.add_fault(server.endpoint, {"operations": ["GetItem"], "tables": [tbl], "every": 3,
                                          "error": "InternalServerError"})
    failed = []
    for _ in range(7):
        try:
            client.get_item(TableName=tbl, Key={"pk": {"S": "a"}})
            failed.append(False)
        except botocore.exceptions.ClientError:
            failed.append(True)
    assert failed == [False, False, True, False, False, True, False]
    listed = ch.rules_by_id(server.endpoint)[rule]
    assert (listed["matched"], listed["fired"]) == (7, 2)


def test_probability_with_a_seed_fires_on_the_same_matches(server, client, tbl):
    def run():
        rule = ch.add_fault(server.endpoint, {"operations": ["GetItem"], "tables": [tbl], "probability": 0.5,
                                              "seed": 42, "error": "InternalServerError"})
        pattern = []
        for _ in range(40):
            try:
                client.get_item(TableName=tbl, Key={"pk": {"S": "a"}})
                pattern.append(0)
            except botocore.exceptions.ClientError:
                pattern.append(1)
        ch.ok(server.endpoint, "DELETE", "faults/" + rule)
        return pattern
    first = run()
    assert 5 <= sum(first) <= 35
    assert run() == first


def test_rules_list_delete_and_clear(server, tbl):
    a = ch.add_fault(server.endpoint, {"operations": ["GetItem"], "tables": [tbl], "error": "ThrottlingException",
                                       "times": 2})
    b = ch.add_fault(server.endpoint, {"latency_ms": 5})
    listed = ch.ok(server.endpoint, "GET", "faults")["rules"]
    assert listed[0] == {"id": a, "operations": ["GetItem"], "tables": [tbl], "times": 2,
                         "error": "ThrottlingException", "matched": 0, "fired": 0}
    assert listed[1]["id"] == b and listed[1]["latency_ms"] == 5
    ch.ok(server.endpoint, "DELETE", "faults/" + a)
    assert list(ch.rules_by_id(server.endpoint)) == [b]
    status, answer = ch.control(server.endpoint, "DELETE", "faults/" + a)
    assert status == 400 and answer["__type"].endswith("#ResourceNotFoundException")
    ch.ok(server.endpoint, "DELETE", "faults")
    assert ch.ok(server.endpoint, "GET", "faults") == {"rules": []}


def test_a_list_of_rules_at_once(server):
    answer = ch.ok(server.endpoint, "POST", "faults", [{"latency_ms": 1}, {"error": "InternalServerError",
                                                                          "operations": ["Scan"]}])
    assert len(answer["ids"]) == 2
    assert list(ch.rules_by_id(server.endpoint)) == answer["ids"]


@pytest.mark.parametrize("rule,reason", [
    ({"error": "NoSuchError"},
     "error 'NoSuchError' is not one of InternalServerError, ServiceUnavailable, ThrottlingException, "
     "ProvisionedThroughputExceededException, RequestLimitExceeded, TransactionConflictException, "
     "TransactionCanceledException, ItemCollectionSizeLimitExceededException"),
    ({"operations": ["GetItem"]}, "a rule needs error, latency_ms, unprocessed or close"),
    ({"error": "InternalServerError", "close": True}, "give one of error, unprocessed, close"),
    ({"unprocessed": 1, "operations": ["GetItem"]},
     "unprocessed applies to BatchWriteItem and BatchGetItem only, not GetItem"),
    ({"probability": 0, "close": True}, "probability must be above 0 and at most 1"),
    ({"times": 0, "close": True}, "times must be a positive integer"),
    ({"latency_ms": [5, 1]}, "latency_ms: max is below min"),
    ({"latency_ms": "5"}, "latency_ms must be a number of milliseconds or a [min, max] pair"),
    ({"colour": "red", "close": True},
     "unknown member 'colour' (members: operations, tables, index, key_prefix, probability, every, times, seed, "
     "latency_ms, error, message, conflict_item, unprocessed, close)"),
    # A misspelt operation would never match: it is refused instead.
    ({"operations": ["GetItems"], "close": True}, "operation 'GetItems' is not one of dynamod's operations"),
    ({"operations": [["GetItem"]], "close": True}, "operations must be a list of strings"),
    ({"tables": {"t": 1}, "close": True}, "tables must be a list of strings"),
    ({"key_prefix": 1, "close": True}, "key_prefix must be a string"),
    (["not", "rules"], "a rule is a JSON object"),
])
def test_invalid_rules_are_refused_with_the_reason(server, rule, reason):
    status, answer = ch.control(server.endpoint, "POST", "faults", rule)
    assert (status, answer) == (400, {"__type": "com.amazon.coral.validate#ValidationException",
                                      "message": "Invalid fault rule: " + reason})
    assert ch.ok(server.endpoint, "GET", "faults") == {"rules": []}


def test_a_body_that_is_not_json_is_refused(server):
    resp = h.raw_request(server.endpoint, None, b'{"close": tr', method="POST", path="/dynamod/faults",
                         sign=False, content_type="application/json")
    assert resp.status == 400
    assert json.loads(resp.body) == {"__type": "com.amazon.coral.validate#ValidationException",
                                     "message": "Invalid fault rule: not JSON"}


def test_fired_faults_are_counted_in_the_metrics(server, client, tbl):
    rule = ch.add_fault(server.endpoint, {"operations": ["DescribeTable"], "error": "InternalServerError",
                                          "times": 2})
    for _ in range(3):
        try:
            client.describe_table(TableName=tbl)
        except botocore.exceptions.ClientError:
            pass
    _, metrics = rh.get_metrics(server.endpoint)
    assert metrics.value("dynamod_faults_fired_total", rule=rule, kind="InternalServerError") == 2
    assert metrics.value("dynamod_faults_matched_total", rule=rule, kind="InternalServerError") == 3


def test_no_rules_no_faults(server, client, tbl):
    # After clearing, nothing fires and nothing is counted.
    put(client, tbl, "plain")
    assert ch.ok(server.endpoint, "GET", "faults") == {"rules": []}
    assert client.get_item(TableName=tbl, Key={"pk": {"S": "plain"}})["Item"]


# ---------------------------------------------------------------- --faults FILE, the CLI


def test_faults_file_at_start(launch_dynamod, tmp_path):
    path = tmp_path / "faults.json"
    path.write_text(json.dumps({"rules": [{"operations": ["ListTables"], "error": "ServiceUnavailable",
                                           "times": 1}]}))
    server = launch_dynamod(["--faults", str(path)], in_memory=True)
    client = h.make_client(server.endpoint)
    with pytest.raises(botocore.exceptions.ClientError) as e:
        client.list_tables()
    assert h.error_of(e.value)[0] == "ServiceUnavailable" and h.error_of(e.value)[2] == 503
    client.list_tables()
    assert [r["fired"] for r in ch.ok(server.endpoint, "GET", "faults")["rules"]] == [1]


def test_a_bad_faults_file_stops_the_start(dynamod_bin, tmp_path):
    path = tmp_path / "faults.json"
    path.write_text('[{"error": "Nope"}]')
    done = subprocess.run([dynamod_bin, "--in-memory", "--port", "0", "--faults", str(path)],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert "--faults " + str(path) + ": Invalid fault rule: error 'Nope'" in done.stderr


def test_cli_add_list_delete_clear(dynamod_bin, server, client, tbl):
    def cli(*args):
        done = subprocess.run([dynamod_bin, "faults", *args, "--endpoint", server.endpoint],
                              capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return done.stdout
    added = json.loads(cli("add", json.dumps({"operations": ["GetItem"], "tables": [tbl],
                                              "error": "InternalServerError", "times": 1})))
    with pytest.raises(botocore.exceptions.ClientError):
        client.get_item(TableName=tbl, Key={"pk": {"S": "a"}})
    listing = cli("list")
    assert listing.startswith(added["id"] + "  fired 1 of 1 matches  {")
    cli("delete", added["id"])
    assert cli("list") == "no fault rules\n"
    cli("add", '{"latency_ms": 1}')
    assert cli("clear") == "cleared\n"
    assert ch.ok(server.endpoint, "GET", "faults") == {"rules": []}
    bad = subprocess.run([dynamod_bin, "faults", "delete", "999", "--endpoint", server.endpoint],
                         capture_output=True, text=True, timeout=30)
    assert bad.returncode == 1 and "No fault rule with id 999" in bad.stderr


# ---------------------------------------------------------------- the control endpoints' security


def test_with_credentials_changes_need_a_listed_key(launch_dynamod, tmp_path):
    creds = tmp_path / "creds"
    creds.write_text("AKIDCONTROL secretcontrol\n")
    server = launch_dynamod(["--credentials", str(creds)], in_memory=True)
    rule = {"operations": ["GetItem"], "error": "InternalServerError"}
    for method, path, body in [("POST", "faults", rule), ("DELETE", "faults", None), ("POST", "reset", None),
                               ("POST", "snapshots/s1", None), ("POST", "cost/reset", None),
                               ("POST", "consistency", {"lag_ms": 5})]:
        status, answer = ch.control(server.endpoint, method, path, body)
        assert status == 400, (method, path, answer)
        assert answer["__type"] == "com.amazon.coral.service#MissingAuthenticationTokenException", (method, path)
        status, answer = ch.control(server.endpoint, method, path, body, sign=True)  # the dummy key: not listed
        assert answer["__type"] == "com.amazon.coral.service#UnrecognizedClientException", (method, path)
        status, answer = ch.control(server.endpoint, method, path, body, sign=True, key="AKIDCONTROL",
                                    secret="wrong")
        assert answer["__type"] == "com.amazon.coral.service#InvalidSignatureException", (method, path)
    assert ch.ok(server.endpoint, "GET", "faults") == {"rules": []}
    ident = ch.ok(server.endpoint, "POST", "faults", rule, sign=True, key="AKIDCONTROL",
                  secret="secretcontrol")["id"]
    # Reading needs no signature.
    assert list(ch.rules_by_id(server.endpoint)) == [ident]
    ch.ok(server.endpoint, "DELETE", "faults/" + ident, sign=True, key="AKIDCONTROL", secret="secretcontrol")


def test_control_off_refuses_every_change(launch_dynamod):
    server = launch_dynamod(["--control", "off"], in_memory=True)
    for method, path in [("POST", "faults"), ("DELETE", "faults"), ("POST", "reset"), ("POST", "snapshots/s"),
                         ("POST", "snapshots/s/restore"), ("DELETE", "snapshots/s"), ("POST", "cost/reset")]:
        status, answer = ch.control(server.endpoint, method, path, {"latency_ms": 1} if path == "faults" else None)
        assert (status, answer) == (403, {"message": "dynamod's control endpoints are off (--control off)"})
    assert ch.ok(server.endpoint, "GET", "faults") == {"rules": []}


def test_curl_aws_sigv4_calls_a_strict_server(launch_dynamod, tmp_path):
    """The documented way to call the control endpoints of a server run with --credentials."""
    import shutil
    if shutil.which("curl") is None:
        pytest.skip("no curl")
    creds = tmp_path / "creds"
    creds.write_text("AKIDCURL secretcurl\n")
    server = launch_dynamod(["--credentials", str(creds)], in_memory=True)
    done = subprocess.run(
        ["curl", "-s", "--aws-sigv4", "aws:amz:us-east-1:dynamodb", "--user", "AKIDCURL:secretcurl",
         "-H", "Content-Type: application/json", "-d", json.dumps({"operations": ["GetItem"], "latency_ms": 1}),
         server.endpoint + "/dynamod/faults"], capture_output=True, text=True, timeout=30)
    assert json.loads(done.stdout) == {"id": "1"}, done.stdout + done.stderr
    done = subprocess.run(
        ["curl", "-s", "-X", "POST", "--aws-sigv4", "aws:amz:us-east-1:dynamodb", "--user", "AKIDCURL:secretcurl",
         server.endpoint + "/dynamod/snapshots/s"], capture_output=True, text=True, timeout=30)
    assert json.loads(done.stdout)["name"] == "s", done.stdout + done.stderr
    done = subprocess.run(["curl", "-s", "-X", "POST", "--aws-sigv4", "aws:amz:us-east-1:dynamodb", "--user",
                           "AKIDCURL:wrong", server.endpoint + "/dynamod/reset"],
                          capture_output=True, text=True, timeout=30)
    assert json.loads(done.stdout)["__type"] == "com.amazon.coral.service#InvalidSignatureException"


def test_the_command_line_helpers_sign_for_a_strict_server(dynamod_bin, launch_dynamod, tmp_path):
    """`dynamod faults` and `dynamod cost --reset` sign with the AWS_* variables, as a server run
    with --credentials requires for changes (and say what the server answered without them)."""
    import os
    creds = tmp_path / "creds"
    creds.write_text("AKIDCLI secretcli\nAKIDTOKEN secrettoken thetoken\n")
    server = launch_dynamod(["--credentials", str(creds)], in_memory=True)
    plain = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}

    def cli(*args, **env):
        return subprocess.run([dynamod_bin, *args, "--endpoint", server.endpoint], capture_output=True, text=True,
                              timeout=30, env={**plain, **env})

    signed = {"AWS_ACCESS_KEY_ID": "AKIDCLI", "AWS_SECRET_ACCESS_KEY": "secretcli"}
    rule = json.dumps({"operations": ["GetItem"], "latency_ms": 1})
    done = cli("faults", "add", rule)
    assert done.returncode == 1 and "MissingAuthenticationTokenException" in done.stderr, done.stderr
    done = cli("faults", "add", rule, AWS_ACCESS_KEY_ID="AKIDCLI", AWS_SECRET_ACCESS_KEY="wrong")
    assert done.returncode == 1 and "InvalidSignatureException" in done.stderr, done.stderr
    done = cli("faults", "add", rule, **signed, AWS_REGION="eu-west-1")
    assert done.returncode == 0, done.stderr
    ident = json.loads(done.stdout)["id"]
    assert cli("faults", "list", **signed).stdout.startswith(ident + "  fired 0 of 0 matches")
    assert cli("faults", "delete", ident, **signed).returncode == 0
    # A session token is signed too, and must be the listed one.
    done = cli("faults", "clear", AWS_ACCESS_KEY_ID="AKIDTOKEN", AWS_SECRET_ACCESS_KEY="secrettoken")
    assert done.returncode == 1 and "UnrecognizedClientException" in done.stderr, done.stderr
    done = cli("faults", "clear", AWS_ACCESS_KEY_ID="AKIDTOKEN", AWS_SECRET_ACCESS_KEY="secrettoken",
               AWS_SESSION_TOKEN="thetoken")
    assert (done.returncode, done.stdout) == (0, "cleared\n"), done.stderr
    assert ch.ok(server.endpoint, "GET", "faults") == {"rules": []}

    done = cli("cost", "--json", "--reset")
    assert done.returncode == 1 and "POST /dynamod/cost/reset answered 400" in done.stderr, done.stderr
    done = cli("cost", "--json", "--reset", **signed)
    assert done.returncode == 0 and done.stdout.endswith("ledger reset\n"), done.stderr
