#pragma once
// PartiQL statements as the requests the JSON API already has: a SELECT
// becomes a validated read (a Query when the WHERE clause fixes the
// partition key, else a Scan with the WHERE clause as its filter); INSERT,
// UPDATE, DELETE and EXISTS become PutItem, UpdateItem, DeleteItem and
// ConditionCheck requests with their expressions built as ASTs. Pure: the
// caller resolves the table, and has checked the statement (check_parsed).

#include <cstdint>
#include <optional>
#include <variant>

#include "protocol/item_expressions.h"
#include "protocol/item_requests.h"
#include "protocol/partiql/ast.h"
#include "protocol/partiql/values.h"
#include "protocol/read_requests.h"
#include "protocol/table_schema.h"

namespace dynamod::partiql {

inline constexpr std::string_view kWhereKeys =
    "Where clause does not contain a mandatory equality on all key attributes";
inline constexpr std::string_view kBatchSelectKey =
    "Select statements within BatchExecuteStatement must specify the primary key in the where clause.";
inline constexpr std::string_view kTransactionSelectKey =
    "Select statements within ExecuteTransaction must specify the primary key in the where clause.";

// What the request adds to a statement.
struct Inputs {
  Parameters parameters;
  bool consistent_read = false;
  std::optional<std::int64_t> limit;
  // As sent: a SELECT reads it once the statement, its parameters and its
  // table have passed (DynamoDB Local), and anything else ignores it.
  std::optional<std::string> next_token;
  bool return_old_on_condition_failure = false;
  // A batch's or a transaction's SELECT: an equality on each attribute of the
  // table's primary key and nothing else, else this refusal (kBatchSelectKey,
  // kTransactionSelectKey); checked after the WHERE clause's own errors and
  // before the key's types.
  std::optional<std::string_view> one_item;
  // request_fingerprint(statement, parameters): what the NextToken must have been given for.
  std::string request_fingerprint;
};

struct ReadPlan {
  ReadSpec spec;  // `index` points into the schema given to translate_select
  // Set when the WHERE clause is exactly one equality on each attribute of
  // the table's primary key (the only read batches and transactions take).
  std::optional<Item> key;
};

ReadPlan translate_select(const Statement& s, const Select& select, const TableSchema& table, const Inputs& inputs);

struct WritePlan {
  // EXISTS: the key and condition of a ConditionCheck, as a DeleteItemRequest.
  std::variant<PutItemRequest, UpdateItemRequest, DeleteItemRequest> request;
  ItemExpressions expressions;
};

// INSERT, UPDATE, DELETE or EXISTS.
WritePlan translate_write(const Statement& s, const TableSchema& table, const Inputs& inputs);

// An UPDATE's SET and REMOVE clauses checked as translate_write builds them
// (each value, then overlapping paths), for a caller that checks them before
// it looks for the table, as DynamoDB Local does; nothing for other statements.
void check_update_clauses(const Statement& s, const Parameters& parameters);

}  // namespace dynamod::partiql
