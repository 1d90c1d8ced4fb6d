#pragma once
// Query's key condition: validated against the table's (or index's) key
// schema and reduced to what the storage layer needs.

#include <optional>
#include <string>

#include "protocol/expr/ast.h"
#include "protocol/table_schema.h"

namespace dynamod::expr {

enum class SortOp : std::uint8_t { Eq, Lt, Le, Gt, Ge, Between, BeginsWith };

struct SortCondition {
  std::string name;  // the sort key attribute
  SortOp op;
  AttributeValue value;                 // the operand, or BETWEEN's lower bound
  std::optional<AttributeValue> upper;  // BETWEEN's upper bound
};

struct KeyCondition {
  std::string partition_name;
  AttributeValue partition;
  std::optional<SortCondition> sort;
};

// Checks the shape of a parsed KeyConditionExpression (only AND of at most
// two conditions, one per key, the partition key with "=", values of the
// schema's types, none an empty S or B) with the service's messages, and
// extracts it. `index`: the index a Query reads (its keys are named as index
// keys in errors), empty for the table.
KeyCondition extract_key_condition(const Condition& c, const KeyDef& key, std::string_view index = {});

// True if `item`'s sort key satisfies the condition (used for ranges the
// storage layer cannot express exactly, and for tests).
bool matches_sort_condition(const SortCondition& s, const AttributeValue& sort_value);

}  // namespace dynamod::expr
