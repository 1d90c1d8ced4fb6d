// Fault rules (server/fault_rules, fault_facts, fault_batch): parsing with reasons, the index
// by operation, matching by operation, table, index and key prefix, what a request's body
// names (its keys through Query's conditions and PartiQL's statements too), firing by times /
// every / probability, and the batch hold-back that becomes UnprocessedItems / UnprocessedKeys.
#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "server/fault_batch.h"
#include "server/fault_facts.h"
#include "server/fault_rules.h"

using namespace dynamod;

namespace {

RequestFacts facts(std::string_view operation, std::vector<std::string> tables, std::vector<std::string> keys = {}) {
  RequestFacts f;
  f.operation = operation;
  f.tables = std::move(tables);
  f.partition_keys = std::move(keys);
  return f;
}

std::string refusal(const std::string& json) {
  try {
    parse_fault_rule(json);
  } catch (const ApiError& e) {
    CHECK(e.code() == ErrorCode::ValidationException);
    return e.message();
  }
  return "";
}

}  // namespace

TEST_CASE("fault rules: times, every and a seeded probability") {
  auto rule = parse_fault_rule(R"({"error": "ThrottlingException", "times": 2})");
  CHECK(rule->fire());
  CHECK(rule->fire());
  CHECK_FALSE(rule->fire());
  CHECK(rule->matched == 3);
  CHECK(rule->fired == 2);

  auto every = parse_fault_rule(R"({"close": true, "every": 3, "times": 2})");
  std::string pattern;
  for (int i = 0; i < 9; ++i) pattern += every->fire() ? '1' : '0';
  CHECK(pattern == "001001000");

  auto a = parse_fault_rule(R"({"latency_ms": 1, "probability": 0.25, "seed": 7})");
  auto b = parse_fault_rule(R"({"latency_ms": 1, "probability": 0.25, "seed": 7})");
  int fired = 0;
  for (int i = 0; i < 400; ++i) {
    bool x = a->fire();
    CHECK(x == b->fire());
    fired += x ? 1 : 0;
  }
  CHECK(fired > 50);
  CHECK(fired < 150);
}

TEST_CASE("fault rules: matching") {
  auto rule = parse_fault_rule(
      R"({"operations": ["PutItem", "GetItem"], "tables": ["t"], "key_prefix": "hot#", "error": "InternalServerError"})");
  CHECK(rule->matches(facts("PutItem", {"t"}, {"hot#1"})));
  CHECK_FALSE(rule->matches(facts("PutItem", {"t"}, {"cold"})));
  CHECK_FALSE(rule->matches(facts("PutItem", {"u"}, {"hot#1"})));
  // The operation is the index's to check.
  FaultRules rules;
  rules.add(std::move(rule));
  CHECK(rules.for_operation("GetItem"));
  CHECK_FALSE(rules.for_operation("Query"));
  auto index = parse_fault_rule(R"({"index": "g", "latency_ms": 5})");
  RequestFacts query = facts("Query", {"t"});
  CHECK_FALSE(index->matches(query));
  query.index = "g";
  CHECK(index->matches(query));
}

TEST_CASE("fault rules: the first action decides, delays add up") {
  FaultRules rules;
  CHECK_FALSE(rules.active());
  rules.add(parse_fault_rule(R"({"latency_ms": 10})"));
  rules.add(parse_fault_rule(R"({"latency_ms": [5, 5], "error": "RequestLimitExceeded"})"));
  const std::uint64_t close = rules.add(parse_fault_rule(R"({"close": true})"));
  CHECK(rules.active());
  auto get = rules.for_operation("GetItem");
  REQUIRE(get);
  FaultPlan plan = get->evaluate(facts("GetItem", {"t"}));
  CHECK(plan.delay.count() == 15);
  REQUIRE(plan.error);
  CHECK(plan.error->code() == ErrorCode::RequestLimitExceeded);
  CHECK_FALSE(plan.close);
  CHECK(plan.fired.size() == 3);
  CHECK(rules.remove(close));
  CHECK_FALSE(rules.remove(close));
  rules.clear();
  CHECK_FALSE(rules.active());
  CHECK_FALSE(rules.for_operation("GetItem"));
}

TEST_CASE("fault rules: indexed by operation, in the order they were added") {
  FaultRules rules;
  rules.add(parse_fault_rule(R"({"operations": ["GetItem"], "tables": ["t"], "error": "ThrottlingException"})"));
  // An operation no rule names has no rules to check.
  CHECK_FALSE(rules.for_operation("PutItem"));
  auto get = rules.for_operation("GetItem");
  REQUIRE(get);
  CHECK_FALSE(get->needs_keys());

  // A rule naming no operation joins every operation's rules, after the ones added before it.
  rules.add(parse_fault_rule(R"({"error": "InternalServerError"})"));
  rules.add(parse_fault_rule(R"({"operations": ["GetItem"], "key_prefix": "k", "close": true})"));
  auto put = rules.for_operation("PutItem");
  REQUIRE(put);
  CHECK_FALSE(put->needs_keys());
  CHECK(put->evaluate(facts("PutItem", {"t"})).error->code() == ErrorCode::InternalServerError);
  get = rules.for_operation("GetItem");
  REQUIRE(get);
  CHECK(get->needs_keys());
  FaultPlan plan = get->evaluate(facts("GetItem", {"t"}, {"k1"}));
  CHECK(plan.fired.size() == 3);
  CHECK(plan.error->code() == ErrorCode::ThrottlingException);
  CHECK_FALSE(plan.close);
  // Counters are the rule's, whichever operation's list it was reached through.
  CHECK(rules.list_json().find(R"("error":"InternalServerError","matched":2,"fired":2)") != std::string::npos);
}

TEST_CASE("fault rules: errors as the service sends them") {
  auto cancel = parse_fault_rule(R"({"error": "TransactionCanceledException", "conflict_item": 1})");
  RequestFacts f = facts("TransactWriteItems", {"t"});
  f.transact_items = 2;
  ApiError e = fault_error(*cancel, f);
  CHECK(e.code() == ErrorCode::TransactionCanceledException);
  CHECK(e.message() ==
        "Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]");
  CHECK(
      e.extra_json() ==
      R"("CancellationReasons":[{"Code":"None"},{"Code":"TransactionConflict","Message":"Transaction is ongoing for the item"}])");
  auto unavailable = parse_fault_rule(R"({"error": "ServiceUnavailable"})");
  CHECK(unavailable->action == FaultRule::Action::Unavailable);
  CHECK(
      service_unavailable_body("") ==
      R"({"__type":"com.amazonaws.dynamodb.v20120810#ServiceUnavailable","message":"The request has failed due to a temporary failure of the server."})");
}

TEST_CASE("fault rules: refusals say why") {
  CHECK(refusal("[]") == "Invalid fault rule: a rule is a JSON object");
  CHECK(refusal(R"({"tables": "t"})") == "Invalid fault rule: a rule needs error, latency_ms, unprocessed or close");
  CHECK(refusal(R"({"every": -1, "close": true})") == "Invalid fault rule: every must be a positive integer");
  CHECK(refusal(R"({"unprocessed": 2, "operations": ["Scan"]})") ==
        "Invalid fault rule: unprocessed applies to BatchWriteItem and BatchGetItem only, not Scan");
  CHECK(refusal(R"({"operations": ["GetItm"], "close": true})") ==
        "Invalid fault rule: operation 'GetItm' is not one of dynamod's operations");
  CHECK(refusal(R"({"operations": [1], "close": true})") == "Invalid fault rule: operations must be a list of strings");
  CHECK(refusal(R"({"key_prefix": 7, "close": true})") == "Invalid fault rule: key_prefix must be a string");
  CHECK(refusal(R"({"close": true)") == "Invalid fault rule: not JSON");
  CHECK(parse_fault_rule(R"({"operations": ["GetRecords"], "close": true})")->operations.size() == 1);
  CHECK(parse_fault_rules(R"({"rules": [{"close": true}, {"latency_ms": 1}]})").size() == 2);
  CHECK(parse_fault_rules(R"([{"close": true}])").size() == 1);
}

TEST_CASE("fault requests: a batch held back and its answer") {
  const std::string body =
      R"({"RequestItems":{"a":[{"PutRequest":{"Item":{"pk":{"S":"1"}}}},{"PutRequest":{"Item":{"pk":{"S":"2"}}}}],)"
      R"("b":[{"DeleteRequest":{"Key":{"pk":{"S":"3"}}}}]},"ReturnConsumedCapacity":"TOTAL"})";
  auto held = hold_back("BatchWriteItem", body, 2);
  REQUIRE(held);
  CHECK(held->request_body ==
        R"({"RequestItems":{"a":[{"PutRequest":{"Item":{"pk":{"S":"1"}}}}]},"ReturnConsumedCapacity":"TOTAL"})");
  CHECK(held->held ==
        R"({"a":[{"PutRequest":{"Item":{"pk":{"S":"2"}}}}],"b":[{"DeleteRequest":{"Key":{"pk":{"S":"3"}}}}]})");
  CHECK(
      add_unprocessed("BatchWriteItem", R"({"UnprocessedItems":{"b":[{"DeleteRequest":{"Key":{"pk":{"S":"4"}}}}]}})",
                      *held) ==
      R"({"UnprocessedItems":{"b":[{"DeleteRequest":{"Key":{"pk":{"S":"4"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"3"}}}}],"a":[{"PutRequest":{"Item":{"pk":{"S":"2"}}}}]}})");
  // Never the whole batch.
  CHECK(hold_back("BatchWriteItem", body, 10)->request_body.find(R"("S":"1")") != std::string::npos);
  CHECK_FALSE(hold_back("BatchWriteItem", R"({"RequestItems":{"a":[{"PutRequest":{"Item":{}}}]}})", 1));

  const std::string get =
      R"({"RequestItems":{"a":{"Keys":[{"pk":{"S":"1"}},{"pk":{"S":"2"}}],"ConsistentRead":true}}})";
  auto half = hold_back("BatchGetItem", get, std::numeric_limits<std::size_t>::max());
  REQUIRE(half);
  CHECK(half->request_body == R"({"RequestItems":{"a":{"ConsistentRead":true,"Keys":[{"pk":{"S":"1"}}]}}})");
  CHECK(add_unprocessed("BatchGetItem", R"({"Responses":{"a":[]},"UnprocessedKeys":{}})", *half) ==
        R"({"Responses":{"a":[]},"UnprocessedKeys":{"a":{"ConsistentRead":true,"Keys":[{"pk":{"S":"2"}}]}}})");
}

namespace {

// A catalog of one table "t" (key pk, sort key sk) with a global index "byg" keyed by g.
class FactsFixture {
 public:
  FactsFixture() {
    auto table = std::make_shared<Table>();
    table->ns = "us-east-1";
    table->schema.name = "t";
    table->schema.key.partition.name = "pk";
    table->schema.key.sort = KeyElement{"sk", ScalarType::N};
    IndexSchema index;
    index.name = "byg";
    index.key.partition.name = "g";
    table->schema.global_indexes.push_back(index);
    catalog_.put(table);
  }

  // What `body` names for `operation`; the document then reads from its start again, as the handler does.
  RequestFacts read(std::string_view operation, std::string body) {
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    json::object object = json::request_object(parser, body, doc);
    RequestFacts facts =
        request_facts(operation, object, FactsContext{catalog_, "us-east-1", {"us-east-1", "123456789012"}}, true);
    doc.rewind();
    json::object again = doc.get_object();
    CHECK(again.count_fields().value() > 0);
    return facts;
  }

  std::vector<std::string> keys(std::string_view operation, std::string body) {
    return read(operation, std::move(body)).partition_keys;
  }

 private:
  Catalog catalog_;
};

using Keys = std::vector<std::string>;

}  // namespace

TEST_CASE("fault facts: items, batches and transactions") {
  FactsFixture f;
  RequestFacts get = f.read("GetItem", R"({"Key": {"pk": {"S": "hot#1"}, "sk": {"N": "1"}}, "TableName": "t"})");
  CHECK(get.tables == std::vector<std::string>{"t"});
  CHECK(get.partition_keys == Keys{"hot#1"});
  CHECK(f.keys("PutItem", R"({"TableName": "arn:aws:dynamodb:us-east-1:123456789012:table/t",
                              "Item": {"v": {"S": "x"}, "pk": {"N": "42"}}})") == Keys{"42"});
  CHECK(f.keys("DeleteItem", R"({"TableName": "t", "Key": {"pk": {"B": "AAE="}}})") == Keys{"AAE="});
  RequestFacts batch = f.read(
      "BatchWriteItem",
      R"({"RequestItems": {"t": [{"PutRequest": {"Item": {"pk": {"S": "a"}}}}, {"DeleteRequest": {"Key": {"pk": {"S": "b"}}}}],
                           "u": [{"PutRequest": {"Item": {"pk": {"S": "c"}}}}]}})");
  CHECK(batch.tables == std::vector<std::string>{"t", "u"});
  CHECK(batch.partition_keys == Keys{"a", "b"});  // u does not exist: no key schema
  CHECK(f.keys("BatchGetItem", R"({"RequestItems": {"t": {"ConsistentRead": true, "Keys": [{"pk": {"S": "d"}}]}}})") ==
        Keys{"d"});
  RequestFacts transaction = f.read("TransactWriteItems", R"J({"TransactItems": [
      {"Put": {"Item": {"pk": {"S": "e"}}, "TableName": "t"}},
      {"ConditionCheck": {"TableName": "t", "Key": {"pk": {"S": "f"}}, "ConditionExpression": "attribute_exists(pk)"}}]})J");
  CHECK(transaction.transact_items == 2);
  CHECK(transaction.partition_keys == Keys{"e", "f"});
  // Members of the wrong type name nothing; the operation's decoder answers them.
  RequestFacts odd = f.read("GetItem", R"({"TableName": 5, "Key": {"pk": {"S": "x"}}})");
  CHECK(odd.tables.empty());
  CHECK(f.keys("GetItem", R"({"TableName": "t", "Key": "pk"})").empty());
  CHECK(f.keys("GetItem", R"({"TableName": "t", "Key": {"pk": {"BOOL": true}}})").empty());
  CHECK(f.keys("BatchWriteItem", R"({"RequestItems": {"t": {"PutRequest": 1}}})").empty());
}

TEST_CASE("fault facts: a Query fixes its partition key with =, a Scan never") {
  FactsFixture f;
  CHECK(f.keys("Query", R"({"TableName": "t", "KeyConditionExpression": "#p = :v AND sk > :s",
                            "ExpressionAttributeNames": {"#p": "pk"},
                            "ExpressionAttributeValues": {":v": {"S": "hot#q"}, ":s": {"N": "1.50"}}})") ==
        Keys{"hot#q"});
  CHECK(f.keys("Query", R"({"ExpressionAttributeValues": {":v": {"N": "1e3"}}, "TableName": "t",
                            "KeyConditionExpression": ":v = pk"})") == Keys{"1000"});
  RequestFacts index = f.read("Query", R"({"TableName": "t", "IndexName": "byg", "KeyConditionExpression": "g = :g",
                                          "ExpressionAttributeValues": {":g": {"S": "via-index"}}})");
  CHECK(index.index == "byg");
  CHECK(index.partition_keys == Keys{"via-index"});
  // Through an index, the table's partition key is an ordinary attribute.
  CHECK(f.keys("Query", R"({"TableName": "t", "IndexName": "byg", "KeyConditionExpression": "pk = :p",
                            "ExpressionAttributeValues": {":p": {"S": "x"}}})")
            .empty());
  CHECK(f.keys("Query", R"({"TableName": "t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
                            "AttributeValueList": [{"S": "legacy"}]}}})") == Keys{"legacy"});
  CHECK(f.keys("Query", R"({"TableName": "t", "KeyConditions": {"pk": {"AttributeValueList": [{"S": "x"}],
                            "ComparisonOperator": "BEGINS_WITH"}}})")
            .empty());
  // An expression that does not parse, or a placeholder left undefined, fixes nothing.
  CHECK(f.keys("Query", R"({"TableName": "t", "KeyConditionExpression": "pk = = :v",
                            "ExpressionAttributeValues": {":v": {"S": "x"}}})")
            .empty());
  CHECK(f.keys("Query", R"({"TableName": "t", "KeyConditionExpression": "pk = :nope"})").empty());
  CHECK(f.keys("Query", R"({"TableName": "t", "KeyConditionExpression": "pk = :v",
                            "ExpressionAttributeValues": {":v": {"Q": "x"}}})")
            .empty());
  RequestFacts scan =
      f.read("Scan", R"({"TableName": "t", "IndexName": "byg", "ExclusiveStartKey": {"pk": {"S": "x"}}})");
  CHECK(scan.tables == std::vector<std::string>{"t"});
  CHECK(scan.index == "byg");
  CHECK(scan.partition_keys.empty());
}

TEST_CASE("fault facts: PartiQL statements name their table and the partition key they fix") {
  FactsFixture f;
  RequestFacts select =
      f.read("ExecuteStatement", R"({"Statement": "SELECT * FROM \"t\" WHERE sk > 3 AND pk = 'hot#p'"})");
  CHECK(select.tables == std::vector<std::string>{"t"});
  CHECK(select.partition_keys == Keys{"hot#p"});
  CHECK(f.keys("ExecuteStatement", R"({"Statement": "UPDATE t SET v = 1 WHERE pk = ? AND sk = ?",
                                       "Parameters": [{"S": "param"}, {"N": "1"}]})") == Keys{"param"});
  CHECK(f.keys("ExecuteStatement", R"({"Statement": "DELETE FROM t WHERE sk = ? AND pk = ?",
                                       "Parameters": [{"N": "1"}, {"S": "second"}]})") == Keys{"second"});
  CHECK(f.keys("ExecuteStatement", R"({"Statement": "INSERT INTO t VALUE {'v': 1, 'pk': 'ins'}"})") == Keys{"ins"});
  RequestFacts index = f.read("ExecuteStatement", R"({"Statement": "SELECT * FROM \"t\".\"byg\" WHERE g = 'gx'"})");
  CHECK(index.index == "byg");
  CHECK(index.partition_keys == Keys{"gx"});
  // No equality on the partition key, an OR, a missing parameter, a statement that does not parse: no key.
  CHECK(f.keys("ExecuteStatement", R"({"Statement": "SELECT * FROM t WHERE pk > 'a'"})").empty());
  CHECK(f.keys("ExecuteStatement", R"({"Statement": "SELECT * FROM t WHERE pk = 'a' OR pk = 'b'"})").empty());
  CHECK(f.keys("ExecuteStatement", R"({"Statement": "SELECT * FROM t WHERE pk = ?"})").empty());
  RequestFacts broken = f.read("ExecuteStatement", R"({"Statement": "SELEKT * FROM t"})");
  CHECK(broken.tables.empty());
  RequestFacts batch = f.read("BatchExecuteStatement", R"({"Statements": [
      {"Statement": "SELECT * FROM t WHERE pk = 'one'"},
      {"Parameters": [{"S": "two"}], "Statement": "DELETE FROM u WHERE pk = ?"}]})");
  CHECK(batch.tables == std::vector<std::string>{"t", "u"});
  CHECK(batch.partition_keys == Keys{"one"});
  RequestFacts transaction = f.read("ExecuteTransaction", R"({"TransactStatements": [
      {"Statement": "UPDATE t SET v = 1 WHERE pk = 'x'"}, {"Statement": "INSERT INTO t VALUE {'pk': 'y'}"}]})");
  CHECK(transaction.transact_items == 2);
  CHECK(transaction.partition_keys == Keys{"x", "y"});
}
