// The stored item form must give back exactly the item that was written, and
// render the same JSON as the protocol encoder.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "protocol/attribute_json.h"
#include "storage/item_codec.h"
#include "storage/key_codec.h"

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
  AttributeNames names;
  std::string record = items::encode(item, 1234, "key-image", {}, names);
  CHECK(items::metered_size(record) == 1234);
  CHECK(items::key_image(record) == "key-image");
  Item back = items::decode(record, names);
  CHECK(back == item);
  JsonWriter direct;
  items::write_json(direct, record, names);
  CHECK(direct.str() == to_json(item));
  // Sets come back normalised: sorted, numbers canonical.
  CHECK(to_json(Item(back)).find(R"("ns":{"NS":["-3","1","10"]})") != std::string::npos);
}

TEST_CASE("item codec: a corrupt record is an error, not a crash") {
  AttributeNames names;
  Item item = item_from_json(R"({"a": {"S": "xyz"}, "b": {"L": [{"N": "1"}]}})");
  std::string record = items::encode(item, 10, "k", {}, names);
  for (std::size_t cut = 0; cut < record.size(); ++cut) {
    CHECK_THROWS(items::decode(std::string_view(record).substr(0, cut), names));
  }
  std::string bad_tag = record;
  bad_tag[bad_tag.size() - 3] = 99;
  CHECK_THROWS(items::decode(bad_tag, names));
  // A name number this dictionary never gave out.
  AttributeNames other;
  CHECK_THROWS_WITH(items::decode(record, other), doctest::Contains("unknown attribute name number 0"));
}

namespace {

std::size_t occurrences(std::string_view text, std::string_view part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string_view::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

std::string image_of(const Item& item, std::string_view partition, std::string_view sort = {}) {
  return keys::key_image(*item.find(partition), sort.empty() ? nullptr : item.find(sort));
}

}  // namespace

TEST_CASE("item codec: names come from the dictionary and S/B key values from the key image") {
  AttributeNames names;
  Item item = item_from_json(R"({"pk": {"S": "user#0001"}, "sk": {"B": "AAEC/w=="}, "name": {"S": "Ann"},
                                 "m": {"M": {"pk": {"S": "nested names stay spelled out"}}}})");
  std::string image = image_of(item, "pk", "sk");
  std::string record = items::encode(item, 77, image, {"pk", "sk"}, names);
  CHECK(names.size() == 4);                      // m, name, pk, sk: top-level names only
  CHECK(occurrences(record, "user#0001") == 1);  // held once, in the image
  CHECK(record.find("Ann") != std::string::npos);
  CHECK(items::decode(record, names) == item);
  JsonWriter direct;
  items::write_json(direct, record, names);
  CHECK(direct.str() == to_json(item));
  // The same item without key references spells its key values out again.
  CHECK(items::encode(item, 77, image, {}, names).size() > record.size() + 9);
}

TEST_CASE("item codec: key values with zero bytes, N keys and keys that are not in the image") {
  AttributeNames names;
  Item binary = item_from_json(R"({"k": {"B": "AAAA"}, "s": {"S": "a\u0000b"}})");
  std::string image = image_of(binary, "k", "s");
  std::string record = items::encode(binary, 1, image, {"k", "s"}, names);
  CHECK(items::decode(record, names) == binary);
  JsonWriter direct;
  items::write_json(direct, record, names);
  CHECK(direct.str() == to_json(binary));

  // N keys are stored as values (rendering them from the image would cost reads).
  Item numeric = item_from_json(R"({"k": {"N": "-12.5"}, "s": {"S": "x"}})");
  std::string n_record = items::encode(numeric, 1, image_of(numeric, "k", "s"), {"k", "s"}, names);
  CHECK(occurrences(n_record, "-12.5") == 1);
  CHECK(occurrences(n_record, "x") == 1);
  CHECK(items::decode(n_record, names) == numeric);

  // An image that does not hold the value: the value is kept.
  std::string other = items::encode(numeric, 1, "unrelated", {"s", ""}, names);
  CHECK(occurrences(other, "x") == 1);
  CHECK(items::decode(other, names) == numeric);
}

TEST_CASE("item codec: records of format 1 (before the name dictionary) are still read") {
  // format 1 | u32 LE size 300 | image "img" | 2 attributes:
  // "a" = S "xy", "b" = M {"c": BOOL true}
  static constexpr char kBytes[] =
      "\x01\x2c\x01\x00\x00\x03img\x02\x01"
      "a\x00\x02xy\x01"
      "b\x09\x01\x01"
      "c\x03\x01";
  const std::string record(kBytes, sizeof kBytes - 1);
  REQUIRE(static_cast<int>(AttributeType::S) == 0);
  REQUIRE(static_cast<int>(AttributeType::BOOL) == 3);
  REQUIRE(static_cast<int>(AttributeType::M) == 9);
  AttributeNames names;
  CHECK(items::metered_size(record) == 300);
  CHECK(items::key_image(record) == "img");
  CHECK(items::decode(record, names) == item_from_json(R"({"a": {"S": "xy"}, "b": {"M": {"c": {"BOOL": true}}}})"));
  JsonWriter direct;
  items::write_json(direct, record, names);
  CHECK(direct.str() == R"({"a":{"S":"xy"},"b":{"M":{"c":{"BOOL":true}}}})");
  CHECK(names.size() == 0);
}

TEST_CASE("attribute names: numbered once, in order; long names and a full dictionary spell out") {
  AttributeNames names;
  CHECK(names.id_of("alpha") == std::optional<std::uint32_t>(0));
  CHECK(names.id_of("beta") == std::optional<std::uint32_t>(1));
  CHECK(names.id_of("alpha") == std::optional<std::uint32_t>(0));
  CHECK(names.name_of(1) == "beta");
  CHECK_THROWS(names.name_of(2));
  CHECK(!names.id_of(std::string(AttributeNames::kMaxNameLength + 1, 'n')));
  CHECK(names.id_of(std::string(AttributeNames::kMaxNameLength, 'n')).has_value());
  for (std::uint32_t i = names.size(); i < AttributeNames::kCapacity; ++i) names.id_of("name" + std::to_string(i));
  CHECK(names.size() == AttributeNames::kCapacity);
  CHECK(!names.id_of("one too many"));
  CHECK(names.id_of("beta") == std::optional<std::uint32_t>(1));
  // A record that uses a name past the capacity still round-trips.
  Item item = item_from_json(R"({"one too many": {"S": "v"}, "alpha": {"N": "1"}})");
  CHECK(items::decode(items::encode(item, 1, "", {}, names), names) == item);
}

TEST_CASE("attribute names: threads numbering the same names agree") {
  AttributeNames names;
  std::vector<std::vector<std::uint32_t>> seen(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&names, &ids = seen[t]] {
      for (int i = 0; i < 500; ++i) ids.push_back(*names.id_of("attr" + std::to_string(i % 250)));
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(names.size() == 250);
  for (const auto& ids : seen) CHECK(ids == seen.front());
  for (int i = 0; i < 250; ++i)
    CHECK(names.name_of(seen.front()[static_cast<std::size_t>(i)]) == "attr" + std::to_string(i));
}

namespace {

// Random items as DynamoDB JSON: every type, nesting, names that repeat across
// items, names with zero bytes and names too long for the dictionary.
class RandomItems {
 public:
  explicit RandomItems(unsigned seed) : state_(seed) {}

  std::string item() {
    std::string out = "{";
    int n = 1 + below(8);
    std::vector<std::string> used;
    for (int i = 0; i < n; ++i) {
      std::string name = pick_name();
      if (std::find(used.begin(), used.end(), name) != used.end()) continue;
      used.push_back(name);
      if (out.size() > 1) out += ",";
      out += "\"" + name + "\":" + value(2);
    }
    return out + "}";
  }

 private:
  unsigned below(unsigned n) {
    state_ = state_ * 1103515245u + 12345u;
    return (state_ >> 8) % n;
  }
  std::string pick_name() {
    static const char* const kNames[] = {"pk", "sk", "name", "a", "b\\u0000c", "payload", "n"};
    if (below(10) == 0) return std::string(AttributeNames::kMaxNameLength + 1 + below(3), 'L');
    return kNames[below(7)];
  }
  std::string text() {
    static const char* const kTexts[] = {"",        "x",           "user#0001",       "a\\u0000b",
                                         "\\u0000", "h\\u00e9llo", "zz\\u0000\\u0000"};
    return std::string("\"") + kTexts[below(7)] + "\"";
  }
  std::string bytes() {
    static const char* const kBytes[] = {"", "AA==", "AAEC/w==", "AAAA", "/w=="};
    return std::string("\"") + kBytes[below(5)] + "\"";
  }
  std::string number() {
    static const char* const kNumbers[] = {"0", "1", "-12.5", "1e3", "99999999999999999999", "0.001"};
    return std::string("\"") + kNumbers[below(6)] + "\"";
  }
  std::string value(int depth) {
    switch (below(depth > 0 ? 10 : 5)) {
      case 0: return "{\"S\":" + text() + "}";
      case 1: return "{\"N\":" + number() + "}";
      case 2: return "{\"B\":" + bytes() + "}";
      case 3: return below(2) ? "{\"BOOL\":true}" : "{\"NULL\":true}";
      case 4: return "{\"S\":" + text() + "}";
      case 5: return "{\"SS\":[\"a\",\"b\\u0000\"]}";
      case 6: return "{\"NS\":[\"1\",\"-2\"]}";
      case 7: return "{\"BS\":[\"AA==\"]}";
      case 8: return "{\"L\":[" + value(depth - 1) + "," + value(depth - 1) + "]}";
      default: return "{\"M\":{\"pk\":" + value(depth - 1) + ",\"m\":" + value(depth - 1) + "}}";
    }
  }
  unsigned state_;
};

bool is_scalar_key(const AttributeValue& v) {
  return v.type() == AttributeType::S || v.type() == AttributeType::N || v.type() == AttributeType::B;
}

}  // namespace

TEST_CASE("item codec: random items round-trip with any key attributes, through one dictionary") {
  AttributeNames names;
  RandomItems random(20261130);
  int with_key = 0;
  int applicable = 0;
  int held_once = 0;
  for (int i = 0; i < 2000; ++i) {
    Item item = item_from_json(random.item());
    std::vector<std::string> scalars;
    for (const auto& [name, value] : item) {
      if (is_scalar_key(value)) scalars.push_back(name);
    }
    items::KeyNames key;
    std::string image;
    if (!scalars.empty()) {
      ++with_key;
      key.partition = scalars[static_cast<std::size_t>(i) % scalars.size()];
      if (scalars.size() > 1 && i % 2 == 0) key.sort = scalars[(static_cast<std::size_t>(i) + 1) % scalars.size()];
      image = keys::key_image(*item.find(key.partition), key.sort.empty() ? nullptr : item.find(key.sort));
    }
    std::string record = items::encode(item, static_cast<std::uint32_t>(i), image, key, names);
    INFO("item ", i, ": ", to_json(item));
    CHECK(items::metered_size(record) == static_cast<std::uint32_t>(i));
    CHECK(items::key_image(record) == image);
    CHECK(items::decode(record, names) == item);
    JsonWriter direct;
    items::write_json(direct, record, names);
    CHECK(direct.str() == to_json(item));
    // A non-empty S or B partition key value is held only in the image, unless the image would
    // read ambiguously there (its final 00 followed by a B sort key starting with FF).
    const AttributeValue* partition = key.partition.empty() ? nullptr : item.find(key.partition);
    if (partition && partition->type() != AttributeType::N &&
        !(partition->type() == AttributeType::S ? partition->as_string() : partition->as_binary()).empty()) {
      ++applicable;
      if (record.size() < items::encode(item, static_cast<std::uint32_t>(i), image, {}, names).size()) ++held_once;
    }
  }
  CHECK(with_key > 1000);
  CHECK(applicable > 500);
  CHECK(held_once * 10 >= applicable * 9);
  CHECK(names.size() == 7);  // the short top-level names; long names and map members are not numbered
}

TEST_CASE("item codec: key names are views of the schema's own strings") {
  // A view of a temporary would dangle by the time encode() compares names with it.
  KeyDef with_sort;
  with_sort.partition = KeyElement{"a_partition_key_name_longer_than_sso", ScalarType::S};
  with_sort.sort = KeyElement{"a_sort_key_name_longer_than_the_sso_buffer", ScalarType::N};
  items::KeyNames names = items::key_names(with_sort);
  CHECK(names.partition.data() == with_sort.partition.name.data());
  CHECK(names.sort.data() == with_sort.sort->name.data());
  CHECK(names.sort == "a_sort_key_name_longer_than_the_sso_buffer");

  KeyDef without_sort;
  without_sort.partition = KeyElement{"pk", ScalarType::S};
  CHECK(items::key_names(without_sort).sort.empty());
}

TEST_CASE("item codec: S sort key values are held once, in the key image, through the schema's key names") {
  KeyDef key;
  key.partition = KeyElement{"pk", ScalarType::S};
  key.sort = KeyElement{"sk", ScalarType::S};
  Item item = item_from_json(R"({"pk": {"S": "a partition key value"}, "sk": {"S": "a sort key value of some length"},
                                 "other": {"S": "x"}})");
  std::string image = keys::key_image(*item.find("pk"), item.find("sk"));
  AttributeNames names;
  std::string record = items::encode(item, 1, image, items::key_names(key), names);
  std::string partition_only = items::encode(item, 1, image, {"pk", ""}, names);
  CHECK(items::decode(record, names) == item);
  // Referring to the image costs a flag and an offset instead of the value's bytes.
  CHECK(record.size() + std::string_view("a sort key value of some length").size() - 2 <= partition_only.size());
}
