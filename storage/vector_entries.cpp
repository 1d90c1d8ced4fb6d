#include "storage/vector_entries.h"

#include <algorithm>
#include <cstring>

#include "metering/item_size.h"
#include "protocol/vector_index.h"
#include "storage/item_codec.h"
#include "storage/key_codec.h"

namespace dynamod::vectors {

std::string partition_prefix(const VectorIndexSchema& index, const AttributeValue* hash_value) {
  if (hash_value == nullptr) return keys::key_space_prefix(index.id);
  return keys::partition_prefix(index.id, *hash_value);
}

bool projects(const TableSchema& table, const VectorIndexSchema& index, std::string_view attribute) {
  if (index.projection.type == ProjectionType::All) return true;
  if (table.key.includes(attribute) || attribute == index.attribute) return true;
  for (const auto& e : index.search_schema) {
    if (e.name == attribute) return true;
  }
  const auto& included = index.projection.non_key_attributes;
  return std::find(included.begin(), included.end(), attribute) != included.end();
}

std::optional<Entry> entry_for(const TableSchema& table, const VectorIndexSchema& index, const Item& item,
                               std::string_view item_key, std::string_view key_image, AttributeNames& names) {
  std::optional<std::vector<float>> vector;
  try {
    vector = item_vector(index, item);
  } catch (const ApiError&) {
    return std::nullopt;
  }
  if (!vector) return std::nullopt;
  const SearchSchemaElement* hash = index.hash();
  Entry entry;
  entry.stored_key = partition_prefix(index, hash ? item.find(hash->name) : nullptr);
  entry.stored_key.append(item_key.substr(4));  // after the table id
  entry.stored_key = keys::to_stored_key(std::move(entry.stored_key));
  Item projected;
  for (const auto& [name, value] : item) {
    if (projects(table, index, name)) projected.append_sorted(name, value);
  }
  std::uint64_t size = metering::item_size(projected);
  entry.value.resize(vector->size() * sizeof(float));
  // Little-endian on every platform dynamod builds for (x86-64, arm64).
  std::memcpy(entry.value.data(), vector->data(), entry.value.size());
  entry.value +=
      items::encode(projected, static_cast<std::uint32_t>(size), key_image, items::key_names(table.key), names);
  // Billed as the service bills it (tier2 vectorSearch/consumedCapacity.test.ts, the 2026-08-18
  // capture): the projected entry's item size with the vector as its name plus 4 bytes a dimension.
  entry.bytes = size - metering::value_size(*item.find(index.attribute)) + vector->size() * sizeof(float);
  return entry;
}

std::uint64_t billed_write_size(const TableSchema& table, const Item& item, std::uint64_t size) {
  std::vector<std::string_view> counted;  // indexes may share a vector attribute
  for (const auto& index : table.vector_indexes) {
    if (index.status == IndexStatus::Deleting) continue;
    if (std::find(counted.begin(), counted.end(), index.attribute) != counted.end()) continue;
    counted.push_back(index.attribute);
    const AttributeValue* vector = item.find(index.attribute);
    // An item written before the index may hold something else there, billed as it is.
    if (vector == nullptr || vector->type() != AttributeType::L) continue;
    const auto& list = vector->as_list().values;
    bool numbers =
        std::all_of(list.begin(), list.end(), [](const AttributeValue& v) { return v.type() == AttributeType::N; });
    if (!numbers || static_cast<std::int64_t>(list.size()) != index.dimensions) continue;
    size = size - metering::value_size(*vector) + list.size() * sizeof(float);
  }
  return size;
}

EntryView view(std::string_view value, std::int64_t dimensions) {
  std::size_t n = static_cast<std::size_t>(dimensions) * sizeof(float);
  return {value.substr(0, n), value.substr(std::min(n, value.size()))};
}

void read_vector(std::string_view vector_bytes, std::span<float> out) {
  std::memcpy(out.data(), vector_bytes.data(), std::min(vector_bytes.size(), out.size_bytes()));
}

}  // namespace dynamod::vectors
