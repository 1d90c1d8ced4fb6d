// Item sizes decide every capacity unit. The expectations were measured on
// DynamoDB Local by bisecting the 1 KB write unit (tests/unit/data/dynamodb-local).
#include <doctest/doctest.h>
#include <simdjson.h>

#include "metering/capacity.h"
#include "metering/item_size.h"
#include "protocol/attribute_json.h"
#include "test_data.h"

using namespace dynamod;

namespace {

AttributeValue value_from_json(std::string_view text) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string json(text);
  simdjson::ondemand::document doc = parser.iterate(json);
  simdjson::ondemand::value v = doc.get_value();
  return decode_attribute_value(v);
}

}  // namespace

TEST_CASE("metering: number sizes match DynamoDB's base-100 storage") {
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.load(test::data_path("dynamodb-local/item_sizes.json"));
  int checked = 0;
  for (simdjson::dom::element c : root["numbers"].get_array()) {
    std::string_view text = c["N"];
    std::int64_t size = c["size"];
    auto n = Number::parse(text);
    REQUIRE_MESSAGE(n.number.has_value(), text);
    CHECK_MESSAGE(metering::number_size(*n.number) == static_cast<std::uint64_t>(size), text);
    ++checked;
  }
  CHECK(checked > 600);
}

TEST_CASE("metering: collection and scalar sizes") {
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.load(test::data_path("dynamodb-local/item_sizes.json"));
  int checked = 0;
  for (simdjson::dom::element c : root["collections"].get_array()) {
    std::string json = simdjson::to_string(c["value"]);
    std::int64_t size = c["size"];
    AttributeValue v = value_from_json(json);
    CHECK_MESSAGE(metering::value_size(v) == static_cast<std::uint64_t>(size), json);
    ++checked;
  }
  CHECK(checked > 20);
  // Names count in UTF-8 bytes, like string values.
  Item item;
  item.set("\xC3\xA9", AttributeValue::string("\xF0\x9F\x98\x80x"));
  item.set("n", AttributeValue::null());
  CHECK(metering::item_size(item) == 2 + 5 + 1 + 1);
}

TEST_CASE("metering: capacity units") {
  using metering::ReadMode;
  CHECK(metering::read_units(0, ReadMode::Eventual) == 0.5);
  CHECK(metering::read_units(0, ReadMode::Strong) == 1);
  CHECK(metering::read_units(4096, ReadMode::Strong) == 1);
  CHECK(metering::read_units(4097, ReadMode::Strong) == 2);
  CHECK(metering::read_units(4097, ReadMode::Transactional) == 4);
  // A Query page of 40.8 KB rounds once, to 44 KB: 11 units (5.5 eventually consistent).
  CHECK(metering::read_units(40800, ReadMode::Strong) == 10);
  CHECK(metering::read_units(41779, ReadMode::Strong) == 11);
  CHECK(metering::write_units(0) == 1);
  CHECK(metering::write_units(1024) == 1);
  CHECK(metering::write_units(1025) == 2);
  CHECK(metering::write_units(1025, true) == 4);
  // BatchWriteItem of 500 B and 3.5 KB items: each rounds alone, 1 + 4 = 5 units.
  CHECK(metering::write_units(500) + metering::write_units(3584) == 5);
}
