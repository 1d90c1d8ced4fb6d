#include "protocol/transact_requests.h"

#include "protocol/attribute_json.h"
#include "protocol/item_requests.h"
#include "protocol/json_writer.h"

namespace dynamod {
namespace {

const char* kind_member(TransactWriteAction::Kind kind) {
  switch (kind) {
    case TransactWriteAction::Kind::ConditionCheck: return "conditionCheck";
    case TransactWriteAction::Kind::Put: return "put";
    case TransactWriteAction::Kind::Delete: return "delete";
    case TransactWriteAction::Kind::Update: return "update";
  }
  return "put";
}

TransactWriteAction decode_write_action(json::value& v, std::size_t position, ConstraintErrors& errors) {
  TransactWriteAction action;
  int kinds = 0;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (json::is_null(value)) continue;
    TransactWriteAction::Kind kind;
    if (key == "ConditionCheck") kind = TransactWriteAction::Kind::ConditionCheck;
    else if (key == "Put") kind = TransactWriteAction::Kind::Put;
    else if (key == "Delete") kind = TransactWriteAction::Kind::Delete;
    else if (key == "Update") kind = TransactWriteAction::Kind::Update;
    else continue;
    ++kinds;
    action.kind = kind;
    for (auto member : json::read_object(value)) {
      std::string_view mkey = member.unescaped_key().value();
      json::value m = member.value();
      if (mkey == "TableName") action.table_name = decode::optional_string(m);
      else if (mkey == "Item") action.item = decode::optional_item(m);
      else if (mkey == "Key") action.key = decode::optional_item(m);
      else if (mkey == "ConditionExpression") action.condition_expression = decode::optional_string(m);
      else if (mkey == "UpdateExpression") action.update_expression = decode::optional_string(m);
      else if (mkey == "ExpressionAttributeNames") action.names = decode::attribute_names(m);
      else if (mkey == "ExpressionAttributeValues") action.values = decode::attribute_values(m);
      else if (mkey == "ReturnValuesOnConditionCheckFailure") {
        action.return_old_on_condition_failure = decode::return_values_on_condition_failure(m, errors);
      }
    }
  }
  if (kinds > 1) throw ApiError::validation("TransactItems can only contain one of Check, Put, Update or Delete");
  if (kinds == 0) {
    throw ApiError::validation("Invalid Request: TransactWriteRequest should contain Delete or Put or Update request");
  }
  std::string path = "transactItems." + std::to_string(position) + ".member." + kind_member(action.kind) + ".";
  using Kind = TransactWriteAction::Kind;
  if (!action.table_name) errors.add_null(path + "tableName", "Member must not be null");
  if (action.kind == Kind::Put && !action.item) errors.add_null(path + "item", "Member must not be null");
  if (action.kind != Kind::Put && !action.key) errors.add_null(path + "key", "Member must not be null");
  if (action.kind == Kind::ConditionCheck && !action.condition_expression) {
    errors.add_null(path + "conditionExpression", "Member must not be null");
  }
  if (action.kind == Kind::Update && !action.update_expression) {
    errors.add_null(path + "updateExpression", "Member must not be null");
  }
  return action;
}

void check_action_count(std::size_t count, ConstraintErrors& errors) {
  if (count == 0) {
    errors.add("[]", "transactItems", "Member must have length greater than or equal to 1");
  } else if (count > kMaxTransactionActions) {
    errors.add_unechoed("TransactItems", "Member must have length less than or equal to 100");
  }
}

}  // namespace

TransactWriteItemsRequest decode_transact_write_items(json::object body) {
  TransactWriteItemsRequest r;
  ConstraintErrors errors;
  bool has_items = false;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TransactItems") {
      if (json::is_null(value)) continue;
      has_items = true;
      for (auto element : json::read_array(value)) {
        json::value action = element.value();
        r.actions.push_back(decode_write_action(action, r.actions.size() + 1, errors));
      }
    } else if (key == "ReturnConsumedCapacity") {
      r.return_consumed_capacity = decode::return_consumed_capacity(value, errors);
    } else if (key == "ReturnItemCollectionMetrics") {
      r.return_item_collection_metrics = decode::return_item_collection_metrics(value, errors);
    } else if (key == "ClientRequestToken") {
      r.client_request_token = decode::optional_string(value);
    }
  }
  if (!has_items) errors.add_null("transactItems", "Member must not be null");
  else check_action_count(r.actions.size(), errors);
  decode::check_client_request_token(r.client_request_token, errors);
  errors.throw_if_any();
  return r;
}

TransactGetItemsRequest decode_transact_get_items(json::object body) {
  TransactGetItemsRequest r;
  ConstraintErrors errors;
  bool has_items = false;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TransactItems") {
      if (json::is_null(value)) continue;
      has_items = true;
      for (auto element : json::read_array(value)) {
        json::value action = element.value();
        TransactGetAction get;
        bool has_get = false;
        for (auto kind : json::read_object(action)) {
          json::value spec = kind.value();
          if (kind.unescaped_key().value() != "Get" || json::is_null(spec)) continue;
          has_get = true;
          for (auto member : json::read_object(spec)) {
            std::string_view mkey = member.unescaped_key().value();
            json::value m = member.value();
            if (mkey == "TableName") get.table_name = decode::optional_string(m);
            else if (mkey == "Key") get.key = decode::optional_item(m);
            else if (mkey == "ProjectionExpression") get.projection_expression = decode::optional_string(m);
            else if (mkey == "ExpressionAttributeNames") get.names = decode::attribute_names(m);
          }
        }
        std::string path = "transactItems." + std::to_string(r.actions.size() + 1) + ".member.get";
        if (!has_get) errors.add_null(path, "Member must not be null");
        else if (!get.table_name) errors.add_null(path + ".tableName", "Member must not be null");
        else if (!get.key) errors.add_null(path + ".key", "Member must not be null");
        r.actions.push_back(std::move(get));
      }
    } else if (key == "ReturnConsumedCapacity") {
      r.return_consumed_capacity = decode::return_consumed_capacity(value, errors);
    }
  }
  if (!has_items) errors.add_null("transactItems", "Member must not be null");
  else check_action_count(r.actions.size(), errors);
  errors.throw_if_any();
  return r;
}

std::string request_digest(const TransactWriteItemsRequest& request) {
  JsonWriter out;
  out.begin_array();
  for (const auto& a : request.actions) {
    out.begin_object();
    out.key("k");
    out.integer(static_cast<int>(a.kind));
    out.key("t");
    out.string(a.table_name.value_or(""));
    if (a.item) {
      out.key("i");
      encode_item(out, *a.item);
    }
    if (a.key) {
      out.key("key");
      encode_item(out, *a.key);
    }
    if (a.condition_expression) {
      out.key("c");
      out.string(*a.condition_expression);
    }
    if (a.update_expression) {
      out.key("u");
      out.string(*a.update_expression);
    }
    if (a.names) {
      out.key("n");
      out.begin_object();
      for (const auto& [k, v] : *a.names) {
        out.key(k);
        out.string(v);
      }
      out.end_object();
    }
    if (a.values) {
      out.key("v");
      out.begin_object();
      for (const auto& [k, v] : *a.values) {
        out.key(k);
        encode_attribute_value(out, v);
      }
      out.end_object();
    }
    out.key("r");
    out.boolean(a.return_old_on_condition_failure);
    out.end_object();
  }
  out.end_array();
  out.boolean(request.return_item_collection_metrics);
  return out.take();
}

}  // namespace dynamod
