#pragma once
// Single-item operations: GetItem, PutItem, DeleteItem.
//
// Writes come in two halves: prepare_* validates the request against the
// table and builds everything that does not depend on the stored item (on an
// I/O thread, in parallel); apply_* runs on the writer, reads the current
// item, and writes. A table dropped between the two is detected in apply.

#include <optional>
#include <string>

#include "protocol/consumed_capacity.h"
#include "protocol/item_requests.h"
#include "protocol/key_validation.h"
#include "storage/catalog.h"
#include "storage/scope.h"
#include "storage/write_queue.h"

namespace dynamod::ops {

// Finds a data-plane table by name or ARN; ResourceNotFoundException if none.
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

struct PreparedPut {
  ItemLocation location;
  std::string record;  // the encoded new item
  std::uint64_t size = 0;
  ReturnValues return_values = ReturnValues::None;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

struct PreparedDelete {
  ItemLocation location;
  ReturnValues return_values = ReturnValues::None;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

struct WriteItemResult {
  std::optional<std::string> attributes_json;  // the Attributes member, rendered
  ConsumedCapacity consumed;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

PreparedPut prepare_put_item(Store& store, const Scope& scope, const PutItemRequest& request);
WriteItemResult apply_put_item(WriteContext& ctx, const PreparedPut& put);

PreparedDelete prepare_delete_item(Store& store, const Scope& scope, const DeleteItemRequest& request);
WriteItemResult apply_delete_item(WriteContext& ctx, const PreparedDelete& del);

}  // namespace dynamod::ops
