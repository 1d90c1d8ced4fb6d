#pragma once
// Helpers for the expression tests: items and values from DynamoDB JSON, and
// running a parse with a fixed set of placeholders.

#include <doctest/doctest.h>
#include <simdjson.h>

#include <functional>
#include <string>

#include "protocol/api_error.h"
#include "protocol/attribute_json.h"
#include "protocol/expr/evaluate.h"
#include "protocol/expr/expression.h"
#include "protocol/expr/projection.h"
#include "protocol/expr/update.h"
#include "protocol/json_writer.h"

namespace dynamod::expr::test {

inline Item item(std::string_view json_text) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(json_text);
  auto doc = parser.iterate(padded);
  simdjson::ondemand::value v = doc.get_value();
  return decode_item(v);
}

inline AttributeValue value(std::string_view json_text) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(json_text);
  auto doc = parser.iterate(padded);
  simdjson::ondemand::value v = doc.get_value();
  return decode_attribute_value(v);
}

inline std::string to_json(const Item& i) {
  JsonWriter w;
  encode_item(w, i);
  return w.take();
}

// The message of the ApiError `f` throws, or "" if it does not throw.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return e.message();
  }
  return "";
}

// Placeholders used throughout: #n -> n, #m -> m, #p -> pk, and values.
struct Fixture {
  NameMap names{{"#n", "n"}, {"#m", "m"}, {"#p", "pk"}, {"#name", "name"}, {"#dot", "a.b"}};
  ValueMap values{{":v", value(R"({"N":"1"})")},         {":w", value(R"({"N":"2"})")},
                  {":s", value(R"({"S":"str"})")},       {":st", value(R"({"S":"st"})")},
                  {":l", value(R"({"L":[{"N":"9"}]})")}, {":m", value(R"({"M":{"k":{"N":"1"}}})")},
                  {":ss", value(R"({"SS":["a"]})")},     {":ss2", value(R"({"SS":["b","c"]})")},
                  {":ns", value(R"({"NS":["1"]})")},     {":bo", value(R"({"BOOL":true})")},
                  {":nu", value(R"({"NULL":true})")},    {":b", value(R"({"B":"AQ=="})")},
                  {":bs", value(R"({"BS":["AQ=="]})")},  {":tS", value(R"({"S":"S"})")},
                  {":p1", value(R"({"N":"0.1"})")},      {":p2", value(R"({"N":"0.2"})")}};
  Placeholders p{&names, &values};

  Condition cond(std::string_view text, ConditionKind kind = ConditionKind::Condition) {
    return parse_condition(text, kind, p);
  }
  std::string cond_error(std::string_view text, ConditionKind kind = ConditionKind::Condition) {
    return error_of([&] { parse_condition(text, kind, p); });
  }
  std::string update_error(std::string_view text) {
    return error_of([&] { parse_update(text, p); });
  }
  std::string projection_error(std::string_view text) {
    return error_of([&] { parse_projection(text, p); });
  }
};

// The sample item most evaluation tests run against.
inline const Item& sample() {
  static const Item kItem = item(R"({
    "pk": {"S": "k1"}, "n": {"N": "5"}, "s": {"S": "str"}, "e": {"S": "\u00e9\u20ac"},
    "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "2"]}, "bs": {"BS": ["AQ==", "Ag=="]},
    "l": {"L": [{"N": "0"}, {"N": "1"}, {"L": [{"N": "0"}]}, {"S": "a"}]},
    "m": {"M": {"x": {"N": "1"}, "y": {"L": []}, "z": {"M": {"q": {"S": "deep"}}}}},
    "bo": {"BOOL": true}, "nu": {"NULL": true}, "b": {"B": "AQID"}, "es": {"S": ""}, "el": {"L": []},
    "a.b": {"N": "7"}})");
  return kItem;
}

// Parses a condition with the fixture's placeholders and evaluates it on `i`.
inline bool eval(std::string_view text, const Item* i = &sample()) {
  Fixture f;
  return evaluate(f.cond(text), i);
}

}  // namespace dynamod::expr::test
