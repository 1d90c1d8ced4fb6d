#pragma once
// An item's entries in its table's vector indexes (database "vectors").
//
// An entry's stored key is
//   vector index id ‖ [hash(value of the search schema's HASH)] ‖ the item's key after its table id
// so one HASH value of an index is contiguous (a search names exactly one).
// Its value is the vector at f32 precision (little-endian, `dimensions`
// floats) followed by the projected attributes in the item record format
// (always with the table's keys, the search schema's attributes and the vector
// attribute), whose key image is the item's.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "protocol/attribute_value.h"
#include "protocol/table_schema.h"
#include "storage/attribute_names.h"

namespace dynamod::vectors {

struct Entry {
  std::string stored_key;
  std::string value;
  // What the index keeps of the item, for VectorWriteRequestBytes and the
  // index's size: the projected attributes' item size, the vector counted as
  // its name plus 4 bytes per dimension (the service's billing, measured).
  std::uint64_t bytes = 0;
};

// The key prefix of an index's entries for one HASH value (null: an index without HASH).
std::string partition_prefix(const VectorIndexSchema& index, const AttributeValue* hash_value);

// True for attributes the index's entries hold.
bool projects(const TableSchema& table, const VectorIndexSchema& index, std::string_view attribute);

// The entry of `item` (stored under `item_key`, key image `key_image`), or
// nullopt when it is not in the index. A vector of the wrong shape (an item
// written before the index existed) is not indexed either.
std::optional<Entry> entry_for(const TableSchema& table, const VectorIndexSchema& index, const Item& item,
                               std::string_view item_key, std::string_view key_image, AttributeNames& names);

// The size the service bills a write of `item` (item size `size`) at: an attribute a vector
// index reads, holding a vector of the index's dimensions, counts as its name plus 4 bytes per
// dimension (tier2 vectorSearch/consumedCapacity.test.ts, measured in eu-west-2 and us-east-1 on
// 2026-10-09). Reads and the 400 KB limit size the item by its numbers.
std::uint64_t billed_write_size(const TableSchema& table, const Item& item, std::uint64_t size);

// The parts of a stored value.
struct EntryView {
  std::string_view vector_bytes;  // `dimensions` little-endian floats, maybe unaligned
  std::string_view record;
};
EntryView view(std::string_view value, std::int64_t dimensions);
// Copies the stored floats into `out` (of `dimensions` elements).
void read_vector(std::string_view vector_bytes, std::span<float> out);

}  // namespace dynamod::vectors
