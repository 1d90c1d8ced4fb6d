#pragma once
// PartiQL literals and `?` parameters as AttributeValues: 'text' -> S,
// numbers -> N, true/false -> BOOL, null -> NULL, [..] -> L, {'k': ..} -> M,
// <<..>> -> SS or NS.

#include <string>
#include <vector>

#include "protocol/attribute_value.h"
#include "protocol/partiql/ast.h"

namespace dynamod::partiql {

using Parameters = std::vector<AttributeValue>;

// "Number of parameters in request and statement don't match.", for a `?`
// the request has no parameter for (more parameters than placeholders are
// accepted), named as the statement's values are taken in order.
[[noreturn]] void parameters_do_not_match();

// True for a node that denotes a value without reading an item: a literal, a
// parameter, or a list, struct or bag of them.
bool is_constant(const Statement& s, NodeId id);

// The value of a constant node. `where` names it in number errors the way
// the service does: "root" for the value itself, "root.x" / "root[1]" inside
// it ("Number overflow. ... under root[1]"). Non-constants are refused with
// "Unsupported data type: <what> under key <where> at <position>".
AttributeValue constant_value(const Statement& s, NodeId id, const Parameters& parameters,
                              const std::string& where = "root");

// A number literal written as a negative zero decimal or float (-0.0, -0e0;
// -0 is an integer and fine), which DynamoDB refuses: "Negative zero decimal
// is not supported under key root.m.1 at 1:67:3" (`place` in that dotted form).
bool negative_zero_decimal(const std::string& text, const Number& n);
[[noreturn]] void negative_zero(const Node& literal, const std::string& place);

// "MISSING must be compared using IS operator".
[[noreturn]] void misplaced_missing();

}  // namespace dynamod::partiql
