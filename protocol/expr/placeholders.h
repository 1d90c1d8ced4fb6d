#pragma once
// ExpressionAttributeNames / ExpressionAttributeValues of one request, and
// which of them the request's expressions used (unused ones are an error).

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "protocol/attribute_value.h"

namespace dynamod::expr {

using NameMap = std::map<std::string, std::string>;
using ValueMap = std::map<std::string, AttributeValue>;

// The checks the service makes on the maps themselves, before any expression
// is parsed: not empty, keys that are one #name / :value token, key length,
// names non-empty and below 64 KiB. Names are checked before values.
void validate_placeholder_maps(const NameMap* names, const ValueMap* values);

class Placeholders {
 public:
  Placeholders(const NameMap* names, const ValueMap* values) : names_(names), values_(values) {}

  // Null when undefined. Marks the key used.
  const std::string* find_name(std::string_view key);
  const AttributeValue* find_value(std::string_view key);
  // Lookups that do not mark the key used.
  const std::string* peek_name(std::string_view key) const;
  const AttributeValue* peek_value(std::string_view key) const;

  // After all expressions of a request are parsed: unused names, then unused
  // values, are the service's ValidationException.
  void check_all_used() const;

 private:
  const NameMap* names_;
  const ValueMap* values_;
  std::set<std::string, std::less<>> used_names_;
  std::set<std::string, std::less<>> used_values_;
};

// Renders keys as the service's Java HashSet iterates them: "{:b, :a}".
std::string java_hash_set_order(const std::vector<std::string_view>& keys);

}  // namespace dynamod::expr
