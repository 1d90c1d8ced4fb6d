#pragma once
// A table's primary key taken from an item (PutItem) or a Key (GetItem,
// DeleteItem), checked against the key schema with the service's messages.

#include <cstdint>
#include <optional>
#include <string_view>

#include "protocol/api_error.h"
#include "protocol/attribute_value.h"
#include "protocol/table_schema.h"

namespace dynamod {

// The stored item's size, keys included, on every write path (the service, 2026).
inline constexpr std::uint64_t kMaxItemSize = 400 * 1024;
// The put paths' words for an item over it, and the update paths'.
inline constexpr const char* kItemTooLarge = "Item size has exceeded the maximum allowed size";
inline constexpr const char* kUpdateTooLarge = "Item size to update has exceeded the maximum allowed size";
inline constexpr std::uint64_t kMaxPartitionKeySize = 2048;
inline constexpr std::uint64_t kMaxSortKeySize = 1024;

struct PrimaryKey {
  AttributeValue partition;
  std::optional<AttributeValue> sort;
  const AttributeValue* sort_ptr() const { return sort ? &*sort : nullptr; }
};

// Extracts the key of an item to write. Errors: missing key, type mismatch,
// empty value, key too large.
PrimaryKey key_from_item(const KeyDef& key, const Item& item);
// Checks a Key parameter: exactly the key attributes, of the right types.
PrimaryKey key_from_key(const KeyDef& key, const Item& key_attributes);
// A Key holding exactly the key attributes of an item.
Item key_attributes(const KeyDef& key, const Item& item);

void check_item_size(std::uint64_t size);

// An S or B key value may not be empty: the error names the key, and the
// index when `index` is given (an index key, or a key an index Query reads).
void check_key_value_not_empty(std::string_view name, const AttributeValue& value, std::string_view index = {});

// True for the error about an empty S or B key value (transactions report it
// for the whole call, other key errors per action).
bool is_empty_key_error(const ApiError& error);

}  // namespace dynamod
