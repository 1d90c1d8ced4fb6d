#include "protocol/batch_requests.h"

#include "protocol/attribute_json.h"
#include "protocol/expr/legacy_json.h"
#include "protocol/item_requests.h"

namespace dynamod {
namespace {

BatchGetTable decode_get_table(std::string name, json::value& v) {
  BatchGetTable t;
  t.table_name = std::move(name);
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "Keys") {
      if (json::is_null(value)) continue;
      for (auto element : json::read_array(value)) {
        json::value k = element.value();
        t.keys.push_back(decode_item(k));
      }
    } else if (key == "ProjectionExpression") {
      t.projection_expression = decode::optional_string(value);
    } else if (key == "ExpressionAttributeNames") {
      t.names = decode::attribute_names(value);
    } else if (key == "AttributesToGet") {
      if (!json::is_null(value)) t.attributes_to_get = expr::decode_attributes_to_get(value);
    } else if (key == "ConsistentRead") {
      t.consistent_read = decode::optional_bool(value);
    }
  }
  return t;
}

BatchWriteRequest decode_write_request(json::value& v) {
  BatchWriteRequest r;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (json::is_null(value)) continue;
    if (key == "PutRequest") {
      r.put_item.emplace();
      bool has_item = false;
      for (auto member : json::read_object(value)) {
        std::string_view mkey = member.unescaped_key().value();
        json::value mvalue = member.value();
        if (mkey == "Item" && !json::is_null(mvalue)) {
          r.put_item = decode_item(mvalue);
          has_item = true;
        }
      }
      if (!has_item) {
        throw ApiError::validation("1 validation error detected: Value null at 'requestItems.member.putRequest.item' "
                                   "failed to satisfy constraint: Member must not be null");
      }
    } else if (key == "DeleteRequest") {
      bool has_key = false;
      for (auto member : json::read_object(value)) {
        std::string_view mkey = member.unescaped_key().value();
        json::value mvalue = member.value();
        if (mkey == "Key" && !json::is_null(mvalue)) {
          r.delete_key = decode_item(mvalue);
          has_key = true;
        }
      }
      if (!has_key) {
        throw ApiError::validation("1 validation error detected: Value null at 'requestItems.member.deleteRequest.key' "
                                   "failed to satisfy constraint: Member must not be null");
      }
    }
  }
  return r;
}

}  // namespace

BatchGetItemRequest decode_batch_get_item(json::object body) {
  BatchGetItemRequest r;
  ConstraintErrors errors;
  bool has_items = false;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "RequestItems") {
      if (json::is_null(value)) continue;
      has_items = true;
      for (auto table : json::read_object(value)) {
        std::string name(table.unescaped_key().value());
        json::value spec = table.value();
        r.tables.push_back(decode_get_table(std::move(name), spec));
      }
    } else if (key == "ReturnConsumedCapacity") {
      r.return_consumed_capacity = decode::return_consumed_capacity(value, errors);
    }
  }
  errors.throw_if_any();
  if (!has_items || r.tables.empty()) {
    throw ApiError::validation("The requestItems parameter is required for BatchGetItem");
  }
  return r;
}

BatchWriteItemRequest decode_batch_write_item(json::object body) {
  BatchWriteItemRequest r;
  ConstraintErrors errors;
  bool has_items = false;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "RequestItems") {
      if (json::is_null(value)) continue;
      has_items = true;
      for (auto table : json::read_object(value)) {
        BatchWriteTable t;
        t.table_name = std::string(table.unescaped_key().value());
        json::value list = table.value();
        for (auto element : json::read_array(list)) {
          json::value request = element.value();
          t.requests.push_back(decode_write_request(request));
        }
        r.tables.push_back(std::move(t));
      }
    } else if (key == "ReturnConsumedCapacity") {
      r.return_consumed_capacity = decode::return_consumed_capacity(value, errors);
    } else if (key == "ReturnItemCollectionMetrics") {
      r.return_item_collection_metrics = decode::return_item_collection_metrics(value, errors);
    }
  }
  errors.throw_if_any();
  if (!has_items || r.tables.empty()) {
    throw ApiError::validation("The requestItems parameter is required for BatchWriteItem");
  }
  return r;
}

}  // namespace dynamod
