#pragma once
// Small helpers shared by the expression passes: type names as the service's
// messages spell them, and the BETWEEN bound checks.

#include <optional>
#include <string>
#include <string_view>

#include "protocol/attribute_value.h"

namespace dynamod::expr {

// "S", "N", ..., "NULL", "BOOL" -> type (attribute_type's second operand).
std::optional<AttributeType> parse_type_name(std::string_view name);
// STRING, NUMBER, BINARY, BOOLEAN, NULL, LIST, MAP, STRING_SET, ... (ADD/DELETE messages).
std::string_view long_type_name(AttributeType type);
// "AttributeValue: {N:1}", as BETWEEN's messages render a bound.
std::string render_bound(const AttributeValue& v);
// Three-way comparison of two scalars of the same type (N, S, B).
int compare_scalars(const AttributeValue& a, const AttributeValue& b);
// Throws "<prefix>The BETWEEN operator requires same data type ..." or
// "... requires upper bound to be greater than or equal to lower bound ...".
void check_between_bounds(const AttributeValue& lower, const AttributeValue& upper, std::string_view prefix);

}  // namespace dynamod::expr
