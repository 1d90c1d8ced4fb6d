#pragma once
// PartiQL statements run as the JSON operations they stand for. A parsed
// statement (protocol/partiql) is resolved against its table, translated
// into a ReadSpec or a PutItem / UpdateItem / DeleteItem request with its
// expressions, and prepared and applied by the same code as those
// operations: capacity, index maintenance, streams, item-collection limits
// and conditions behave alike.

#include <optional>

#include "protocol/partiql/ast.h"
#include "protocol/partiql/translate.h"
#include "storage/item_ops.h"
#include "storage/read_ops.h"

namespace dynamod::ops {

// EXISTS(...) is a condition check: only ExecuteTransaction runs one.
// What a batch says of DDL and of PartiQL's own INSERT form.
inline constexpr std::string_view kBatchOnlyDml =
    "Invalid operation. Only select, insert, update and delete operations are valid";
inline constexpr std::string_view kExistsOutsideTransaction =
    "EXISTS can only be used in ExecuteTransaction write requests.";

struct PreparedStatement {
  partiql::StatementKind kind = partiql::StatementKind::Select;
  TablePtr table;
  std::optional<partiql::ReadPlan> read;  // SELECT; its spec.index points into table->schema
  std::optional<PreparedPut> put;         // INSERT
  std::optional<PreparedUpdate> update;   // UPDATE
  std::optional<PreparedDelete> del;      // DELETE; EXISTS (the key and condition it checks)

  const PreparedWrite& write() const { return put ? put->write : update ? update->write : del->write; }
};

// Counts the parameters, resolves the table (ResourceNotFoundException), then
// translates and prepares the statement. An INSERT's failed condition is
// DuplicateItemException.
PreparedStatement prepare_statement(Store& store, const Scope& scope, const partiql::Statement& statement,
                                    const partiql::Inputs& inputs);

// A SELECT: one page of a Query (the WHERE clause fixes the partition key) or a Scan.
ReadResult run_select(Store& store, const PreparedStatement& statement);

// An INSERT, UPDATE or DELETE (or an EXISTS check) checked and planned on
// the writer; apply with apply_write. An INSERT whose key exists fails with
// DuplicateItemException (in a transaction: reason DuplicateItem).
PlannedWrite plan_statement(WriteContext& ctx, const PreparedStatement& statement, CollectionSizes& sizes);
// plan_statement and apply_write in one.
WriteItemResult apply_statement(WriteContext& ctx, const PreparedStatement& statement);

}  // namespace dynamod::ops
