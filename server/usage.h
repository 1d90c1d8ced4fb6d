#pragma once
// The accounting around each data-plane request: before it, whether the
// throughput model (--throttle) lets it start; after it, its units into the
// ledger and the throughput model, and its access pattern into the ledger.

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/api_error.h"
#include "protocol/attribute_value.h"
#include "protocol/consumed_capacity.h"
#include "protocol/key_validation.h"
#include "protocol/transact_requests.h"
#include "server/operations.h"
#include "storage/ledger.h"
#include "storage/read_ops.h"
#include "storage/transaction_ops.h"

namespace dynamod {

// The partition a keyed read goes to, as the throttler tells partitions apart:
// the key condition's partition value, or for a multi-attribute key all its
// partition values together (one binary value, built in `combined`), so that
// each combination is a partition of its own; null for a Scan.
const AttributeValue* read_partition(const ReadSpec& spec, std::optional<AttributeValue>& combined);

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
// `partition` is the key the request reached: the table's, or a global
// index's when `index_key` (that one counts for throttling, not among the
// table's hot keys).
void account(OperationContext& ctx, std::string_view operation, const Table* table, const ConsumedCapacity& consumed,
             const AttributeValue* partition, bool index_key = false);
// The same for a single-item request, with its access pattern (its key's shape).
void account_item(OperationContext& ctx, std::string_view operation, const Table& table, const Item& key_or_item,
                  const ConsumedCapacity& consumed);
void account_item(OperationContext& ctx, std::string_view operation, const Table& table, const PrimaryKey& key,
                  const ConsumedCapacity& consumed);
// The same for a Query or Scan of `spec`; the pattern is the read's shape,
// after `shape_prefix` (PartiQL names itself there).
void account_read(OperationContext& ctx, std::string_view operation, const Table& table, const ReadSpec& spec,
                  const ops::ReadResult& result, std::string_view shape_prefix = {});

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
    auto first =
        std::find_if(first_keys.begin(), first_keys.end(), [&](const auto& k) { return k.first == c.table_name; });
    if (table && first != first_keys.end()) {
      account_item(ctx, operation, *table, first->second, c);
    } else {
      account(ctx, operation, table.get(), c, nullptr);
    }
  }
}

}  // namespace dynamod
