#pragma once
// Vector indexes: CreateTable's VectorIndexes and UpdateTable's
// VectorIndexUpdates as decoded and validated, their description in
// DescribeTable, and the rules a written item's vector attribute obeys.
//
// Messages the developer guide quotes are the service's; the others (marked
// "dynamod's wording") follow the guide's rules in the service's style, for
// the guide gives no text for them (docs/vector-search.md).

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/attribute_value.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"
#include "protocol/table_requests.h"
#include "protocol/table_schema.h"
#include "protocol/vector_index_raw.h"

namespace dynamod {

// The service's quotas (developer guide, "Creating and searching vector indexes").
inline constexpr std::size_t kMaxVectorIndexesPerTable = 5;
inline constexpr std::int64_t kMaxVectorDimensions = 4096;

std::optional<std::vector<RawVectorIndex>> decode_raw_vector_indexes(json::value& v);
std::optional<std::vector<RawVectorIndexUpdate>> decode_vector_index_updates(json::value& v);

// Coral constraints of a list of indexes; `path` is e.g. "vectorIndexes".
void check_vector_index_constraints(const std::vector<RawVectorIndex>& indexes, const std::string& path,
                                    ConstraintErrors& errors);

// Validates one index against the table (its billing mode, attribute definitions
// and other indexes); `definitions` are the definitions the index may use.
VectorIndexSchema validate_vector_index(const RawVectorIndex& raw, const TableSchema& table,
                                        const std::vector<AttributeDefinition>& definitions);

// CreateTable: validates the request's vector indexes into `schema`; `index_names`
// holds the secondary index names already taken.
void add_vector_indexes(const std::vector<RawVectorIndex>& raw, TableSchema& schema,
                        std::set<std::string>& index_names);

// The attributes the vector indexes of `schema` name in their search schemas
// (they need AttributeDefinitions, as GSI keys do).
std::set<std::string> vector_search_attributes(const TableSchema& schema);

// UpdateTable: a table with vector indexes stays on demand (`mode`: its billing mode after the request).
void check_billing_mode_keeps_vector_indexes(const TableSchema& table, BillingMode mode);

// A restore (from a backup or a point in time) keeps the source's vector
// indexes, ACTIVE, with the definitions their search schemas use: all of
// them, or those VectorIndexOverride lists, each of which must repeat an
// index of the source. A table restored with PROVISIONED billing keeps none
// (and an override that lists one is refused, as CreateTable refuses it).
void keep_vector_indexes(const TableSchema& source, TableSchema& restored,
                         const std::optional<std::vector<RawVectorIndex>>& override_indexes);

// UpdateTable's VectorIndexUpdates, validated against the table.
struct VectorIndexChange {
  std::optional<VectorIndexSchema> create;  // its id is assigned by the engine
  std::vector<AttributeDefinition> new_definitions;
  std::optional<std::string> delete_name;
};
VectorIndexChange validate_vector_index_updates(const std::vector<RawVectorIndexUpdate>& updates,
                                                const TableSchema& table,
                                                const std::optional<std::vector<RawAttributeDefinition>>& definitions,
                                                BillingMode mode);

// An index's definition (the members of VectorIndexInfo: IndexName,
// VectorAttribute, Dimensions, DistanceFunction, SearchSchema, Projection)
// into an open object.
void encode_vector_index_definition(JsonWriter& out, const VectorIndexSchema& index);

// DescribeTable's VectorIndexes member (nothing without vector indexes).
void encode_vector_index_descriptions(JsonWriter& out, const TableSchema& schema,
                                      const std::map<std::uint32_t, TableCounters>& counters,
                                      const std::string& table_arn);

// A written item's vector attribute for `index`: nullopt when the item is not
// in the index (no vector, or no value for the search schema's HASH); throws
// the ValidationException the service answers for a vector of the wrong shape,
// dimension or range, or a search schema attribute of the wrong type.
std::optional<std::vector<float>> item_vector(const VectorIndexSchema& index, const Item& item);

// Every vector index's checks on a written item (the write is refused on the first failure).
void check_vector_attributes(const TableSchema& table, const Item& item);

}  // namespace dynamod
