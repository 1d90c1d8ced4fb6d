#include "protocol/expr/placeholders.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/expr/lexer.h"

namespace dynamod::expr {
namespace {

// The service limits placeholder keys to 255 bytes.
constexpr std::size_t kMaxKeyLength = 255;
constexpr std::size_t kMaxNameLength = 65535;

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

}  // namespace

std::string java_hash_set_order(const std::vector<std::string_view>& keys) {
  // java.util.HashMap: 16 buckets, doubled while size > 0.75 * capacity;
  // iteration goes bucket by bucket, (h ^ h >>> 16) & (capacity - 1).
  std::size_t capacity = 16;
  while (keys.size() * 4 > capacity * 3) capacity *= 2;
  std::vector<std::pair<std::size_t, std::string_view>> order;
  order.reserve(keys.size());
  for (auto k : keys) {
    std::uint32_t h = java_string_hash(k);
    order.emplace_back((h ^ (h >> 16)) & (capacity - 1), k);
  }
  // Within a bucket Java keeps insertion (request) order, which the decoded
  // map no longer has; shorter-then-lexicographic matches the usual
  // ":k4, :k18" order of generated keys.
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    if (a.second.size() != b.second.size()) return a.second.size() < b.second.size();
    return a.second < b.second;
  });
  std::string out = "{";
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i) out += ", ";
    out += order[i].second;
  }
  out += "}";
  return out;
}

void validate_placeholder_maps(const NameMap* names, const ValueMap* values) {
  if (names) {
    if (names->empty()) throw ApiError::validation("ExpressionAttributeNames must not be empty");
    for (const auto& [key, name] : *names) {
      if (key.size() > kMaxKeyLength) {
        throw ApiError::validation(
            "ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too "
            "long; size of key: " +
            std::to_string(key.size()));
      }
      if (!is_single_token(key, TokenKind::NameRef)) {
        throw ApiError::validation("ExpressionAttributeNames contains invalid key: Syntax error; key: \"" + key + "\"");
      }
      if (name.empty()) {
        throw ApiError::validation("ExpressionAttributeNames contains invalid value: Empty attribute name for key " +
                                   key);
      }
      if (name.size() > kMaxNameLength) {
        throw ApiError::validation(
            "ExpressionAttributeNames contains invalid value: Attribute name is too large, must be less than 65536 "
            "bytes for key " +
            key);
      }
    }
  }
  if (values) {
    if (values->empty()) throw ApiError::validation("ExpressionAttributeValues must not be empty");
    for (const auto& [key, value] : *values) {
      if (key.size() > kMaxKeyLength) {
        throw ApiError::validation(
            "ExpressionAttributeValues contains invalid key: The expression attribute map contains a key that is too "
            "long;");
      }
      if (!is_single_token(key, TokenKind::ValueRef)) {
        throw ApiError::validation("ExpressionAttributeValues contains invalid key: Syntax error; key: \"" + key +
                                   "\"");
      }
    }
  }
}

const std::string* Placeholders::find_name(std::string_view key) {
  if (!names_) return nullptr;
  auto it = names_->find(std::string(key));
  if (it == names_->end()) return nullptr;
  if (used_names_.find(key) == used_names_.end()) used_names_.emplace(key);
  return &it->second;
}

const AttributeValue* Placeholders::find_value(std::string_view key) {
  if (!values_) return nullptr;
  auto it = values_->find(std::string(key));
  if (it == values_->end()) return nullptr;
  if (used_values_.find(key) == used_values_.end()) used_values_.emplace(key);
  return &it->second;
}

const std::string* Placeholders::peek_name(std::string_view key) const {
  if (!names_) return nullptr;
  auto it = names_->find(std::string(key));
  return it == names_->end() ? nullptr : &it->second;
}

const AttributeValue* Placeholders::peek_value(std::string_view key) const {
  if (!values_) return nullptr;
  auto it = values_->find(std::string(key));
  return it == values_->end() ? nullptr : &it->second;
}

void Placeholders::check_all_used() const {
  auto unused = [](const auto* map, const std::set<std::string, std::less<>>& used) {
    std::vector<std::string_view> keys;
    if (!map) return keys;
    for (const auto& entry : *map) {
      if (used.find(entry.first) == used.end()) keys.push_back(entry.first);
    }
    return keys;
  };
  auto names = unused(names_, used_names_);
  if (!names.empty()) {
    throw ApiError::validation("Value provided in ExpressionAttributeNames unused in expressions: keys: " +
                               java_hash_set_order(names));
  }
  auto values = unused(values_, used_values_);
  if (!values.empty()) {
    throw ApiError::validation("Value provided in ExpressionAttributeValues unused in expressions: keys: " +
                               java_hash_set_order(values));
  }
}

}  // namespace dynamod::expr
