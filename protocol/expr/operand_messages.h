#pragma once
// The service's words for an operand that does not fit its operator. The
// expression language and PartiQL (whose statements become the same
// expressions) check the same things and must say them alike.

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/attribute_value.h"
#include "protocol/expr/ast.h"

namespace dynamod::expr {

inline std::string incorrect_operand_type(std::string_view op, AttributeType type) {
  return "Incorrect operand type for operator or function; operator or function: " + std::string(op) +
         ", operand type: " + std::string(type_name(type));
}

// The message when `type` (an operand's type, where it is known before
// evaluation) is not one of `allowed`.
inline std::optional<std::string> wrong_operand_type(std::optional<AttributeType> type, std::string_view op,
                                                     std::initializer_list<AttributeType> allowed) {
  if (!type) return std::nullopt;
  for (AttributeType a : allowed) {
    if (a == *type) return std::nullopt;
  }
  return incorrect_operand_type(op, *type);
}

inline std::string document_path_required(std::string_view op) {
  return "Operator or function requires a document path; operator or function: " + std::string(op);
}

// The message when a later operand is the document path the first one is
// (`a = a`, `a IN (b, a)`, `contains(a, a)`), which the service refuses.
inline std::optional<std::string> repeated_first_operand(const std::vector<const Operand*>& ops, std::string_view op) {
  const Path* first = ops.front()->path();
  if (!first) return std::nullopt;
  for (std::size_t i = 1; i < ops.size(); ++i) {
    const Path* other = ops[i]->path();
    if (other && *other == *first) {
      return "The first operand must be distinct from the remaining operands for this operator or function; "
             "operator: " +
             std::string(op) + ", first operand: " + first->bracket_list();
    }
  }
  return std::nullopt;
}

}  // namespace dynamod::expr
