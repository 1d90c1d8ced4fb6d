#pragma once
// An item's entries in its table's secondary indexes.
//
// An index entry's stored key is
//   index id ‖ hash(index partition key) ‖ [sortable(index sort key) ‖ 01]
//   ‖ hash(table partition key) ‖ [sortable(table sort key)]
// A multi-attribute key hashes all its partition-key attributes together
// (key_codec.h) and has `sortable(attribute) ‖ 01` for each sort-key attribute
// in turn, in every table, so its entries sort by each attribute in order.
// so entries with equal index keys are all kept, in a stable order, and one
// index partition is contiguous. The 01 (index_key_format 2, every table
// created since 2026-11-30) keeps the sort key self-delimiting: without it
// (format 1) its final 00 followed by a hash starting with FF reads like an
// escaped zero byte, and a key with a zero byte can sort after a longer one. Its record holds the projected attributes
// (always with the table's and the index's keys) with the key image
// sortable(index partition key) ‖ everything after the hash: the same shape
// as a table item's, so PartitionScan reads both alike.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/attribute_value.h"
#include "protocol/table_schema.h"
#include "storage/attribute_names.h"

namespace dynamod::indexes {

// The index_key_format of new tables.
inline constexpr std::uint32_t kIndexKeyFormat = 2;

struct Entry {
  std::string stored_key;
  std::string record;
  std::uint64_t size = 0;  // metered size of the projected entry
};

// Where an item checked for its index keys comes from: an update checks an
// empty value before its type, and an UpdateExpression words the empty-value
// case its own way (DynamoDB Local).
enum class IndexKeySource : std::uint8_t { Item, UpdateExpression, AttributeUpdates };

// The service's ValidationException for an index key attribute of the wrong
// type, an empty one, or one over the key size limits.
void check_index_keys(const TableSchema& table, const Item& item, IndexKeySource source = IndexKeySource::Item);

// True if `item` has every key attribute of `index` (secondary indexes are sparse).
bool in_index(const IndexSchema& index, const Item& item);

// The values of the index's partition-key attributes in `item`, in key order
// (null where the item lacks one).
std::vector<const AttributeValue*> partition_values(const IndexSchema& index, const Item& item);

// The projection of `item` into `index`: its keys and the projected attributes.
Item project(const TableSchema& table, const IndexSchema& index, const Item& item);

// The entry of `item` in `index`, or nullopt if the item is not in it.
std::optional<Entry> entry_for(const TableSchema& table, const IndexSchema& index, const Item& item,
                               AttributeNames& names);

// The bytes after the index partition prefix for an item with these key
// attributes (table and index keys): where a Query resumes.
std::string component(const TableSchema& table, const IndexSchema& index, const Item& keys);

}  // namespace dynamod::indexes
