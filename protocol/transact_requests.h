#pragma once
// TransactWriteItems and TransactGetItems requests.

#include <optional>
#include <string>
#include <vector>

#include "protocol/attribute_value.h"
#include "protocol/consumed_capacity.h"
#include "protocol/expr/placeholders.h"
#include "protocol/json_reader.h"

namespace dynamod {

inline constexpr std::size_t kMaxTransactionActions = 100;
inline constexpr std::uint64_t kMaxTransactionPayload = 4ull << 20;

struct TransactWriteAction {
  enum class Kind : std::uint8_t { ConditionCheck, Put, Delete, Update };
  Kind kind = Kind::Put;
  std::optional<std::string> table_name;
  std::optional<Item> item;  // Put
  std::optional<Item> key;   // ConditionCheck, Delete, Update
  std::optional<std::string> condition_expression;
  std::optional<std::string> update_expression;
  std::optional<expr::NameMap> names;
  std::optional<expr::ValueMap> values;
  bool return_old_on_condition_failure = false;
};

struct TransactWriteItemsRequest {
  std::vector<TransactWriteAction> actions;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
  bool return_item_collection_metrics = false;
  std::optional<std::string> client_request_token;
};

struct TransactGetAction {
  std::optional<std::string> table_name;
  std::optional<Item> key;
  std::optional<std::string> projection_expression;
  std::optional<expr::NameMap> names;
};

struct TransactGetItemsRequest {
  std::vector<TransactGetAction> actions;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

TransactWriteItemsRequest decode_transact_write_items(json::object body);
TransactGetItemsRequest decode_transact_get_items(json::object body);

// A stable digest of what a TransactWriteItems request asks for (not how it
// wants capacity reported): equal requests under one ClientRequestToken.
std::string request_digest(const TransactWriteItemsRequest& request);

}  // namespace dynamod
