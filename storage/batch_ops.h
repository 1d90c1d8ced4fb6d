#pragma once
// BatchGetItem and BatchWriteItem.

#include <optional>
#include <string>
#include <vector>

#include "protocol/batch_requests.h"
#include "protocol/consumed_capacity.h"
#include "storage/item_ops.h"

namespace dynamod::ops {

struct BatchGetResult {
  // Per table in request order: its name and its items, rendered.
  std::vector<std::pair<std::string, std::vector<std::string>>> responses;
  // Keys left for a next call once the answer reached 16 MB, per table (index into the request).
  std::vector<std::pair<std::size_t, std::vector<Item>>> unprocessed;
  std::vector<ConsumedCapacity> consumed;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

BatchGetResult batch_get_item(Store& store, const Scope& scope, const BatchGetItemRequest& request);

struct PreparedBatchWrite {
  struct Entry {
    std::size_t table_index = 0;  // into `tables`
    std::optional<PreparedPut> put;
    std::optional<PreparedDelete> del;
  };
  std::vector<std::string> tables;  // names in request order
  std::vector<Entry> entries;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
  bool return_item_collection_metrics = false;
};

struct BatchWriteResult {
  std::vector<ConsumedCapacity> consumed;  // per table
  // Per table with local indexes: the collections written.
  std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>> item_collection_metrics;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

PreparedBatchWrite prepare_batch_write(Store& store, const Scope& scope, BatchWriteItemRequest request);
BatchWriteResult apply_batch_write(WriteContext& ctx, const PreparedBatchWrite& batch);

}  // namespace dynamod::ops
