#pragma once
// BatchGetItem and BatchWriteItem requests.

#include <optional>
#include <string>
#include <vector>

#include "protocol/attribute_value.h"
#include "protocol/consumed_capacity.h"
#include "protocol/expr/placeholders.h"
#include "protocol/json_reader.h"

namespace dynamod {

inline constexpr std::size_t kMaxBatchGetKeys = 100;
inline constexpr std::size_t kMaxBatchWriteRequests = 25;

struct BatchGetTable {
  std::string table_name;
  std::vector<Item> keys;
  std::optional<std::string> projection_expression;
  std::optional<expr::NameMap> names;
  std::optional<std::vector<std::string>> attributes_to_get;
  bool consistent_read = false;
};

struct BatchGetItemRequest {
  std::vector<BatchGetTable> tables;  // in request order
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

struct BatchWriteRequest {
  std::optional<Item> put_item;    // PutRequest.Item
  std::optional<Item> delete_key;  // DeleteRequest.Key
};

struct BatchWriteTable {
  std::string table_name;
  std::vector<BatchWriteRequest> requests;
};

struct BatchWriteItemRequest {
  std::vector<BatchWriteTable> tables;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
  bool return_item_collection_metrics = false;
};

BatchGetItemRequest decode_batch_get_item(json::object body);
BatchWriteItemRequest decode_batch_write_item(json::object body);

}  // namespace dynamod
