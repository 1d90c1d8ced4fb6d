#pragma once
// ExecuteTransaction: up to 100 statements, all writes (INSERT, UPDATE,
// DELETE and EXISTS checks), run as one TransactWriteItems, or all whole-key
// SELECTs, run as one TransactGetItems: the same atomicity, cancellation
// reasons, capacity and ClientRequestToken window.

#include <cstdint>
#include <optional>
#include <vector>

#include "protocol/partiql/requests.h"
#include "storage/partiql_ops.h"
#include "storage/transaction_ops.h"

namespace dynamod::ops {

struct PreparedStatementTransaction {
  bool reads = false;
  PreparedTransaction writes;    // when !reads
  TransactGetItemsRequest gets;  // when reads
  // Per read: its select list (paths and the names they come back under); empty: the whole item.
  std::vector<std::pair<std::vector<expr::Path>, std::vector<std::string>>> select_lists;
  // A read whose key is missing, mistyped or empty cancels the reads (a
  // ValidationError reason for it, None for the others).
  std::optional<ApiError> read_failure;
};

// Statement problems are "Validation failed in TransactStatements[i]: ..."
// (grammar errors keep their own text); mixing reads and writes, or naming
// one item twice, fails the whole request.
PreparedStatementTransaction prepare_statement_transaction(Store& store, const Scope& scope,
                                                           const partiql::ExecuteTransactionRequest& request,
                                                           std::int64_t now_ms);

// The reads, with their select lists applied. Writes: apply_transact_write(ctx, prepared.writes).
TransactGetResult run_transaction_reads(Store& store, const Scope& scope, const PreparedStatementTransaction& t);

}  // namespace dynamod::ops
