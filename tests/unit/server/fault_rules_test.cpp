// Fault rules (server/fault_rules, server/fault_request): parsing with reasons, matching by
// operation, table, index and key prefix, firing by times / every / probability, and the
// batch hold-back that becomes UnprocessedItems / UnprocessedKeys.
#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "server/fault_request.h"
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
  CHECK_FALSE(rule->matches(facts("Query", {"t"}, {"hot#1"})));
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
  FaultPlan plan = rules.evaluate(facts("GetItem", {"t"}));
  CHECK(plan.delay.count() == 15);
  REQUIRE(plan.error);
  CHECK(plan.error->code() == ErrorCode::RequestLimitExceeded);
  CHECK_FALSE(plan.close);
  CHECK(plan.fired.size() == 3);
  CHECK(rules.remove(close));
  CHECK_FALSE(rules.remove(close));
  rules.clear();
  CHECK_FALSE(rules.active());
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
