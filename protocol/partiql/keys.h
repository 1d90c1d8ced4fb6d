#pragma once
// What a WHERE clause says about the primary key: equalities that name an
// item, sort-key conditions that narrow a Query, and OR branches whose
// sort-key ranges overlap (which the service refuses).

#include <optional>
#include <string_view>
#include <vector>

#include "protocol/expr/key_condition.h"
#include "protocol/partiql/values.h"
#include "protocol/table_schema.h"

namespace dynamod::partiql {

// `attribute = constant` (either way round, `attribute` a top-level name):
// the constant; nullopt for any other term.
std::optional<AttributeValue> key_equality(const Statement& s, NodeId term, std::string_view attribute,
                                           const Parameters& parameters);

// `attribute IN (constants)` (a list or bag, `attribute` a top-level name):
// its values, each once, in the key's order (N by value, S and B by their
// bytes), as DynamoDB reads the partitions of such a SELECT; nullopt for any
// other term, or when a value is not of the key's type.
std::optional<std::vector<AttributeValue>> key_in_list(const Statement& s, NodeId term, const KeyElement& key,
                                                       const Parameters& parameters);

// A term that tests a key attribute of `key` itself (sk <> 1, NOT sk > 1,
// begins_with(pk, ..)), not inside an OR: a Query's filter may not, so a
// SELECT with one left over after its key condition is a Scan (DynamoDB Local).
// A comparison or a function also tests a key through size() (size(sk) = 2,
// contains(a, size(sk))); under NOT, BETWEEN or IN only the key itself counts
// (NOT size(sk) = 2 and size(sk) BETWEEN 1 AND 2 leave a Query; DynamoDB Local).
bool tests_key_attribute(const Statement& s, NodeId term, const KeyDef& key);

// Whether every way the WHERE clause can hold fixes `attribute` by = or IN
// (ORDER BY needs one such "non-optional hash key condition").
bool pins_attribute(const Statement& s, NodeId where, std::string_view attribute);

// A term a Query can use on the sort key: = < <= > >= (either way round),
// BETWEEN, begins_with, with constants of the key's type.
std::optional<expr::SortCondition> sort_condition(const Statement& s, NodeId term, const KeyElement& sort,
                                                  const Parameters& parameters);

// An equality on every attribute of `key` among the terms: the key and the
// other terms. `typed`: only equalities with values of the key's types count
// (reads; a write reports a mistyped key: key_types.h).
struct KeyTerms {
  Item key;
  std::vector<NodeId> rest;
};
std::optional<KeyTerms> split_key_terms(const Statement& s, const std::vector<NodeId>& terms, const KeyDef& key,
                                        const Parameters& parameters, bool typed);

// "Overlapping conditions with range keys are not supported in where clause"
// for a WHERE clause of OR branches on one partition whose sort-key ranges
// intersect (pk = 'q' AND sk > 1 OR pk = 'q' AND sk > 2).
void check_overlapping_branches(const Statement& s, NodeId where, const KeyDef& key, const Parameters& parameters);

}  // namespace dynamod::partiql
