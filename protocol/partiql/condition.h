#pragma once
// WHERE clauses as condition expressions (protocol/expr/ast.h), with the
// checks DynamoDB makes on PartiQL functions and operands:
//   functions (any case): attribute_exists, attribute_not_exists,
//   attribute_type, begins_with, contains, size; a function compared with
//   true/false; IS [NOT] MISSING / NULL / <type>; NOT, AND, OR, BETWEEN, IN,
//   = <> != < <= > >=; no operand repeating the first one's path (`a = a`).

#include <optional>
#include <vector>

#include "protocol/expr/ast.h"
#include "protocol/partiql/values.h"

namespace dynamod::partiql {

// What IS may test (a path, or a literal of one value: 'x' IS STRING holds)
// and for what (MISSING, NULL or a type DynamoDB has): "The left hand side
// argument to IS must be a Variable Reference, Literal, or Path", "Unsupported
// data type for IS operator: INTEGER. ...". DynamoDB Local checks these with
// the statement's literals, in its order (check_values_in_order).
void check_is(const Statement& s, const Node& is);

// What DynamoDB refuses as it builds a WHERE clause's tree, before any other
// check of the clause, node by node in the tree's post-order: an operator it
// does not have (arithmetic, signs, ||, LIKE), an argument of NOT, AND or OR
// that is a path or a value ("The argument to NOT must be a Type or
// Expression", "The arguments to AND/OR must be Expressions"); then a clause
// that is one, or an operand function such as size ("WHERE clause must
// contain an expression that resolves to a boolean"). DynamoDB Local's words
// and order.
void check_condition_shape(const Statement& s, NodeId where);

// The top-level AND terms of a WHERE clause (none without one).
std::vector<NodeId> and_terms(const Statement& s, std::optional<NodeId> where);

// The AND of `terms` (empty: no condition).
expr::Condition build_condition(const Statement& s, const std::vector<NodeId>& terms, const Parameters& parameters);

// attribute_exists(attribute) / attribute_not_exists(attribute).
expr::Condition exists_condition(const std::string& attribute, bool exists);

// `a` AND / OR `b`; an empty side leaves the other unchanged.
enum class Join : std::uint8_t { And, Or };
expr::Condition join(expr::Condition a, expr::Condition b, Join how);

// Every path the terms read.
std::vector<const expr::Path*> condition_paths(const Statement& s, const std::vector<NodeId>& terms);

}  // namespace dynamod::partiql
