#include "protocol/table_schema.h"

#include <algorithm>
#include <array>

namespace dynamod {

std::string_view scalar_type_name(ScalarType type) {
  static constexpr std::array<std::string_view, 3> kNames{"S", "N", "B"};
  return kNames[static_cast<std::size_t>(type)];
}

std::optional<ScalarType> parse_scalar_type(std::string_view name) {
  if (name == "S") return ScalarType::S;
  if (name == "N") return ScalarType::N;
  if (name == "B") return ScalarType::B;
  return std::nullopt;
}

AttributeType to_attribute_type(ScalarType type) {
  switch (type) {
    case ScalarType::S: return AttributeType::S;
    case ScalarType::N: return AttributeType::N;
    case ScalarType::B: return AttributeType::B;
  }
  return AttributeType::S;
}

std::string_view billing_mode_name(BillingMode mode) {
  return mode == BillingMode::Provisioned ? "PROVISIONED" : "PAY_PER_REQUEST";
}

std::string_view table_class_name(TableClass table_class) {
  return table_class == TableClass::Standard ? "STANDARD" : "STANDARD_INFREQUENT_ACCESS";
}

std::string_view projection_type_name(ProjectionType type) {
  static constexpr std::array<std::string_view, 3> kNames{"ALL", "KEYS_ONLY", "INCLUDE"};
  return kNames[static_cast<std::size_t>(type)];
}

std::string_view stream_view_type_name(StreamViewType type) {
  static constexpr std::array<std::string_view, 4> kNames{"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"};
  return kNames[static_cast<std::size_t>(type)];
}

std::string_view index_status_name(IndexStatus status) {
  static constexpr std::array<std::string_view, 4> kNames{"CREATING", "UPDATING", "DELETING", "ACTIVE"};
  return kNames[static_cast<std::size_t>(status)];
}

std::string_view distance_function_name(DistanceFunction function) {
  static constexpr std::array<std::string_view, 3> kNames{"COSINE", "EUCLIDEAN", "DOT_PRODUCT"};
  return kNames[static_cast<std::size_t>(function)];
}

std::string_view table_status_name(TableStatus status) {
  static constexpr std::array<std::string_view, 4> kNames{"CREATING", "UPDATING", "DELETING", "ACTIVE"};
  return kNames[static_cast<std::size_t>(status)];
}

std::vector<const KeyElement*> KeyDef::partition_elements() const {
  std::vector<const KeyElement*> out{&partition};
  for (const auto& k : more_partition) out.push_back(&k);
  return out;
}

std::vector<const KeyElement*> KeyDef::sort_elements() const {
  std::vector<const KeyElement*> out;
  if (sort) out.push_back(&*sort);
  for (const auto& k : more_sort) out.push_back(&k);
  return out;
}

bool KeyDef::includes(std::string_view attribute) const {
  if (partition.name == attribute || (sort && sort->name == attribute)) return true;
  for (const auto* family : {&more_partition, &more_sort}) {
    for (const auto& k : *family) {
      if (k.name == attribute) return true;
    }
  }
  return false;
}

const AttributeDefinition* TableSchema::find_attribute(std::string_view name) const {
  for (const auto& a : attribute_definitions) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

const IndexSchema* TableSchema::find_index(std::string_view name) const {
  for (const auto& i : global_indexes) {
    if (i.name == name) return &i;
  }
  for (const auto& i : local_indexes) {
    if (i.name == name) return &i;
  }
  return nullptr;
}

const VectorIndexSchema* TableSchema::find_vector_index(std::string_view name) const {
  for (const auto& i : vector_indexes) {
    if (i.name == name) return &i;
  }
  return nullptr;
}

bool TableSchema::is_global(const IndexSchema& index) const {
  for (const auto& i : global_indexes) {
    if (&i == &index) return true;
  }
  return false;
}

bool TableSchema::projects(const IndexSchema& index, std::string_view attribute) const {
  if (index.projection.type == ProjectionType::All) return true;
  if (key.includes(attribute) || index.key.includes(attribute)) return true;
  const auto& included = index.projection.non_key_attributes;
  return std::find(included.begin(), included.end(), attribute) != included.end();
}

}  // namespace dynamod
