// Legacy parameters converted to the expression ASTs (texts and truth values
// from DynamoDB Local, b13.py in /work/notes/research/expr).
#include "tests/unit/expr/expr_test_util.h"

#include "protocol/expr/legacy.h"
#include "protocol/expr/legacy_json.h"

namespace dynamod::expr::test {
namespace {

LegacyConditions conditions(std::string_view json_text) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(json_text);
  auto doc = parser.iterate(padded);
  simdjson::ondemand::value v = doc.get_value();
  return decode_legacy_conditions(v);
}

LegacyUpdates updates(std::string_view json_text) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(json_text);
  auto doc = parser.iterate(padded);
  simdjson::ondemand::value v = doc.get_value();
  return decode_legacy_updates(v);
}

bool expected(std::string_view json_text, std::optional<std::string> op = std::nullopt) {
  return evaluate(convert_expected(conditions(json_text), op), &sample());
}

std::string expected_error(std::string_view json_text, std::optional<std::string> op = std::nullopt) {
  return error_of([&] { convert_expected(conditions(json_text), op); });
}

}  // namespace

TEST_CASE("expr: legacy Expected") {
  CHECK(expected(R"({"n":{"Value":{"N":"5"}}})"));
  CHECK(expected(R"({"n":{"Value":{"N":"5"},"Exists":true}})"));
  CHECK(expected(R"({"nope":{"Exists":false}})"));
  CHECK_FALSE(expected(R"({"n":{"Exists":false}})"));
  CHECK(expected(R"({"nope":{"ComparisonOperator":"NE","AttributeValueList":[{"N":"5"}]}})"));
  CHECK_FALSE(expected(R"({"nope":{"ComparisonOperator":"NOT_CONTAINS","AttributeValueList":[{"S":"a"}]}})"));
  CHECK(expected(R"({"ss":{"ComparisonOperator":"NOT_CONTAINS","AttributeValueList":[{"S":"z"}]}})"));
  CHECK(expected(R"({"n":{"ComparisonOperator":"NOT_NULL"},"nope":{"ComparisonOperator":"NULL"}})"));
  CHECK(expected(R"({"n":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"N":"1"},{"N":"5"}]}})"));
  CHECK(expected(R"({"n":{"ComparisonOperator":"IN","AttributeValueList":[{"N":"1"},{"N":"5"}]}})"));
  CHECK(expected(R"({"s":{"ComparisonOperator":"BEGINS_WITH","AttributeValueList":[{"S":"st"}]}})"));
  CHECK(expected(R"({"n":{"Value":{"N":"1"}},"s":{"Value":{"S":"str"}}})", "OR"));
  CHECK_FALSE(expected(R"({"n":{"Value":{"N":"1"}},"s":{"Value":{"S":"str"}}})", "AND"));
}

TEST_CASE("expr: legacy Expected errors") {
  const std::string p = "One or more parameter values were invalid: ";
  CHECK(expected_error(R"({"n":{"Exists":true}})") ==
        p + "Value must be provided when Exists is true for Attribute: n");
  CHECK(expected_error(R"({"n":{}})") == p + "Value must be provided when Exists is null for Attribute: n");
  CHECK(expected_error(R"({"n":{"Exists":false,"Value":{"N":"5"}}})") ==
        p + "Value cannot be used when Exists is false for Attribute: n");
  CHECK(expected_error(R"({"n":{"ComparisonOperator":"EQ"}})") ==
        p + "Value or AttributeValueList must be used with ComparisonOperator: EQ for Attribute: n");
  CHECK(expected_error(R"({"n":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"5"},{"N":"6"}]}})") ==
        p + "Invalid number of argument(s) for the EQ ComparisonOperator");
  CHECK(expected_error(R"({"n":{"ComparisonOperator":"LT","AttributeValueList":[{"SS":["a"]}]}})") ==
        p + "ComparisonOperator LT is not valid for SS AttributeValue type");
  CHECK(expected_error(R"({"n":{"ComparisonOperator":"BOGUS","AttributeValueList":[{"N":"5"}]}})") ==
        "Comparison type does not exist in DynamoDB");
  CHECK(expected_error(R"({"n":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"N":"6"},{"N":"1"}]}})") ==
        "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
  CHECK(expected_error(R"({"n":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"N":"1"},{"S":"x"}]}})") ==
        p + "AttributeValues inside AttributeValueList must be of same type");
  CHECK(expected_error(R"({"n":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"5"}],"Exists":true}})") ==
        p + "Exists and ComparisonOperator cannot be used together for Attribute: n");
  CHECK(expected_error(R"({"n":{"Value":{"N":"5"},"AttributeValueList":[{"N":"5"}]}})") ==
        p + "Value and AttributeValueList cannot be used together for Attribute: n");
  CHECK(expected_error(R"({"n":{"Value":{"N":"5"}}})", "OR") ==
        "ConditionalOperator can only be used when Filter or Expected has two or more elements");
  // ...once the entries passed: theirs is named first (DynamoDB Local)
  CHECK(expected_error(R"({"n":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"N":"0"},{"S":"x"}]}})", "AND") ==
        p + "AttributeValues inside AttributeValueList must be of same type");
  CHECK(expected_error(R"({"n":{"Exists":false,"Value":{"N":"1"}}})", "OR") ==
        p + "Value cannot be used when Exists is false for Attribute: n");
}

TEST_CASE("expr: legacy QueryFilter and KeyConditions") {
  auto filter =
      convert_filter(conditions(R"({"n":{"ComparisonOperator":"GT","AttributeValueList":[{"N":"1"}]}})"), std::nullopt);
  CHECK(evaluate(filter, &sample()));
  const KeyDef key{KeyElement{"pk", ScalarType::S}, KeyElement{"sk", ScalarType::N}};
  auto [kc, not_indexable] =
      convert_key_conditions(conditions(R"({"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]},
                    "sk":{"ComparisonOperator":"BEGINS_WITH","AttributeValueList":[{"S":"a"}]}})"),
                             KeyDef{KeyElement{"pk", ScalarType::S}, KeyElement{"sk", ScalarType::S}});
  CHECK_FALSE(not_indexable);
  REQUIRE(kc.sort.has_value());
  CHECK(kc.sort->op == SortOp::BeginsWith);
  CHECK(error_of([&] {
          convert_key_conditions(
              conditions(R"({"pk":{"ComparisonOperator":"BEGINS_WITH","AttributeValueList":[{"S":"a"}]}})"), key);
        }) == "Query key condition not supported");
  CHECK(error_of([&] {
          convert_key_conditions(conditions(R"({"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"1"}]}})"),
                                 key);
        }) == "One or more parameter values were invalid: Condition parameter type does not match schema type");
  // An operator that cannot serve a key: its arguments are checked first, the
  // key schema against the other conditions, and the refusal left to the caller...
  CHECK(error_of([&] {
          convert_key_conditions(conditions(R"({"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]},
              "sk":{"ComparisonOperator":"NE","AttributeValueList":[{"N":"1"},{"N":"2"}]}})"),
                                 key);
        }) == "One or more parameter values were invalid: Invalid number of argument(s) for the NE ComparisonOperator");
  CHECK(error_of([&] {
          convert_key_conditions(conditions(R"({"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"1"}]},
              "sk":{"ComparisonOperator":"NE","AttributeValueList":[{"N":"1"}]}})"),
                                 key);
        }) == "One or more parameter values were invalid: Condition parameter type does not match schema type");
  CHECK(convert_key_conditions(conditions(R"({"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]},
            "sk":{"ComparisonOperator":"NE","AttributeValueList":[{"N":"1"}]}})"),
                               key)
            .not_indexable);
  // ...unless no partition-key condition is left.
  CHECK(error_of([&] {
          convert_key_conditions(conditions(R"({"pk":{"ComparisonOperator":"NE","AttributeValueList":[{"S":"a"}]}})"),
                                 key);
        }) == "Attempted conditional constraint is not an indexable operation");
}

TEST_CASE("expr: legacy AttributeUpdates and AttributesToGet") {
  const Item start = item(R"({"pk":{"S":"g1"},"n":{"N":"5"},"l":{"L":[{"N":"1"}]},"ss":{"SS":["a"]}})");
  auto u = convert_attribute_updates(updates(R"({"l":{"Action":"ADD","Value":{"L":[{"N":"2"}]}},
      "ss":{"Action":"DELETE"},"n":{"Value":{"N":"6"}},"c":{"Action":"ADD","Value":{"N":"1"}}})"));
  CHECK(to_json(apply_update(u, &start)) ==
        R"({"c":{"N":"1"},"l":{"L":[{"N":"1"},{"N":"2"}]},"n":{"N":"6"},"pk":{"S":"g1"}})");
  const std::string p = "One or more parameter values were invalid: ";
  CHECK(error_of([] { convert_attribute_updates(updates(R"({"s":{"Action":"ADD","Value":{"S":"x"}}})")); }) ==
        p + "ADD action is not supported for the type S");
  CHECK(error_of([] { convert_attribute_updates(updates(R"({"s":{"Action":"DELETE","Value":{"N":"1"}}})")); }) ==
        p + "DELETE action with value is not supported for the type N");
  CHECK(error_of([] { convert_attribute_updates(updates(R"({"s":{"Action":"PUT"}})")); }) ==
        p + "Only DELETE action is allowed when no attribute value is specified");
  auto mismatch = convert_attribute_updates(updates(R"({"ss":{"Action":"ADD","Value":{"NS":["1"]}}})"));
  CHECK(error_of([&] { apply_update(mismatch, &start); }) == "Type mismatch for attribute to update");
  auto paths = convert_attributes_to_get({"n", "ss"});
  CHECK(to_json(project(start, paths)) == R"({"n":{"N":"5"},"ss":{"SS":["a"]}})");
  CHECK(error_of([] { convert_attributes_to_get({"n", "n"}); }) == p + "Duplicate value in attribute name: n");
}

TEST_CASE("expr: ExpressionAttributeValues decoding wraps value errors") {
  auto decode = [](std::string_view json_text) {
    simdjson::ondemand::parser parser;
    simdjson::padded_string padded(json_text);
    auto doc = parser.iterate(padded);
    simdjson::ondemand::value v = doc.get_value();
    return decode_expression_values(v);
  };
  CHECK(decode(R"({":v":{"N":"1"}})").size() == 1);
  CHECK(error_of([&] { decode(R"({":v":{"SS":[]}})"); }) ==
        "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An string set  "
        "may not be empty for key :v");
  CHECK(error_of([&] { decode(R"({":v":{}})"); }) ==
        "ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, must contain exactly one "
        "of the supported datatypes for key :v");
}

}  // namespace dynamod::expr::test
