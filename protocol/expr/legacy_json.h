#pragma once
// Decoding the legacy parameters from the request body (simdjson on-demand).
// Values are validated as any AttributeValue; unknown members are ignored.

#include "protocol/expr/legacy.h"
#include "protocol/expr/placeholders.h"
#include "protocol/json_reader.h"

namespace dynamod::expr {

// Expected, QueryFilter, ScanFilter, KeyConditions.
LegacyConditions decode_legacy_conditions(json::value& v);
LegacyUpdates decode_legacy_updates(json::value& v);  // AttributeUpdates
std::vector<std::string> decode_attributes_to_get(json::value& v);

// ExpressionAttributeValues, wrapping a bad value's error as the service does:
// "ExpressionAttributeValues contains invalid value: <message> for key :v".
ValueMap decode_expression_values(json::value& v);

}  // namespace dynamod::expr
