#pragma once
// TransactWriteItems and TransactGetItems.
//
// A write transaction runs as one writer job: every action is planned
// (conditions, updates, index entries, collection limits) against the state
// before the transaction, then either all are applied or the transaction is
// cancelled with one reason per action. The single writer thread serialises
// transactions with every other write, so there are no conflicts to report.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "protocol/transact_requests.h"
#include "storage/item_ops.h"

namespace dynamod::ops {

struct PreparedTransaction {
  struct Action {
    TransactWriteAction::Kind kind = TransactWriteAction::Kind::Put;
    std::optional<PreparedPut> put;
    std::optional<PreparedDelete> del;  // also ConditionCheck
    std::optional<PreparedUpdate> update;
    std::optional<ApiError> validation_error;  // found while preparing
    // False for an action left unprepared because one before it failed
    // (validation_error), which cancels the transaction before it is reached.
    bool prepared() const { return put || update || del; }
    const PreparedWrite& write() const { return put ? put->write : update ? update->write : del->write; }
  };
  std::vector<Action> actions;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
  bool return_item_collection_metrics = false;
  std::optional<std::string> token_key;  // namespace \0 ClientRequestToken
  std::string digest;                    // of the request, for token replays
  std::int64_t now_ms = 0;
};

// One CancellationReasons entry of a TransactionCanceledException.
struct CancellationReason {
  std::string code = "None";
  std::string message;
  std::string item_json;  // "\"Item\":{...}" for ConditionalCheckFailed with ALL_OLD
};

// The service's TransactionCanceledException for these reasons (one per action).
ApiError transaction_cancelled(const std::vector<CancellationReason>& reasons);

struct TransactWriteResult {
  std::vector<ConsumedCapacity> consumed;  // per table
  std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>> item_collection_metrics;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
  std::optional<ApiError> failure;  // TransactionCanceledException
};

// Validates the request; an action whose key does not fit its table is
// cancelled later (with a ValidationError reason), not refused here.
PreparedTransaction prepare_transact_write(Store& store, const Scope& scope, TransactWriteItemsRequest request,
                                           std::int64_t now_ms);
TransactWriteResult apply_transact_write(WriteContext& ctx, const PreparedTransaction& transaction);

struct TransactGetResult {
  std::vector<std::optional<std::string>> items;  // per action: the Item member, rendered
  std::vector<ConsumedCapacity> consumed;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
  std::optional<ApiError> failure;  // TransactionCanceledException
};

TransactGetResult transact_get(Store& store, const Scope& scope, const TransactGetItemsRequest& request);

}  // namespace dynamod::ops
