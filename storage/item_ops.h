#pragma once
// Single-item operations: GetItem, PutItem, UpdateItem, DeleteItem.
//
// Writes come in two halves: prepare_* validates the request against the
// table and parses its expressions (on an I/O thread, in parallel); apply_*
// runs on the writer, reads the current item, checks the condition and
// writes. A table dropped between the two is detected in apply. A failed
// condition is an outcome, not an exception: it comes back in `failure`,
// billed like the write it replaced.

#include <optional>
#include <string>
#include <vector>

#include "protocol/consumed_capacity.h"
#include "protocol/expr/ast.h"
#include "protocol/item_expressions.h"
#include "protocol/item_requests.h"
#include "protocol/key_validation.h"
#include "storage/catalog.h"
#include "storage/item_change_fwd.h"
#include "storage/scope.h"
#include "storage/write_queue.h"

namespace dynamod::ops {

// Finds a data-plane table by name or ARN; ResourceNotFoundException if none
// or if it is CREATING (an import still fills it).
TablePtr resolve_table(Store& store, const Scope& scope, const std::string& name_or_arn);

struct GetItemResult {
  std::optional<std::string> item_json;  // the Item member, rendered
  ConsumedCapacity consumed;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

GetItemResult get_item(Store& store, const Scope& scope, const GetItemRequest& request);

// The stored location of one item.
struct ItemLocation {
  TablePtr table;
  PrimaryKey key;
  std::string stored_key;  // LMDB key
  std::string key_image;   // kept in the record to detect hash collisions
};

ItemLocation locate(TablePtr table, PrimaryKey key);

// What every prepared write carries besides its own payload.
struct PreparedWrite {
  ItemLocation location;
  expr::Condition condition;  // empty: unconditional
  ReturnValues return_values = ReturnValues::None;
  bool return_old_on_condition_failure = false;
  // Reported instead of ConditionalCheckFailedException when the condition
  // fails (PartiQL's INSERT: DuplicateItemException).
  std::optional<ApiError> condition_failure;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
  bool return_item_collection_metrics = false;
};

struct PreparedPut {
  PreparedWrite write;
  std::optional<Item> item;  // kept for tables with indexes (their entries)
  std::string record;        // the encoded new item
  std::uint64_t size = 0;
};

struct PreparedDelete {
  PreparedWrite write;
};

struct PreparedUpdate {
  PreparedWrite write;
  expr::UpdateActions actions;
  // A standalone UpdateItem's UpdateExpression is measured by what it writes as well as by its
  // finished item (metering::update_written_size); a transacted or PartiQL update by the item alone.
  bool measure_written = false;
};

struct WriteItemResult {
  std::optional<std::string> attributes_json;  // the Attributes member, rendered
  ConsumedCapacity consumed;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
  std::optional<ItemCollectionMetrics> item_collection_metrics;
  std::optional<ApiError> failure;  // ConditionalCheckFailedException
};

PreparedPut prepare_put_item(Store& store, const Scope& scope, PutItemRequest request, bool in_transaction = false);
PreparedDelete prepare_delete_item(Store& store, const Scope& scope, const DeleteItemRequest& request,
                                   bool in_transaction = false);
PreparedUpdate prepare_update_item(Store& store, const Scope& scope, const UpdateItemRequest& request,
                                   bool in_transaction = false);
// The same with the expressions already built (PartiQL translates its
// statements straight into ASTs); the request's expression members are unused.
PreparedPut prepare_put_item(Store& store, const Scope& scope, PutItemRequest request, ItemExpressions expressions);
PreparedDelete prepare_delete_item(Store& store, const Scope& scope, const DeleteItemRequest& request,
                                   ItemExpressions expressions);
PreparedUpdate prepare_update_item(Store& store, const Scope& scope, const UpdateItemRequest& request,
                                   ItemExpressions expressions);
// An unconditional put of a loaded item (an import's, a seed's) into `table`,
// whatever its status: ImportTable fills its table while it is CREATING.
PreparedPut prepare_loaded_put(Store& store, TablePtr table, Item item);

// A write checked (condition) and planned (indexes, limits) on the writer,
// not yet applied: batches and transactions plan every write first, so a
// failure leaves nothing half-written. `change` is null when nothing is to be
// written (a failed condition, a delete of a missing item...).
struct PlannedWrite {
  TablePtr table;
  std::unique_ptr<ItemChange> change;
  WriteItemResult result;
};

PlannedWrite plan_put_item(WriteContext& ctx, const PreparedPut& put, CollectionSizes& sizes,
                           bool transactional = false);
PlannedWrite plan_delete_item(WriteContext& ctx, const PreparedDelete& del, CollectionSizes& sizes,
                              bool transactional = false);
PlannedWrite plan_update_item(WriteContext& ctx, const PreparedUpdate& update, CollectionSizes& sizes,
                              bool transactional = false);
// A transaction's ConditionCheck: the condition, billed as a write of the item.
PlannedWrite plan_condition_check(WriteContext& ctx, const PreparedWrite& check, bool transactional);
// Writes a planned change and completes its result (index capacity, item collection).
void apply_write(WriteContext& ctx, PlannedWrite& planned, bool transactional = false);

WriteItemResult apply_put_item(WriteContext& ctx, const PreparedPut& put);
WriteItemResult apply_delete_item(WriteContext& ctx, const PreparedDelete& del);
WriteItemResult apply_update_item(WriteContext& ctx, const PreparedUpdate& update);

}  // namespace dynamod::ops
