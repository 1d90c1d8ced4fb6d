#pragma once
// Checks the service makes on a statement once it is parsed, before it looks
// at the table, the parameters or the meaning of the WHERE clause; in a
// transaction, statement by statement as part of each one's validation
// (DynamoDB Local's order; the documentation is silent):
//   - the names a SELECT's list returns are distinct ("SELECT a, m.a" returns
//     two `a`): "Duplicate identifiers in select clause: a" (an EXISTS returns
//     nothing: its list is not looked at), and no two of its paths overlap
//     (`SELECT m.s, m`: "Two document paths overlap ...; path one: [m], path
//     two: [m, s]").
// Then (check_values_in_order) the statement's values are taken in its order,
// as they are converted: the first number literal that does not convert (the
// number errors "... under root[1]", and a negative zero written as a decimal
// or float (-0.0, -0e0; -0 is an integer and fine): "Negative zero decimal is
// not supported under key root.1 at 1:67:3"), or the first `?` the request
// has no parameter for ("Number of parameters in request and statement don't
// match."), or the first IS that tests what is no path or literal (`[1] IS
// NULL`) or for a type DynamoDB does not have (`a IS INT`; condition.h's
// check_is) - but an UPDATE's SET values, which are taken as its actions are
// built, after the WHERE clause and its operands (`SET a = set_add(a, 'x'),
// b = ?` names set_add).

#include "protocol/partiql/ast.h"
#include "protocol/partiql/values.h"

namespace dynamod::partiql {

void check_parsed(const Statement& s);

// Every check made before the table is looked up, in DynamoDB Local's order:
// check_parsed, the values (check_values_in_order), the WHERE clause, an
// UPDATE's SET actions (their values taken as they are built), the table name.
// Between them every `?` is taken: more parameters than placeholders are
// accepted.
void check_statement(const Statement& s, const Parameters& parameters);

// An UPDATE's or DELETE's table named "": refused once the statement's own
// checks have passed, just before the table is looked up (a SELECT's is a
// refusal of the parser's; DynamoDB Local).
void check_table_name(const Statement& s);

void check_values_in_order(const Statement& s, const Parameters& parameters);

// The WHERE clause (of a SELECT, UPDATE, DELETE or EXISTS) checked as its
// condition is built, with the parameters: operand types, BETWEEN bounds,
// functions and their arguments. DynamoDB Local names these before it looks
// for the table or the index, and before a batch or a transaction refuses a
// SELECT that is not of one item.
void check_where(const Statement& s, const Parameters& parameters);

}  // namespace dynamod::partiql
