#pragma once
// Evaluating conditions (ConditionExpression, FilterExpression, legacy
// Expected/QueryFilter) against an item. Pure: no errors at this stage; type
// mismatches make a comparison false, as in DynamoDB.

#include "protocol/expr/ast.h"

namespace dynamod::expr {

// `item` is null when the item does not exist. An empty condition is true.
bool evaluate(const Condition& c, const Item* item);

// An operand's value in `item`: points into the item or the AST, or into
// `scratch` for computed values (size()). Null when a path is missing or a
// function cannot apply.
const AttributeValue* operand_value(const Operand& o, const Item* item, AttributeValue& scratch);

// DynamoDB's size(): characters of S (UTF-16 code units, as the service's Java
// String.length()), bytes of B, members of sets, elements of L and M.
std::optional<std::size_t> value_size(const AttributeValue& v);

}  // namespace dynamod::expr
