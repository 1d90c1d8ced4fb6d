// Keys must sort as DynamoDB sorts values (bytes for S and B, numerically for
// N) and stay exact at DynamoDB's full key sizes despite LMDB's 511-byte limit.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

#include "storage/key_codec.h"

using dynamod::AttributeValue;
using dynamod::Number;
namespace keys = dynamod::keys;

namespace {

std::string sortable(const AttributeValue& v) {
  std::string out;
  keys::append_sortable(out, v);
  return out;
}

std::string stored(std::uint32_t table, const AttributeValue& pk, const AttributeValue* sk) {
  return keys::to_stored_key(keys::encode_primary_key(table, pk, sk));
}

}  // namespace

TEST_CASE("keys: strings and binaries sort by bytes, prefixes first") {
  std::vector<std::string> values = {"",         "a",    std::string("a\0", 2), std::string("a\0b", 3), "ab", "b",
                                     "\xC3\xA9", "\xFF", std::string(1, '\0')};
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::vector<std::string> encoded;
  for (const auto& v : values) encoded.push_back(sortable(AttributeValue::string(v)));
  CHECK(std::is_sorted(encoded.begin(), encoded.end()));
  CHECK(std::set<std::string>(encoded.begin(), encoded.end()).size() == encoded.size());
  // Binary values use the same order.
  CHECK(sortable(AttributeValue::binary("ab")) == sortable(AttributeValue::string("ab")));
}

TEST_CASE("keys: random strings keep their order") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> len(0, 12);
  std::uniform_int_distribution<int> byte(0, 3);  // few symbols: many shared prefixes and zero bytes
  for (int i = 0; i < 5000; ++i) {
    std::string a(static_cast<std::size_t>(len(rng)), '\0');
    std::string b(static_cast<std::size_t>(len(rng)), '\0');
    for (auto& c : a) c = static_cast<char>(byte(rng));
    for (auto& c : b) c = static_cast<char>(byte(rng));
    auto ea = sortable(AttributeValue::string(a));
    auto eb = sortable(AttributeValue::string(b));
    REQUIRE((a.compare(b) <=> 0) == (ea.compare(eb) <=> 0));
  }
}

TEST_CASE("keys: one partition is contiguous and ordered by sort key") {
  auto pk = AttributeValue::string("user#1");
  std::vector<std::string> in_order;
  for (const char* sk : {"1", "2", "10", "100", "1e3", "12345"}) {
    auto n = AttributeValue::number(*Number::parse(sk).number);
    in_order.push_back(stored(7, pk, &n));
  }
  CHECK(std::is_sorted(in_order.begin(), in_order.end()));
  for (const auto& k : in_order) CHECK(k.substr(0, 4 + 16) == in_order.front().substr(0, 4 + 16));
  // Another table's keys never interleave.
  CHECK(stored(8, pk, nullptr) > in_order.back());
  CHECK(keys::read_table_id(in_order.front()) == 7);
}

TEST_CASE("keys: equal partition values hash equally across types only when equal") {
  auto a = keys::hash_partition_key(AttributeValue::number(*Number::parse("1000").number));
  auto b = keys::hash_partition_key(AttributeValue::number(*Number::parse("1e3").number));
  auto c = keys::hash_partition_key(AttributeValue::string("1000"));
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("keys: keys at DynamoDB's size limits fit LMDB and stay distinct") {
  auto pk = AttributeValue::string(std::string(2048, 'p'));
  std::set<std::string> seen;
  for (char last : {'a', 'b', 'c'}) {
    std::string sk_text(1023, 'x');
    sk_text += last;
    auto sk = AttributeValue::string(sk_text);
    std::string key = stored(1, pk, &sk);
    CHECK(key.size() == keys::kMaxKeySize);
    CHECK(keys::is_truncated(key));
    seen.insert(key);
  }
  CHECK(seen.size() == 3);
  // Zero bytes double in the encoding; a 1,024-byte sort key of zeros still fits.
  auto zeros = AttributeValue::binary(std::string(1024, '\0'));
  CHECK(stored(1, pk, &zeros).size() == keys::kMaxKeySize);
  // Short keys are stored whole, in order.
  auto s1 = AttributeValue::string("a");
  auto s2 = AttributeValue::string("b");
  CHECK(!keys::is_truncated(stored(1, pk, &s1)));
  CHECK(stored(1, pk, &s1) < stored(1, pk, &s2));
  // The same long key always maps to the same stored key.
  std::string long_text(1024, 'z');
  auto l1 = AttributeValue::string(long_text);
  CHECK(stored(1, pk, &l1) == stored(1, pk, &l1));
}
