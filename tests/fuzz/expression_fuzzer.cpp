// libFuzzer target: arbitrary bytes through every expression parser, with
// fixed ExpressionAttributeNames/Values, then evaluation, update application,
// projection and key-condition extraction on a sample item. Only ApiError may
// escape the library; anything else (another exception, a crash, a sanitizer
// report) is a bug.
//
// Build (not wired into CMake):
//   clang++-14 -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -I. \
//     tests/fuzz/expression_fuzzer.cpp protocol/expr/*.cpp protocol/attribute_value.cpp \
//     protocol/number.cpp protocol/api_error.cpp protocol/base64.cpp protocol/attribute_json.cpp \
//     protocol/json_reader.cpp protocol/json_writer.cpp protocol/table_schema.cpp -lsimdjson
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "protocol/api_error.h"
#include "protocol/expr/evaluate.h"
#include "protocol/expr/expression.h"
#include "protocol/expr/key_condition.h"
#include "protocol/expr/projection.h"
#include "protocol/expr/update.h"
#include "tests/fuzz/expand.h"
#include "tests/fuzz/guarded.h"

namespace {

using namespace dynamod;
using fuzz::guarded;
using namespace dynamod::expr;

AttributeValue num(std::string_view t) { return AttributeValue::number(*Number::parse(t).number); }
AttributeValue str(std::string s) { return AttributeValue::string(std::move(s)); }

struct Fixture {
  NameMap names{{"#n", "n"}, {"#m", "m"}, {"#p", "pk"}, {"#l", "l"}, {"#s", "sk"}, {"#e", ""}};
  ValueMap values;
  Item item;
  KeyDef key{KeyElement{"pk", ScalarType::S}, KeyElement{"sk", ScalarType::N}};

  Fixture() {
    values[":v"] = num("1");
    values[":w"] = num("-2.5");
    values[":big"] = num("9.9999999999999999999999999999999999999E+125");
    values[":tiny"] = num("1E-130");
    values[":s"] = str("st");
    values[":t"] = str("S");
    values[":b"] = AttributeValue::binary("\x01\xff");
    values[":ss"] = AttributeValue::string_set(StringSet{{"a", "b"}});
    values[":ns"] = AttributeValue::number_set(NumberSet{{num("1").as_number(), num("2").as_number()}});
    values[":bs"] = AttributeValue::binary_set(BinarySet{{"\x01"}});
    values[":l"] = AttributeValue::list(List{{num("1"), str("x")}});
    Map m;
    m.set("x", num("1"));
    values[":m"] = AttributeValue::map(m);
    values[":bo"] = AttributeValue::boolean(true);
    values[":nu"] = AttributeValue::null();

    item.set("pk", str("k"));
    item.set("sk", num("3"));
    item.set("n", num("5"));
    item.set("s", str("str"));
    item.set("ss", values[":ss"]);
    item.set("ns", values[":ns"]);
    item.set("bs", values[":bs"]);
    List inner{{num("0"), AttributeValue::list(List{{num("1")}}), AttributeValue::map(m)}};
    item.set("l", AttributeValue::list(inner));
    Map nested;
    nested.set("x", num("1"));
    nested.set("l", AttributeValue::list(inner));
    nested.set("m", AttributeValue::map(m));
    item.set("m", AttributeValue::map(nested));
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Fixture& fx = fixture();
  const std::string expanded = fuzz::expand(data, size);  // run markers: deep and long inputs
  const std::string_view text(expanded);

  guarded([&] {
    Placeholders p(&fx.names, &fx.values);
    Condition c = parse_condition(text, ConditionKind::Condition, p);
    (void)evaluate(c, &fx.item);
    (void)evaluate(c, nullptr);
    guarded([&] { (void)extract_key_condition(c, fx.key); });
    guarded([&] { p.check_all_used(); });
  });
  guarded([&] {
    Placeholders p(&fx.names, &fx.values);
    UpdateActions u = parse_update(text, p);
    guarded([&] { check_key_updates(u, {"pk", "sk"}); });
    guarded([&] {
      Item out = apply_update(u, &fx.item);
      (void)updated_attributes(u, out);
      (void)updated_attributes(u, fx.item);
    });
    guarded([&] { (void)apply_update(u, nullptr); });
  });
  guarded([&] {
    Placeholders p(&fx.names, &fx.values);
    std::vector<Path> paths = parse_projection(text, p);
    (void)project(fx.item, paths);
  });
  return 0;
}
