#pragma once
// Requests of the single-item operations, decoded in one pass, and the checks
// that need no table: constraints on enums and names.

#include <optional>
#include <string>
#include <vector>

#include "protocol/attribute_value.h"
#include "protocol/consumed_capacity.h"
#include "protocol/expr/legacy.h"
#include "protocol/expr/placeholders.h"
#include "protocol/json_reader.h"

namespace dynamod {

enum class ReturnValues : std::uint8_t { None, AllOld, UpdatedOld, AllNew, UpdatedNew };

// The condition of a write, as an expression or in the legacy form.
struct ConditionParameters {
  std::optional<std::string> expression;           // ConditionExpression
  std::optional<expr::LegacyConditions> expected;  // Expected
  std::optional<std::string> conditional_operator;
};

// Members every write carries.
struct WriteParameters {
  std::optional<std::string> table_name;
  ConditionParameters condition;
  std::optional<expr::NameMap> names;    // ExpressionAttributeNames
  std::optional<expr::ValueMap> values;  // ExpressionAttributeValues
  ReturnValues return_values = ReturnValues::None;
  bool return_values_on_condition_failure = false;  // ALL_OLD
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
  bool return_item_collection_metrics = false;  // SIZE
};

struct PutItemRequest {
  WriteParameters write;
  std::optional<Item> item;
};

struct DeleteItemRequest {
  WriteParameters write;
  std::optional<Item> key;
};

struct UpdateItemRequest {
  WriteParameters write;
  std::optional<Item> key;
  std::optional<std::string> update_expression;
  std::optional<expr::LegacyUpdates> attribute_updates;
};

struct GetItemRequest {
  std::optional<std::string> table_name;
  std::optional<Item> key;
  std::optional<std::string> projection_expression;
  std::optional<expr::NameMap> names;
  std::optional<std::vector<std::string>> attributes_to_get;
  bool consistent_read = false;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

// Decoding reads the whole body first (so a SerializationException anywhere
// wins), then reports every constraint violation in one ValidationException.
PutItemRequest decode_put_item(json::object body);
GetItemRequest decode_get_item(json::object body);
DeleteItemRequest decode_delete_item(json::object body);
UpdateItemRequest decode_update_item(json::object body);

// Shared pieces of request decoding for every operation family.
namespace decode {

// Ranks order constraint violations as the service lists them.
enum Rank : int {
  kRankTableName,
  kRankItem,
  kRankSelect,
  kRankLimit,
  kRankReturnValues,
  kRankConsumedCapacity,
  kRankCollectionMetrics,
  kRankConditionFailure,
  kRankSegment,
};

ReturnValues return_values(json::value& v, ConstraintErrors& errors);
ReturnConsumedCapacity return_consumed_capacity(json::value& v, ConstraintErrors& errors);
bool return_item_collection_metrics(json::value& v, ConstraintErrors& errors);
bool return_values_on_condition_failure(json::value& v, ConstraintErrors& errors);
std::optional<expr::NameMap> attribute_names(json::value& v);
std::optional<expr::ValueMap> attribute_values(json::value& v);
std::optional<std::string> optional_string(json::value& v);
// ClientRequestToken (TransactWriteItems, ExecuteTransaction): 1 to 36 characters.
void check_client_request_token(const std::optional<std::string>& token, ConstraintErrors& errors, int rank = 0);
std::optional<Item> optional_item(json::value& v);
bool optional_bool(json::value& v);
// A member shared by every write (TableName, conditions, placeholders, Return*).
// Returns false if `key` is not one of them.
bool write_member(std::string_view key, json::value& value, WriteParameters& w, ConstraintErrors& errors);

}  // namespace decode

// Data-plane TableName: a name of 1..255 characters or a table ARN.
void check_data_table_name(const std::optional<std::string>& name, ConstraintErrors& errors);

}  // namespace dynamod
