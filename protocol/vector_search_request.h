#pragma once
// SearchVectors: the request as decoded, and its validation against the
// table's vector index into what storage/vector_search runs.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "protocol/attribute_value.h"
#include "protocol/consumed_capacity.h"
#include "protocol/expr/path.h"
#include "protocol/expr/placeholders.h"
#include "protocol/json_reader.h"
#include "protocol/table_schema.h"

namespace dynamod {

// The service's TopK range (developer guide, "Troubleshooting vector indexes").
inline constexpr std::int64_t kMaxTopK = 100;
// "SearchVectors responses are limited to 16 MB. Pagination is not supported."
inline constexpr std::size_t kMaxSearchResponseBytes = 16u << 20;

struct SearchVectorsRequest {
  std::optional<std::string> table_name;
  std::optional<std::string> index_name;
  std::optional<std::vector<AttributeValue>> search_vector;
  std::optional<std::int64_t> top_k;
  std::optional<std::string> search_condition;
  std::optional<std::string> projection_expression;
  std::optional<expr::NameMap> names;
  std::optional<expr::ValueMap> values;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

// Decodes and checks the members' constraints (required members, lengths, TopK's range).
SearchVectorsRequest decode_search_vectors(json::object body);

// A validated search.
struct VectorSearchSpec {
  const VectorIndexSchema* index = nullptr;  // into the schema given to validate_search_vectors
  std::vector<float> query;
  std::size_t top_k = 0;
  std::optional<AttributeValue> hash_value;                     // the search schema's HASH, when it has one
  std::vector<std::pair<std::string, AttributeValue>> filters;  // INLINE_FILTER equalities
  // What each result holds: these paths, or (none) every projected attribute but the vector.
  std::optional<std::vector<expr::Path>> projection;
};

VectorSearchSpec validate_search_vectors(const SearchVectorsRequest& request, const TableSchema& table);

}  // namespace dynamod
