#pragma once
// BatchExecuteStatement: up to 25 statements, all reads (each naming one item
// by its whole primary key) or all writes. Each statement runs on its own: a
// failing one is reported in its slot and the others still run.

#include <optional>
#include <string>
#include <vector>

#include "protocol/partiql/requests.h"
#include "storage/partiql_ops.h"

namespace dynamod::ops {

struct PreparedStatementBatch {
  struct Member {
    std::optional<PreparedStatement> statement;
    std::optional<ApiError> error;  // why it could not be prepared
  };
  std::vector<Member> members;
  bool reads = false;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

// One statement's answer.
struct StatementOutcome {
  std::optional<std::string> table_name;  // once the statement reached its table
  std::optional<std::string> item_json;   // the item read, or a RETURNING image
  std::optional<ApiError> error;
};

struct StatementBatchResult {
  std::vector<StatementOutcome> outcomes;  // in statement order
  std::vector<ConsumedCapacity> consumed;  // per table
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

// Mixing reads and writes, and naming one item twice, fail the whole request.
PreparedStatementBatch prepare_statement_batch(Store& store, const Scope& scope,
                                               const partiql::BatchExecuteStatementRequest& request);
StatementBatchResult run_batch_reads(Store& store, const PreparedStatementBatch& batch);
// All writes in one writer job, one after another.
StatementBatchResult apply_batch_writes(WriteContext& ctx, const PreparedStatementBatch& batch);

}  // namespace dynamod::ops
