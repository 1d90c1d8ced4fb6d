#include "storage/index_entries.h"

#include <algorithm>
#include <vector>

#include "metering/item_size.h"
#include "protocol/api_error.h"
#include "protocol/key_validation.h"
#include "storage/item_codec.h"
#include "storage/key_codec.h"

namespace dynamod::indexes {
namespace {

constexpr std::string_view kNotValid = "One or more parameter values are not valid. ";

void check_key_type(const KeyElement& k, const IndexSchema& index, const AttributeValue& v) {
  if (v.type() == to_attribute_type(k.type)) return;
  throw ApiError::invalid_parameter("Type mismatch for Index Key " + k.name +
                                    " Expected: " + std::string(scalar_type_name(k.type)) +
                                    " Actual: " + std::string(type_name(v.type())) + " IndexName: " + index.name);
}

void check_key(const KeyElement& k, bool is_sort, const IndexSchema& index, const Item& item, IndexKeySource source) {
  const AttributeValue* v = item.find(k.name);
  if (v == nullptr) return;
  // An item's type is checked before its emptiness; an update's after
  // (DynamoDB Local: `SET g = :v` with an empty B for an S key is named empty).
  if (source == IndexKeySource::Item) check_key_type(k, index, *v);
  std::size_t size = v->type() == AttributeType::S   ? v->as_string().size()
                     : v->type() == AttributeType::B ? v->as_binary().size()
                                                     : 0;
  if (source == IndexKeySource::UpdateExpression && (v->type() == AttributeType::S || v->type() == AttributeType::B) &&
      size == 0) {
    // An update expression words it its own way, without naming the index.
    throw ApiError::validation(std::string(kNotValid) +
                               "The update expression attempted to update a secondary index key to a value that is "
                               "not supported. The AttributeValue for a key attribute cannot contain an empty " +
                               (v->type() == AttributeType::S ? "string" : "binary") + " value.");
  }
  check_key_value_not_empty(k.name, *v, index.name);
  if (source != IndexKeySource::Item) check_key_type(k, index, *v);
  const std::size_t limit = is_sort ? 1024 : 2048;
  if (size > limit) {
    throw ApiError::invalid_parameter("Size limit exceeded for Index Key " + k.name +
                                      " Actual Size: " + std::to_string(size) +
                                      " bytes Max Size: " + std::to_string(limit) + " bytes IndexName: " + index.name);
  }
}

}  // namespace

void check_index_keys(const TableSchema& table, const Item& item, IndexKeySource source) {
  // When several indexes key on one attribute, the service names the first by name.
  std::vector<const IndexSchema*> by_name;
  for (const auto* family : {&table.local_indexes, &table.global_indexes}) {
    for (const auto& index : *family) {
      if (index.status != IndexStatus::Deleting) by_name.push_back(&index);
    }
  }
  std::sort(by_name.begin(), by_name.end(), [](const auto* a, const auto* b) { return a->name < b->name; });
  for (const IndexSchema* index : by_name) {
    // Each attribute of a multi-attribute key has the limit of its role.
    for (const KeyElement* k : index->key.partition_elements()) check_key(*k, false, *index, item, source);
    for (const KeyElement* k : index->key.sort_elements()) check_key(*k, true, *index, item, source);
  }
}

bool in_index(const IndexSchema& index, const Item& item) {
  if (item.find(index.key.partition.name) == nullptr) return false;
  if (index.key.sort && item.find(index.key.sort->name) == nullptr) return false;
  for (const auto* family : {&index.key.more_partition, &index.key.more_sort}) {
    for (const KeyElement& k : *family) {
      if (item.find(k.name) == nullptr) return false;
    }
  }
  return true;
}

std::vector<const AttributeValue*> partition_values(const IndexSchema& index, const Item& item) {
  std::vector<const AttributeValue*> values;
  for (const KeyElement* k : index.key.partition_elements()) values.push_back(item.find(k->name));
  return values;
}

Item project(const TableSchema& table, const IndexSchema& index, const Item& item) {
  if (index.projection.type == ProjectionType::All) return item;
  Item out;
  for (const auto& [name, value] : item) {
    if (table.projects(index, name)) out.append_sorted(name, value);
  }
  return out;
}

std::string component(const TableSchema& table, const IndexSchema& index, const Item& keys) {
  std::string out;
  // A multi-attribute key is never in format 1: its 01s keep each attribute's encoding self-delimiting.
  const bool separated = table.index_key_format >= 2 || index.key.multi_attribute();
  for (const KeyElement* k : index.key.sort_elements()) {
    keys::append_sortable(out, *keys.find(k->name));
    if (separated) out.push_back('\x01');
  }
  keys::Hash128 h = keys::hash_partition_key(*keys.find(table.key.partition.name));
  out.append(h.data(), h.size());
  if (table.key.sort) keys::append_sortable(out, *keys.find(table.key.sort->name));
  return out;
}

std::optional<Entry> entry_for(const TableSchema& table, const IndexSchema& index, const Item& item,
                               AttributeNames& names) {
  if (!in_index(index, item)) return std::nullopt;
  const std::vector<const AttributeValue*> partition = partition_values(index, item);
  std::string tail = component(table, index, item);
  std::string image;
  for (const AttributeValue* v : partition) keys::append_sortable(image, *v);
  image += tail;
  Entry entry;
  entry.stored_key = keys::partition_prefix(index.id, partition) + tail;
  entry.stored_key = keys::to_stored_key(std::move(entry.stored_key));
  Item projected = project(table, index, item);
  entry.size = metering::item_size(projected);
  // A multi-attribute key's record points only its first attribute into the image.
  items::KeyNames key_names = items::key_names(index.key);
  if (index.key.multi_attribute()) key_names.sort = {};
  entry.record = items::encode(projected, static_cast<std::uint32_t>(entry.size), image, key_names, names);
  return entry;
}

}  // namespace dynamod::indexes
