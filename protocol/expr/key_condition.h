#pragma once
// Query's key condition: validated against the table's (or index's) key
// schema and reduced to what the storage layer needs.

#include <optional>
#include <string>
#include <vector>

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

// `name = value` on one attribute of a multi-attribute key.
struct KeyEquality {
  std::string name;
  AttributeValue value;
};

struct KeyCondition {
  std::string partition_name;
  AttributeValue partition;
  std::optional<SortCondition> sort;
  // A multi-attribute key: the values of its further partition-key attributes
  // (in key order), and the values the leading sort-key attributes equal;
  // `sort` is then the range condition on the next one, if any.
  std::vector<KeyEquality> more_partition;
  std::vector<KeyEquality> sort_equalities;
};

// Checks the shape of a parsed KeyConditionExpression (only AND of at most
// two conditions, one per key, the partition key with "=", values of the
// schema's types, none an empty S or B) with the service's messages, and
// extracts it. `index`: the index a Query reads (its keys are named as index
// keys in errors), empty for the table.
KeyCondition extract_key_condition(const Condition& c, const KeyDef& key, std::string_view index = {});

// "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested
// attributes" for a path of more than one step anywhere in the condition; a Query checks it
// after the filter's and the projection's paths into key attributes (key_paths.h).
void check_key_condition_not_nested(const Condition& c);

// Checks that an ExclusiveStartKey lies within a Query's key condition: its
// partition, then its sort key (the range key predicate), with the service's
// messages.
void check_start_key_bounds(const KeyCondition& kc, const KeyDef& key, const Item& start);

// True if `item`'s sort key satisfies the condition (used for ranges the
// storage layer cannot express exactly, and for tests).
bool matches_sort_condition(const SortCondition& s, const AttributeValue& sort_value);

}  // namespace dynamod::expr
