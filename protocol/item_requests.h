#pragma once
// Requests of the single-item operations, decoded in one pass, and the checks
// that need no table: constraints on enums and names, and parameter mixing.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "protocol/attribute_value.h"
#include "protocol/consumed_capacity.h"
#include "protocol/json_reader.h"

namespace dynamod {

enum class ReturnValues : std::uint8_t { None, AllOld, UpdatedOld, AllNew, UpdatedNew };

// Members every write may carry.
struct ExpressionParameters {
  std::optional<std::string> condition_expression;
  std::optional<std::map<std::string, std::string>> names;   // ExpressionAttributeNames
  std::optional<std::map<std::string, AttributeValue>> values;  // ExpressionAttributeValues
};

struct PutItemRequest {
  std::optional<std::string> table_name;
  std::optional<Item> item;
  ExpressionParameters expression;
  bool has_expected = false;            // legacy Expected
  bool has_conditional_operator = false;
  ReturnValues return_values = ReturnValues::None;
  bool return_values_on_condition_failure = false;  // ALL_OLD
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
  bool return_item_collection_metrics = false;  // SIZE
};

struct GetItemRequest {
  std::optional<std::string> table_name;
  std::optional<Item> key;
  std::optional<std::string> projection_expression;
  std::optional<std::map<std::string, std::string>> names;
  std::optional<std::vector<std::string>> attributes_to_get;
  bool consistent_read = false;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

struct DeleteItemRequest {
  std::optional<std::string> table_name;
  std::optional<Item> key;
  ExpressionParameters expression;
  bool has_expected = false;
  bool has_conditional_operator = false;
  ReturnValues return_values = ReturnValues::None;
  bool return_values_on_condition_failure = false;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
  bool return_item_collection_metrics = false;
};

// Decoding reads the whole body first (so a SerializationException anywhere
// wins), then reports every constraint violation in one ValidationException.
PutItemRequest decode_put_item(json::object body);
GetItemRequest decode_get_item(json::object body);
DeleteItemRequest decode_delete_item(json::object body);

// Shared pieces of request decoding for every operation family.
namespace decode {

// Ranks order constraint violations as the service lists them.
enum Rank : int { kRankTableName, kRankItem, kRankReturnValues, kRankConsumedCapacity, kRankCollectionMetrics,
                  kRankConditionFailure };

ReturnValues return_values(json::value& v, ConstraintErrors& errors);
ReturnConsumedCapacity return_consumed_capacity(json::value& v, ConstraintErrors& errors);
bool return_item_collection_metrics(json::value& v, ConstraintErrors& errors);
bool return_values_on_condition_failure(json::value& v, ConstraintErrors& errors);
std::optional<std::map<std::string, std::string>> attribute_names(json::value& v);
std::optional<std::map<std::string, AttributeValue>> attribute_values(json::value& v);
std::optional<std::string> optional_string(json::value& v);

}  // namespace decode

// Data-plane TableName: a name of 1..255 characters or a table ARN.
void check_data_table_name(const std::optional<std::string>& name, ConstraintErrors& errors);

}  // namespace dynamod
