#include <doctest/doctest.h>

#include <string_view>
#include <vector>

#include "protocol/expr/java_hash.h"

using namespace dynamod::expr;

TEST_CASE("java_string_hash is Java's String.hashCode over UTF-16 units") {
  CHECK(java_string_hash("") == 0u);
  CHECK(java_string_hash("bb") == 3136u);
  CHECK(java_string_hash("b0") == 3086u);
  // U+1F600 is two UTF-16 units, 0xD83D 0xDE00: 31 * 55357 + 56832.
  CHECK(java_string_hash("\xF0\x9F\x98\x80") == 1772899u);
}

TEST_CASE("java_hash_set_iteration_order: bucket by bucket, insertion order within one") {
  std::vector<std::string_view> keys{"m", "s"};
  java_hash_set_iteration_order(keys);
  CHECK(keys == std::vector<std::string_view>{"s", "m"});  // buckets 3 and 13
  keys = {"zz", "a", "bb"};
  java_hash_set_iteration_order(keys);
  CHECK(keys == std::vector<std::string_view>{"zz", "bb", "a"});  // zz and bb share bucket 0
  // Thirteen keys make the set grow to 32 buckets: a1 moves from bucket 0 to 16, after b0 (14).
  keys = {"a1", "b0", "c", "d", "e", "f", "h", "i", "j", "k", "l", "pk", "g"};
  java_hash_set_iteration_order(keys);
  CHECK(keys == std::vector<std::string_view>{"c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "b0", "a1", "pk"});
}
