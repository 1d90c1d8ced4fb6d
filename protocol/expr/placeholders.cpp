#include "protocol/expr/placeholders.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/attribute_name_limit.h"
#include "protocol/expr/java_hash.h"
#include "protocol/expr/lexer.h"

namespace dynamod::expr {
namespace {

// The service limits placeholder keys to 255 bytes.
constexpr std::size_t kMaxKeyLength = 255;

}  // namespace

std::string java_hash_set_order(const std::vector<std::string_view>& keys) {
  // Bucket by bucket; within a bucket Java keeps insertion (request) order,
  // which the decoded map no longer has: shorter-then-lexicographic matches the
  // usual ":k4, :k18" order of generated keys. One sort on (bucket, length,
  // bytes), each key's bucket computed once: a message may list a million keys.
  std::vector<std::pair<std::size_t, std::string_view>> order;
  order.reserve(keys.size());
  for (std::string_view key : keys) order.emplace_back(java_hash_bucket(key, keys.size()), key);
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    return a.second.size() != b.second.size() ? a.second.size() < b.second.size() : a.second < b.second;
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
      if (name.size() > kMaxAttributeNameBytes) {
        // The service's text (measured in September 2026, ExtendDB issue 365), not
        // wrapped in "ExpressionAttributeNames contains invalid value: ... for key #n".
        throw ApiError::validation(std::string(kAttributeNameTooLarge));
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
