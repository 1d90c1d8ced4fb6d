#pragma once
// Query and Scan: requests as decoded, and their validation against the
// table (or index) into a ReadSpec the storage layer executes.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/attribute_value.h"
#include "protocol/consumed_capacity.h"
#include "protocol/expr/ast.h"
#include "protocol/expr/key_condition.h"
#include "protocol/expr/legacy.h"
#include "protocol/expr/path.h"
#include "protocol/expr/placeholders.h"
#include "protocol/json_reader.h"
#include "protocol/table_schema.h"

namespace dynamod {

enum class Select : std::uint8_t { AllAttributes, AllProjectedAttributes, SpecificAttributes, Count };

// Members Query and Scan share.
struct ReadParameters {
  std::optional<std::string> table_name;
  std::optional<std::string> index_name;
  std::optional<Select> select;
  std::optional<std::vector<std::string>> attributes_to_get;
  std::optional<std::int64_t> limit;
  bool consistent_read = false;
  std::optional<Item> exclusive_start_key;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
  std::optional<std::string> projection_expression;
  std::optional<std::string> filter_expression;
  std::optional<expr::LegacyConditions> filter;  // QueryFilter / ScanFilter
  std::optional<std::string> conditional_operator;
  std::optional<expr::NameMap> names;
  std::optional<expr::ValueMap> values;
};

struct QueryRequest {
  ReadParameters read;
  std::optional<std::string> key_condition_expression;
  std::optional<expr::LegacyConditions> key_conditions;
  bool scan_index_forward = true;
};

struct ScanRequest {
  ReadParameters read;
  std::optional<std::int64_t> segment;
  std::optional<std::int64_t> total_segments;
};

QueryRequest decode_query(json::object body);
ScanRequest decode_scan(json::object body);

// A validated read, ready for the storage layer.
// PartiQL's ORDER BY: DynamoDB reads a page in key order, then reverses, when
// asked, the order of the partitions it holds and the order of each
// partition's items (DynamoDB Local; the service ignores ORDER BY across
// pages as well: aws-sdk-go-v2 issue 2917).
struct PageOrder {
  bool partitions_descending = false;
  bool sort_descending = false;
};

struct ReadSpec {
  const IndexSchema* index = nullptr;               // into the schema given to validate_*; null: the table
  KeyDef key;                                       // the key of what is read (table or index)
  std::optional<expr::KeyCondition> key_condition;  // Query
  // PartiQL's `pk IN (..)`: the partitions a Query reads one after the other,
  // in key order, Limit and pages running on across them (the key
  // condition's partition is the first); empty: the key condition's alone.
  std::vector<AttributeValue> partitions;
  std::optional<PageOrder> page_order;
  expr::Condition filter;  // empty: none
  std::optional<std::vector<expr::Path>> projection;
  // PartiQL's select list: when set (one name per projected path), each path's
  // value comes back as a top-level attribute of that name instead of nested.
  std::vector<std::string> projection_names;
  Select select = Select::AllAttributes;
  std::optional<std::int64_t> limit;
  bool forward = true;
  bool consistent = false;
  std::optional<Item> exclusive_start_key;
  std::int64_t segment = 0;
  std::int64_t total_segments = 1;
  // A local index read that needs attributes its entries do not hold reads
  // the table's item too (and is billed for it).
  bool fetch_table_items = false;
};

ReadSpec validate_query(const QueryRequest& request, const TableSchema& table);
ReadSpec validate_scan(const ScanRequest& request, const TableSchema& table);

}  // namespace dynamod
