// The Ion text subset of exports and imports: every attribute type written as
// the developer guide shows it and read back, the guide's own example, and
// text a reader must refuse without crashing.
#include <doctest/doctest.h>

#include "protocol/api_error.h"
#include "protocol/ion_text.h"

using dynamod::ApiError;
using dynamod::AttributeValue;
using dynamod::BinarySet;
using dynamod::Item;
using dynamod::List;
using dynamod::Number;
using dynamod::NumberSet;
using dynamod::StringSet;
namespace ion = dynamod::ion;

namespace {

Number num(std::string_view text) { return *Number::parse(text).number; }

std::string decimal(std::string_view text) {
  std::string out;
  ion::write_decimal(out, num(text));
  return out;
}

bool refused(std::string_view text) {
  try {
    ion::parse(text);
  } catch (const ApiError& e) {
    return e.code() == dynamod::ErrorCode::ValidationException;
  }
  return false;
}

}  // namespace

TEST_CASE("ion: numbers are decimals as the service writes them") {
  CHECK(decimal("103") == "103.");
  CHECK(decimal("600") == "6d2");
  CHECK(decimal("2000") == "2d3");
  CHECK(decimal("1.5") == "1.5");
  CHECK(decimal("-12.25") == "-12.25");
  CHECK(decimal("0.001") == "0.001");
  CHECK(decimal("0") == "0.");
  CHECK(decimal("1e-130") == "1d-130");
  CHECK(decimal("9.9e125") == "99d124");
  for (std::string_view text : {"103", "600", "1.5", "-12.25", "0.001", "0", "1e-130", "9.9e125", "-0.5"}) {
    std::vector<ion::Value> values = ion::parse(decimal(text));
    REQUIRE(values.size() == 1);
    CHECK(ion::to_attribute_value(values[0]) == AttributeValue::number(num(text)));
  }
}

TEST_CASE("ion: every attribute type round-trips through an item's struct") {
  Item inner;
  inner.set("deep", AttributeValue::string("x"));
  Item item;
  item.set("s", AttributeValue::string("quote \" backslash \\ newline \n tab \t bell \a é"));
  item.set("n", AttributeValue::number(num("-3.25")));
  item.set("b", AttributeValue::binary(std::string("\0\x01\xff", 3)));
  item.set("t", AttributeValue::boolean(true));
  item.set("f", AttributeValue::boolean(false));
  item.set("z", AttributeValue::null());
  item.set("ss", AttributeValue::string_set(StringSet{{"a", "b"}}));
  item.set("ns", AttributeValue::number_set(NumberSet{{num("1"), num("2.5")}}));
  item.set("bs", AttributeValue::binary_set(BinarySet{{std::string("\x01", 1), std::string("\x02", 1)}}));
  item.set("l", AttributeValue::list(List{{AttributeValue::number(num("1")), AttributeValue::map(inner)}}));
  item.set("m", AttributeValue::map(inner));
  item.set("odd name", AttributeValue::string("v"));
  item.set("null", AttributeValue::string("a field named like a keyword"));
  item.set("", AttributeValue::string("empty name"));
  const std::string text = ion::item_text(item);
  CHECK(text.find("ss:$dynamodb_SS::[\"a\",\"b\"]") != std::string::npos);
  CHECK(text.find("ns:$dynamodb_NS::[1.,2.5]") != std::string::npos);
  CHECK(text.find("bs:$dynamodb_BS::[{{AQ==}},{{Ag==}}]") != std::string::npos);
  CHECK(text.find("'odd name':\"v\"") != std::string::npos);
  CHECK(text.find("'null':") != std::string::npos);
  CHECK(ion::read_item(text) == item);
}

TEST_CASE("ion: the developer guide's example item reads") {
  const std::vector<ion::Value> values = ion::parse(R"($ion_1_0 {
    Item:{
        Authors:$dynamodb_SS::["Author1","Author2"],
        Dimensions:"8.5 x 11.0 x 1.5",
        ISBN:"333-3333333333",
        Id:103.,
        InPublication:false,
        PageCount:6d2,
        Price:2d3,
        ProductCategory:"Book",
        Title:"Book 103 Title"
    }
}
$ion_1_0 {Item:{Id:104.}})");
  REQUIRE(values.size() == 2);
  const ion::Value* wrapped = values[0].field("Item");
  REQUIRE(wrapped != nullptr);
  Item item = ion::to_item(*wrapped);
  CHECK(item.size() == 9);
  CHECK(*item.find("PageCount") == AttributeValue::number(num("600")));
  CHECK(*item.find("Price") == AttributeValue::number(num("2000")));
  CHECK(*item.find("Id") == AttributeValue::number(num("103")));
  CHECK(*item.find("Authors") == AttributeValue::string_set(StringSet{{"Author1", "Author2"}}));
  CHECK(*item.find("InPublication") == AttributeValue::boolean(false));
  CHECK(ion::to_item(*values[1].field("Item")).size() == 1);
}

TEST_CASE("ion: what other writers may produce reads too") {
  Item item = ion::read_item(R"(/* a comment */ { "quoted field": '''long ''' '''string''', // line comment
      i: 1_000, f: 1.5e0, typed: null.string, blob: {{ aGVs bG8= }}, esc: "\x41\u00e9\U0001F600", trailing: [1,2,], })");
  CHECK(*item.find("quoted field") == AttributeValue::string("long string"));
  CHECK(*item.find("i") == AttributeValue::number(num("1000")));
  CHECK(*item.find("f") == AttributeValue::number(num("1.5")));
  CHECK(*item.find("typed") == AttributeValue::null());
  CHECK(*item.find("blob") == AttributeValue::binary("hello"));
  CHECK(*item.find("esc") == AttributeValue::string("A\xc3\xa9\xf0\x9f\x98\x80"));
  CHECK(item.find("trailing")->as_list().values.size() == 2);
}

TEST_CASE("ion: text that is not the subset, or not Ion, is refused") {
  for (std::string_view text :
       {"{", "[1,", "{a 1}", "\"unterminated", "{{not base64!}}", "2007-02-23T12:14Z", "(sexp)", "0x1F", "{a:nan}",
        "{a:+inf}", "{{\"clob\"}}", "'''open", "1.2.3", "{a:1}}", "\"\\q\"", "/* open"}) {
    CHECK_MESSAGE(refused(text), text);
  }
  CHECK_THROWS_AS(ion::read_item("[1]"), ApiError);
  CHECK_THROWS_AS(ion::read_item("{a:sym}"), ApiError);
  CHECK_THROWS_AS(ion::read_item("{a:$dynamodb_SS::[1]}"), ApiError);
  CHECK_THROWS_AS(ion::read_item("{a:$dynamodb_NS::[1, 1.0]}"), ApiError);
  CHECK_THROWS_AS(ion::read_item("{a:$dynamodb_SS::[]}"), ApiError);
  CHECK_THROWS_AS(ion::read_item("{a:1, a:2}"), ApiError);
  CHECK_THROWS_AS(ion::read_item("{a:1e200}"), ApiError);
}

TEST_CASE("ion: nesting is bounded") {
  std::string deep(100000, '[');
  CHECK(refused(deep));
  std::string ok;
  for (int i = 0; i < 40; ++i) ok += "[";
  for (int i = 0; i < 40; ++i) ok += "]";
  CHECK(ion::parse(ok).size() == 1);
}
