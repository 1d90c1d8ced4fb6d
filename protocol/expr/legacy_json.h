#pragma once
// Decoding the legacy parameters from the request body (simdjson on-demand).
// Values are validated as any AttributeValue; unknown members are ignored.

#include <string_view>

#include "protocol/api_error.h"
#include "protocol/expr/legacy.h"
#include "protocol/expr/placeholders.h"
#include "protocol/json_reader.h"

namespace dynamod::expr {

// Expected, QueryFilter, ScanFilter, KeyConditions.
LegacyConditions decode_legacy_conditions(json::value& v);
// Each condition's ComparisonOperator against the model's enum, as constraint violations at
// '<member>.<attribute>.member.comparisonOperator' ("keyConditions", "queryFilter",
// "scanFilter", "expected"); `required`: a missing operator is one too (all but Expected).
void check_comparison_operators(const LegacyConditions& conditions, std::string_view member, bool required,
                                ConstraintErrors& errors, int rank);
LegacyUpdates decode_legacy_updates(json::value& v);  // AttributeUpdates
std::vector<std::string> decode_attributes_to_get(json::value& v);

// ExpressionAttributeValues, wrapping a bad value's error as the service does:
// "ExpressionAttributeValues contains invalid value: <message> for key :v".
ValueMap decode_expression_values(json::value& v);

}  // namespace dynamod::expr
