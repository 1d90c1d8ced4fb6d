#include "protocol/expr/java_hash.h"

#include <algorithm>

namespace dynamod::expr {

// Java's String.hashCode over UTF-16 code units.
std::uint32_t java_string_hash(std::string_view s) {
  std::uint32_t h = 0;
  auto add = [&h](std::uint32_t unit) { h = 31 * h + unit; };
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    std::uint32_t cp = c;
    std::size_t len = 1;
    if (c >= 0xF0 && c < 0xF8) {
      len = 4;
      cp = c & 0x07;
    } else if (c >= 0xE0 && c < 0xF0) {
      len = 3;
      cp = c & 0x0F;
    } else if (c >= 0xC0 && c < 0xE0) {
      len = 2;
      cp = c & 0x1F;
    }
    if (i + len > s.size()) {
      len = 1;
      cp = c;
    }
    for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      add(0xD800 + (cp >> 10));
      add(0xDC00 + (cp & 0x3FF));
    } else {
      add(cp);
    }
    i += len;
  }
  return h;
}

std::size_t java_hash_capacity(std::size_t count) {
  std::size_t capacity = 16;
  while (count * 4 > capacity * 3) capacity *= 2;
  return capacity;
}

std::size_t java_hash_bucket(std::string_view key, std::size_t count) {
  const std::uint32_t h = java_string_hash(key);
  return (h ^ (h >> 16)) & (java_hash_capacity(count) - 1);
}

void java_hash_set_iteration_order(std::vector<std::string_view>& keys) {
  std::vector<std::pair<std::size_t, std::string_view>> buckets;
  buckets.reserve(keys.size());
  for (std::string_view k : keys) buckets.emplace_back(java_hash_bucket(k, keys.size()), k);
  std::stable_sort(buckets.begin(), buckets.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = buckets[i].second;
}

}  // namespace dynamod::expr
