#pragma once
// PartiQL's own words for a key attribute a statement leaves out or gives a
// value of the wrong type (DynamoDB Local's texts and order; the documentation
// is silent, and the JSON API words these otherwise):
//   "Key attribute should be present in the item: Key sk"
//   "Key attribute's data type should match its data type in table's schema: Key pk"

#include <optional>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/partiql/values.h"
#include "protocol/table_schema.h"

namespace dynamod::partiql {

// An INSERT's item: each key attribute present and of its type, the partition
// key first (before its value is looked at: an empty one is named after).
void check_item_key(const Item& item, const KeyDef& key);

// The key an UPDATE, DELETE or EXISTS names: of the key's types, the sort key
// first.
void check_named_key(const Item& key, const KeyDef& def);

// The terms a SELECT would read as a Query by, whatever their types: the
// first equality on the partition key of `key` (the table's or the index's)
// and the first sort-key condition with it (`sk IS NULL` too: DynamoDB Local
// reads it as `sk = NULL`). Any other term that tests a key attribute makes
// the read a Scan (a repeated equality on the partition aside), as
// translate_select's planner does.
struct QueryTerms {
  std::optional<NodeId> partition;
  std::optional<NodeId> sort;
  bool scan = false;
};
QueryTerms query_terms(const Statement& s, const std::vector<NodeId>& terms, const KeyDef& key,
                       const Parameters& parameters);

// A SELECT read as a Query (query_terms): the constants its sort-key term
// compares with the sort key (= < <= > >=, BETWEEN, begins_with), then the
// partition key's, of the key's types. A Scan is left to
// check_condition_key_types.
void check_query_key(const Statement& s, const QueryTerms& query, const KeyDef& key, const Parameters& parameters);

// A SELECT's conditions on a key attribute of what it reads (the read's key
// and the table's) with a constant of another type, anywhere in the WHERE
// clause: "One or more parameter values were invalid: Condition parameter
// type does not match schema type" (DynamoDB Local: `sk <> 'x'`, `sk IN
// ['a']`, `contains(pk, 1)`, `sk IS STRING` on an N key; `size(sk)` is not the
// key). The terms check_query_key takes are left to it: the top-level
// equality on the read's partition key, and the first top-level condition on
// its sort key with it. A top-level `pk IN` list, `pk IS NULL` (or `sk IS
// NULL` with the partition fixed) of the wrong type is named as check_query_key
// names a key; a `pk IS NULL` after the partition's equality is the filter's.
void check_condition_key_types(const Statement& s, const std::vector<NodeId>& terms, const QueryTerms& query,
                               const KeyDef& read_key, const KeyDef& table_key, const Parameters& parameters);

// An UPDATE's or DELETE's other terms that give a key attribute of the key it
// names another value (`sk = 2`, `sk IS NULL`): "Multiple conditions on same
// key sk. Only single item Update/Insert/Delete are supported" (DynamoDB
// Local; a repeat of the same value is a condition that holds).
void check_single_key_values(const Statement& s, const std::vector<NodeId>& rest, const Item& key, const KeyDef& def,
                             const Parameters& parameters);

// Whether `e` is one of the two errors above (a transaction cancels for them,
// with a ValidationError reason, instead of failing as a whole).
bool is_key_error(const ApiError& e);

}  // namespace dynamod::partiql
