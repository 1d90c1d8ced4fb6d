#pragma once
// Parsing DynamoDB's expression language: ConditionExpression,
// FilterExpression, KeyConditionExpression, UpdateExpression and
// ProjectionExpression. Every error is the service's ValidationException text.
//
// Pipeline (the order the service reports errors in): size/empty checks,
// grammar, section duplicates, operator count, redundant parentheses, a walk
// for function names / reserved words / list indexes / nesting depth, then a
// walk that resolves #names and :values and checks operand types. Unused
// placeholders are checked by the caller once all expressions of a request
// have been parsed (Placeholders::check_all_used).

#include <string_view>
#include <vector>

#include "protocol/expr/ast.h"
#include "protocol/expr/placeholders.h"

namespace dynamod::expr {

// Error texts name the expression: "Invalid ConditionExpression: ...".
enum class ConditionKind : std::uint8_t { Condition, Filter, KeyCondition };

// DynamoDB's limit on one expression string, in bytes.
inline constexpr std::size_t kMaxExpressionBytes = 4096;

Condition parse_condition(std::string_view text, ConditionKind kind, Placeholders& p);
std::vector<Path> parse_projection(std::string_view text, Placeholders& p);
UpdateActions parse_update(std::string_view text, Placeholders& p);

// "One or more parameter values were invalid: Cannot update attribute pk.
// This attribute is part of the key" if any action's path starts at a key
// attribute. Call after parse_update (the service checks it after the
// placeholders).
void check_key_updates(const UpdateActions& u, const std::vector<std::string_view>& key_names);

// "Can not use both expression and non-expression parameters in the same
// request: Non-expression parameters: {Expected} Expression parameters:
// {ConditionExpression}". Lists hold the names of the parameters present;
// nothing is thrown unless both are non-empty.
void check_no_mixing(const std::vector<std::string_view>& non_expression,
                     const std::vector<std::string_view>& expression);

}  // namespace dynamod::expr
