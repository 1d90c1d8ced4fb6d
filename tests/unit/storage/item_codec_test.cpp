// The stored item form must give back exactly the item that was written, and
// render the same JSON as the protocol encoder.
#include <doctest/doctest.h>
#include <simdjson.h>

#include "protocol/attribute_json.h"
#include "storage/item_codec.h"

using namespace dynamod;

namespace {

Item item_from_json(const std::string& text) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string json(text);
  simdjson::ondemand::document doc = parser.iterate(json);
  simdjson::ondemand::value v = doc.get_value();
  return decode_item(v);
}

std::string to_json(const Item& item) {
  JsonWriter out;
  encode_item(out, item);
  return out.take();
}

}  // namespace

TEST_CASE("item codec: every type round-trips") {
  Item item = item_from_json(R"({
    "s": {"S": "h\u00e9llo \"q\" \\ \n"}, "empty": {"S": ""}, "n": {"N": "-12.50e3"}, "zero": {"N": "0"},
    "b": {"B": "AAEC/w=="}, "eb": {"B": ""}, "t": {"BOOL": true}, "f": {"BOOL": false}, "nul": {"NULL": true},
    "ss": {"SS": ["b", "a", "c"]}, "ns": {"NS": ["10", "1e0", "-3"]}, "bs": {"BS": ["AQ==", "AA=="]},
    "l": {"L": [{"S": "x"}, {"L": []}, {"M": {}}, {"N": "1"}]},
    "m": {"M": {"z": {"M": {"deep": {"L": [{"NULL": true}]}}}, "a": {"S": "1"}}}
  })");
  std::string record = items::encode(item, 1234, "key-image");
  CHECK(items::metered_size(record) == 1234);
  CHECK(items::key_image(record) == "key-image");
  Item back = items::decode(record);
  CHECK(back == item);
  JsonWriter direct;
  items::write_json(direct, record);
  CHECK(direct.str() == to_json(item));
  // Sets come back normalised: sorted, numbers canonical.
  CHECK(to_json(Item(back)).find(R"("ns":{"NS":["-3","1","10"]})") != std::string::npos);
}

TEST_CASE("item codec: a corrupt record is an error, not a crash") {
  Item item = item_from_json(R"({"a": {"S": "xyz"}, "b": {"L": [{"N": "1"}]}})");
  std::string record = items::encode(item, 10, "k");
  for (std::size_t cut = 0; cut < record.size(); ++cut) {
    CHECK_THROWS(items::decode(std::string_view(record).substr(0, cut)));
  }
  std::string bad_tag = record;
  bad_tag[bad_tag.size() - 3] = 99;
  CHECK_THROWS(items::decode(bad_tag));
}
