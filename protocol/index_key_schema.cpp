#include "protocol/index_key_schema.h"

#include <algorithm>
#include <set>

#include "protocol/api_error.h"

namespace dynamod {
namespace {

constexpr std::size_t kMaxAttributesPerRole = 4;

bool is_hash(const RawKeyElement& k) { return *k.key_type == "HASH"; }

}  // namespace

bool is_multi_attribute_key_schema(const std::vector<RawKeyElement>& key_schema) {
  if (key_schema.size() > 2) return true;
  return key_schema.size() == 2 && std::all_of(key_schema.begin(), key_schema.end(), is_hash);
}

KeyDef check_global_index_key(const std::vector<RawKeyElement>& key_schema,
                              const std::vector<AttributeDefinition>& definitions,
                              const std::vector<RawAttributeDefinition>& raw_definitions) {
  if (!is_multi_attribute_key_schema(key_schema)) return check_key_structure(key_schema, definitions, raw_definitions);
  // DynamoDB Local's order: the total, the roles' order, names used twice,
  // each role's count, then the definitions.
  if (key_schema.size() > 2 * kMaxAttributesPerRole) {
    throw ApiError::validation(
        "Key Schema too big.  Key Schema must at most consist of the hash and range key of a table");
  }
  if (std::none_of(key_schema.begin(), key_schema.end(), is_hash)) {
    throw ApiError::validation("No Hash Key specified in schema.  All Dynamo DB tables must have exactly one hash key");
  }
  // HASH elements first: the first RANGE ends them.
  auto first_range = std::find_if_not(key_schema.begin(), key_schema.end(), is_hash);
  if (std::any_of(first_range, key_schema.end(), is_hash)) {
    throw ApiError::validation(
        "Invalid key order. Hash Key must be specified first in key schema, Range Key must be specifed second");
  }
  std::set<std::string_view> names;
  for (const auto& k : key_schema) {
    if (!names.insert(*k.attribute_name).second) throw ApiError::validation("Two keys can not have the same name");
  }
  const auto hashes = static_cast<std::size_t>(first_range - key_schema.begin());
  if (hashes > kMaxAttributesPerRole) {
    throw ApiError::validation("Too many partition keys. GSI can have at most 4 partition keys");
  }
  if (key_schema.size() - hashes > kMaxAttributesPerRole) {
    throw ApiError::validation("Too many sort keys. GSI can have at most 4 sort keys");
  }
  auto element = [&](const RawKeyElement& k) {
    auto d = std::find_if(definitions.begin(), definitions.end(),
                          [&](const AttributeDefinition& a) { return a.name == *k.attribute_name; });
    if (d == definitions.end()) {
      throw ApiError::validation("Attribute " + *k.attribute_name + " is not defined in AttributeDefinitions");
    }
    return KeyElement{d->name, d->type};
  };
  KeyDef key;
  for (std::size_t i = 0; i < key_schema.size(); ++i) {
    KeyElement k = element(key_schema[i]);
    if (i == 0) {
      key.partition = std::move(k);
    } else if (i < hashes) {
      key.more_partition.push_back(std::move(k));
    } else if (i == hashes) {
      key.sort = std::move(k);
    } else {
      key.more_sort.push_back(std::move(k));
    }
  }
  return key;
}

}  // namespace dynamod
