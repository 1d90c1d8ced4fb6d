#pragma once
// The accounting around each data-plane request: before it, whether the
// throughput model (--throttle) lets it start; after it, its units into the
// ledger and the throughput model, and its access pattern into the ledger.

#include <optional>
#include <string>
#include <string_view>

#include "protocol/api_error.h"
#include "protocol/attribute_value.h"
#include "protocol/consumed_capacity.h"
#include "protocol/key_validation.h"
#include "protocol/transact_requests.h"
#include "server/operations.h"
#include "storage/transaction_ops.h"
#include "storage/ledger.h"

namespace dynamod {

// The service's throttling error if the request may not start.
std::optional<ApiError> admit_read(OperationContext& ctx, const Table& table, const std::string& index,
                                   const AttributeValue* partition);
std::optional<ApiError> admit_write(OperationContext& ctx, const Table& table, const AttributeValue* partition);

// With --throttle: the TransactionCanceledException of a transaction whose
// items may not all start now (reasons ProvisionedThroughputExceeded or
// ThrottlingError for those, None for the others).
std::optional<ApiError> admit_transaction(OperationContext& ctx, const ops::PreparedTransaction& transaction);
std::optional<ApiError> admit_transaction(OperationContext& ctx, const TransactGetItemsRequest& request);

// What the request consumed. `table` may be null when the request never
// resolved its table (nothing is then charged to the throughput model).
void account(OperationContext& ctx, std::string_view operation, const Table* table, const ConsumedCapacity& consumed,
             const AttributeValue* partition);
void account_pattern(OperationContext& ctx, const PatternUse& use, const ConsumedCapacity& consumed);

// The access pattern of a single-item request on `table`.
PatternUse item_pattern(std::string_view operation, const Table& table, const Item& key_or_item);
PatternUse item_pattern(std::string_view operation, const Table& table, const PrimaryKey& key);

// The table a request names, or null if there is none (the operation itself
// then reports the error, in its own order of checks).
TablePtr find_table(const OperationContext& ctx, const std::string& name_or_arn);

// The units of a batch or transaction, per table, into the ledger and the
// throughput model; one access pattern per table (the shape of its first
// key). `first_keys`: (table name, Item or PrimaryKey).
template <class Key>
void account_tables(OperationContext& ctx, std::string_view operation, const std::vector<ConsumedCapacity>& consumed,
                    const std::vector<std::pair<std::string, Key>>& first_keys) {
  for (const ConsumedCapacity& c : consumed) {
    TablePtr table = find_table(ctx, c.table_name);
    account(ctx, operation, table.get(), c, nullptr);
    if (!table) continue;
    for (const auto& [name, key] : first_keys) {
      if (name == c.table_name) {
        account_pattern(ctx, item_pattern(operation, *table, key), c);
        break;
      }
    }
  }
}

}  // namespace dynamod
