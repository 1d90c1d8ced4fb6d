// KeyConditionExpression shape checks (texts from DynamoDB Local, b11.py; the
// element name after "missed key schema element:" is the service's form).
#include "tests/unit/expr/expr_test_util.h"

#include "protocol/expr/key_condition.h"

namespace dynamod::expr::test {
namespace {
const KeyDef kKey{KeyElement{"pk", ScalarType::S}, KeyElement{"sk", ScalarType::N}};

struct Kc : Fixture {
  Kc() {
    values[":p"] = value(R"({"S":"x"})");
    values[":n"] = value(R"({"N":"1"})");
    values[":n2"] = value(R"({"N":"2"})");
  }
  KeyCondition extract(std::string_view text) {
    return extract_key_condition(cond(text, ConditionKind::KeyCondition), kKey);
  }
  std::string error(std::string_view text) {
    return error_of([&] { extract(text); });
  }
};
}  // namespace

TEST_CASE("expr: key conditions are extracted") {
  Kc k;
  auto a = k.extract("pk = :p");
  CHECK(a.partition_name == "pk");
  CHECK(a.partition.as_string() == "x");
  CHECK_FALSE(a.sort.has_value());
  auto b = k.extract("sk BETWEEN :n AND :n2 AND pk = :p");
  REQUIRE(b.sort.has_value());
  CHECK(b.sort->op == SortOp::Between);
  CHECK(b.sort->upper->as_number().to_string() == "2");
  auto c = k.extract(":n < sk AND (pk = :p)");  // the value first: flipped
  CHECK(c.sort->op == SortOp::Gt);
  CHECK(matches_sort_condition(*c.sort, value(R"({"N":"3"})")));
  CHECK_FALSE(matches_sort_condition(*c.sort, value(R"({"N":"1"})")));
  for (const char* op : {"=", "<", "<=", ">", ">="}) {
    CAPTURE(op);
    CHECK(k.error(std::string("pk = :p AND sk ") + op + " :n") == "");
  }
}

TEST_CASE("expr: key condition errors") {
  Kc k;
  CHECK(k.error("pk = :p AND sk <> :n") == "Invalid operator used in KeyConditionExpression: <>");
  CHECK(k.error("pk = :p OR sk = :n") == "Invalid operator used in KeyConditionExpression: OR");
  CHECK(k.error("NOT pk = :p") == "Invalid operator used in KeyConditionExpression: NOT");
  CHECK(k.error("pk IN (:p)") == "Invalid operator used in KeyConditionExpression: IN");
  CHECK(k.error("pk = :p AND attribute_exists(sk)") ==
        "Invalid operator used in KeyConditionExpression: attribute_exists");
  CHECK(k.error("pk = :p AND size(sk) = :n") == "KeyConditionExpressions cannot contain nested operations");
  CHECK(k.error("pk < :p") == "Query key condition not supported");
  CHECK(k.error("begins_with(pk, :p)") == "Query key condition not supported");
  CHECK(k.error("sk = :n") == "Query condition missed key schema element: pk");
  CHECK(k.error("pk = :p AND x = :n") == "Query condition missed key schema element: sk");
  CHECK(k.error("pk = :p AND pk = :p") == "KeyConditionExpressions must only contain one condition per key");
  CHECK(k.error("pk = :p AND sk = :n AND x = :n") == "Conditions can be of length 1 or 2 only");
  CHECK(k.error("pk = :n") ==
        "One or more parameter values were invalid: Condition parameter type does not match schema type");
  CHECK(k.error("pk = :p AND begins_with(sk, :p)") ==
        "One or more parameter values were invalid: Condition parameter type does not match schema type");
  CHECK(k.error("pk = :p AND sk = pk") ==
        "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
  CHECK(k.error("pk.a = :p") ==
        "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes");
  CHECK(k.error("pk = :p AND x.y = :n") ==
        "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes");
  CHECK(
      k.error(":n BETWEEN sk AND sk") ==
      "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand");
  CHECK(k.cond_error("pk = :p AND begins_with(sk, :n)", ConditionKind::KeyCondition) ==
        "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: "
        "begins_with, operand type: N");
  CHECK(k.cond_error("pk = :p AND sk BETWEEN :n2 AND :n", ConditionKind::KeyCondition) ==
        "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to "
        "lower bound; lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}");
}

}  // namespace dynamod::expr::test
