#pragma once
// The pre-expression parameters (Expected, QueryFilter, ScanFilter,
// KeyConditions, AttributeUpdates, AttributesToGet), converted into the
// expression ASTs so there is one evaluator. Decoding from JSON is separate
// (legacy_json.h); these take already-decoded structs.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "protocol/expr/ast.h"
#include "protocol/expr/key_condition.h"

namespace dynamod::expr {

// One entry of Expected / QueryFilter / ScanFilter / KeyConditions.
struct LegacyCondition {
  std::optional<AttributeValue> value;                    // Expected only
  std::optional<bool> exists;                             // Expected only
  std::optional<std::string> comparison_operator;         // EQ, NE, ..., BETWEEN
  std::optional<std::vector<AttributeValue>> value_list;  // AttributeValueList
};
using LegacyConditions = std::vector<std::pair<std::string, LegacyCondition>>;  // in request order

// One entry of AttributeUpdates.
struct LegacyUpdate {
  std::optional<std::string> action;  // PUT (default), ADD, DELETE
  std::optional<AttributeValue> value;
};
using LegacyUpdates = std::vector<std::pair<std::string, LegacyUpdate>>;

enum class ConditionalOperator : std::uint8_t { And, Or };

// Expected: {"a": {"Value": v}} is a = v; {"Exists": false} is
// attribute_not_exists(a); ComparisonOperator forms as for filters. The
// entries are joined by the ConditionalOperator as given (absent: AND), which
// the service refuses with fewer than two entries once the entries passed.
Condition convert_expected(const LegacyConditions& expected, const std::optional<std::string>& conditional_operator);
// QueryFilter / ScanFilter (ComparisonOperator + AttributeValueList only).
Condition convert_filter(const LegacyConditions& filter, const std::optional<std::string>& conditional_operator);
// KeyConditions. Each condition's arguments are checked first, then the key
// schema against the conditions whose operator can serve a key; a condition
// whose operator cannot (NE, IN, NULL, CONTAINS...) is only reported through
// `not_indexable`, for the caller to refuse once the rest of the read has been
// checked (DynamoDB Local names a QueryFilter's errors, ExclusiveStartKey and
// Select before it) - or at once when no partition-key condition remains.
struct LegacyKeyCondition {
  KeyCondition condition;
  bool not_indexable = false;
};
LegacyKeyCondition convert_key_conditions(const LegacyConditions& conditions, const KeyDef& key,
                                          std::string_view index = {});
// "Attempted conditional constraint is not an indexable operation".
[[noreturn]] void throw_not_indexable();
// PUT -> SET, ADD -> ADD (also appends lists), DELETE with a value -> DELETE,
// DELETE without -> REMOVE. `key_names` are refused as in UpdateExpression.
UpdateActions convert_attribute_updates(const LegacyUpdates& updates);
// "Cannot have two attributes with the same name" for duplicates.
std::vector<Path> convert_attributes_to_get(const std::vector<std::string>& names);

}  // namespace dynamod::expr
