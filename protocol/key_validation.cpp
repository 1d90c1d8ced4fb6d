#include "protocol/key_validation.h"

#include "protocol/api_error.h"

namespace dynamod {
namespace {

// Key sizes count the bytes of an S or B value; a number (at most 21 bytes)
// never reaches the limits.
std::uint64_t key_size(const AttributeValue& value) {
  if (value.type() == AttributeType::S) return value.as_string().size();
  if (value.type() == AttributeType::B) return value.as_binary().size();
  return 0;
}

void check_sizes(const PrimaryKey& key) {
  if (key_size(key.partition) > kMaxPartitionKeySize) {
    throw ApiError::invalid_parameter("Size of hashkey has exceeded the maximum size limit of2048 bytes");
  }
  if (key.sort && key_size(*key.sort) > kMaxSortKeySize) {
    throw ApiError::invalid_parameter("Aggregated size of all range keys has exceeded the size limit of 1024 bytes");
  }
}

const AttributeValue& item_key_value(const KeyElement& element, const Item& item) {
  const AttributeValue* value = item.find(element.name);
  if (value == nullptr) throw ApiError::invalid_parameter("Missing the key " + element.name + " in the item");
  if (value->type() != to_attribute_type(element.type)) {
    throw ApiError::invalid_parameter("Type mismatch for key " + element.name +
                                      " expected: " + std::string(scalar_type_name(element.type)) +
                                      " actual: " + std::string(type_name(value->type())));
  }
  check_key_value_not_empty(element.name, *value);
  return *value;
}

}  // namespace

PrimaryKey key_from_item(const KeyDef& key, const Item& item) {
  PrimaryKey result{item_key_value(key.partition, item), std::nullopt};
  if (key.sort) result.sort = item_key_value(*key.sort, item);
  check_sizes(result);
  return result;
}

PrimaryKey key_from_key(const KeyDef& key, const Item& attributes) {
  const std::size_t expected = key.sort ? 2 : 1;
  auto mismatch = [] { return ApiError::validation("The provided key element does not match the schema"); };
  if (attributes.size() != expected) throw mismatch();
  auto value_of = [&](const KeyElement& element) -> const AttributeValue& {
    const AttributeValue* value = attributes.find(element.name);
    if (value == nullptr || value->type() != to_attribute_type(element.type)) throw mismatch();
    return *value;
  };
  PrimaryKey result{value_of(key.partition), std::nullopt};
  if (key.sort) result.sort = value_of(*key.sort);
  check_key_value_not_empty(key.partition.name, result.partition);
  if (key.sort) check_key_value_not_empty(key.sort->name, *result.sort);
  check_sizes(result);
  return result;
}

Item key_attributes(const KeyDef& key, const Item& item) {
  Item out;
  for (const auto& elements : {key.partition_elements(), key.sort_elements()}) {
    for (const KeyElement* k : elements) {
      if (const AttributeValue* v = item.find(k->name)) out.set(k->name, *v);
    }
  }
  return out;
}

void check_key_value_not_empty(std::string_view name, const AttributeValue& value, std::string_view index) {
  const bool empty_string = value.type() == AttributeType::S && value.as_string().empty();
  const bool empty_binary = value.type() == AttributeType::B && value.as_binary().empty();
  if (!empty_string && !empty_binary) return;
  std::string message = "One or more parameter values are not valid. ";
  if (!index.empty()) message += "A value specified for a secondary index key is not supported. ";
  message += "The AttributeValue for a key attribute cannot contain an empty ";
  message += empty_string ? "string value. " : "binary value. ";
  if (index.empty()) {
    message += "Key: ";
  } else {
    message += "IndexName: ";
    message += index;
    message += ", IndexKey: ";
  }
  message += name;
  throw ApiError::validation(std::move(message));
}

bool is_empty_key_error(const ApiError& error) {
  // Table and index keys alike: "One or more parameter values are not valid. ..."
  return error.code() == ErrorCode::ValidationException &&
         error.message().rfind("One or more parameter values are not valid. ", 0) == 0;
}

void check_item_size(std::uint64_t size) {
  if (size > kMaxItemSize) throw ApiError::validation(kItemTooLarge);
}

}  // namespace dynamod
