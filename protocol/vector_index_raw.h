#pragma once
// CreateTable's VectorIndexes and UpdateTable's VectorIndexUpdates as sent
// (raw, so that validation can echo them); decoded and validated by
// protocol/vector_index.h.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dynamod {

struct RawSearchSchemaElement {
  std::optional<std::string> attribute_name;
  std::optional<std::string> element_type;
};

struct RawVectorProjection {
  std::optional<std::string> projection_type;
  std::optional<std::vector<std::string>> non_key_attributes;
};

struct RawVectorIndex {
  std::optional<std::string> index_name;
  bool has_vector_attribute = false;
  std::optional<std::string> vector_attribute;  // VectorAttribute.AttributeName
  std::optional<std::int64_t> dimensions;
  std::optional<std::string> distance_function;
  std::optional<std::vector<RawSearchSchemaElement>> search_schema;
  std::optional<RawVectorProjection> projection;
};

struct RawVectorIndexUpdate {
  int actions = 0;  // how many of Create, Delete it holds
  std::optional<RawVectorIndex> create;
  bool has_delete = false;
  std::optional<std::string> delete_name;
};

}  // namespace dynamod
