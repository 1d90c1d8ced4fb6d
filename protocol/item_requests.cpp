#include "protocol/item_requests.h"

#include <algorithm>
#include <utility>

#include "protocol/attribute_json.h"
#include "protocol/expr/legacy_json.h"
#include "protocol/table_requests.h"
#include "protocol/utf8.h"

namespace dynamod {
namespace decode {

std::optional<std::string> optional_string(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  return std::string(json::read_string(v));
}

void check_client_request_token(const std::optional<std::string>& token, ConstraintErrors& errors, int rank) {
  if (!token) return;
  const std::size_t length = code_points(*token);
  if (length < 1) {
    errors.add(*token, "clientRequestToken", "Member must have length greater than or equal to 1", rank);
  } else if (length > 36) {
    errors.add(*token, "clientRequestToken", "Member must have length less than or equal to 36", rank);
  }
}

ReturnValues return_values(json::value& v, ConstraintErrors& errors) {
  std::optional<std::string> s = optional_string(v);
  if (!s || *s == "NONE") return ReturnValues::None;
  if (*s == "ALL_OLD") return ReturnValues::AllOld;
  if (*s == "UPDATED_OLD") return ReturnValues::UpdatedOld;
  if (*s == "ALL_NEW") return ReturnValues::AllNew;
  if (*s == "UPDATED_NEW") return ReturnValues::UpdatedNew;
  errors.add(*s, "returnValues",
             "Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]",
             kRankReturnValues);
  return ReturnValues::None;
}

ReturnConsumedCapacity return_consumed_capacity(json::value& v, ConstraintErrors& errors) {
  std::optional<std::string> s = optional_string(v);
  if (!s || *s == "NONE") return ReturnConsumedCapacity::None;
  if (*s == "TOTAL") return ReturnConsumedCapacity::Total;
  if (*s == "INDEXES") return ReturnConsumedCapacity::Indexes;
  errors.add(*s, "returnConsumedCapacity", "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]",
             kRankConsumedCapacity);
  return ReturnConsumedCapacity::None;
}

bool return_item_collection_metrics(json::value& v, ConstraintErrors& errors) {
  std::optional<std::string> s = optional_string(v);
  if (!s || *s == "NONE") return false;
  if (*s == "SIZE") return true;
  errors.add(*s, "returnItemCollectionMetrics", "Member must satisfy enum value set: [SIZE, NONE]",
             kRankCollectionMetrics);
  return false;
}

bool return_values_on_condition_failure(json::value& v, ConstraintErrors& errors) {
  std::optional<std::string> s = optional_string(v);
  if (!s || *s == "NONE") return false;
  if (*s == "ALL_OLD") return true;
  errors.add(*s, "returnValuesOnConditionCheckFailure", "Member must satisfy enum value set: [ALL_OLD, NONE]",
             kRankConditionFailure);
  return false;
}

// The members are sorted once, then the map is built in order (each at its
// end): a million names inserted one by one cost a tree descent each.
std::optional<expr::NameMap> attribute_names(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> entries;
  for (auto field : json::read_object(v)) {
    std::string key(field.unescaped_key().value());
    json::value value = field.value();
    entries.emplace_back(std::move(key), std::string(json::read_string(value)));
  }
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  expr::NameMap names;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    // A repeated member replaces the earlier one: the last of a run wins.
    if (i + 1 < entries.size() && entries[i + 1].first == entries[i].first) continue;
    names.emplace_hint(names.end(), std::move(entries[i].first), std::move(entries[i].second));
  }
  return names;
}

std::optional<expr::ValueMap> attribute_values(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  return expr::decode_expression_values(v);
}

std::optional<Item> optional_item(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  return decode_item(v);
}

bool optional_bool(json::value& v) { return !json::is_null(v) && json::read_bool(v); }

bool write_member(std::string_view key, json::value& value, WriteParameters& w, ConstraintErrors& errors) {
  if (key == "TableName") {
    w.table_name = optional_string(value);
  } else if (key == "ConditionExpression") {
    w.condition.expression = optional_string(value);
  } else if (key == "Expected") {
    if (!json::is_null(value)) {
      w.condition.expected = expr::decode_legacy_conditions(value);
      expr::check_comparison_operators(*w.condition.expected, "expected", false, errors, kRankItem);
    }
  } else if (key == "ConditionalOperator") {
    w.condition.conditional_operator = optional_string(value);
  } else if (key == "ExpressionAttributeNames") {
    w.names = attribute_names(value);
  } else if (key == "ExpressionAttributeValues") {
    w.values = attribute_values(value);
  } else if (key == "ReturnValues") {
    w.return_values = return_values(value, errors);
  } else if (key == "ReturnConsumedCapacity") {
    w.return_consumed_capacity = return_consumed_capacity(value, errors);
  } else if (key == "ReturnItemCollectionMetrics") {
    w.return_item_collection_metrics = return_item_collection_metrics(value, errors);
  } else if (key == "ReturnValuesOnConditionCheckFailure") {
    w.return_values_on_condition_failure = return_values_on_condition_failure(value, errors);
  } else {
    return false;
  }
  return true;
}

}  // namespace decode

void check_data_table_name(const std::optional<std::string>& name, ConstraintErrors& errors) {
  using decode::kRankTableName;
  if (!name) {
    errors.add_null("tableName", "Member must not be null", kRankTableName);
    return;
  }
  if (looks_like_arn(*name)) {
    if (name->size() > 1024) {
      errors.add(*name, "tableName", "Member must have length less than or equal to 1024", kRankTableName);
    }
    return;
  }
  bool pattern_ok = !name->empty();
  for (char c : *name) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
          c == '-')) {
      pattern_ok = false;
    }
  }
  if (!pattern_ok && !name->empty()) {
    errors.add(*name, "tableName", "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+", kRankTableName);
  }
  if (name->empty()) {
    errors.add(*name, "tableName", "Member must have length greater than or equal to 1", kRankTableName);
  }
  if (name->size() > 255) {
    errors.add(*name, "tableName", "Member must have length less than or equal to 255", kRankTableName);
  }
}

PutItemRequest decode_put_item(json::object body) {
  PutItemRequest r;
  ConstraintErrors errors;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "Item") {
      r.item = decode::optional_item(value);
    } else {
      decode::write_member(key, value, r.write, errors);
    }
  }
  check_data_table_name(r.write.table_name, errors);
  if (!r.item) errors.add_null("item", "Member must not be null", decode::kRankItem);
  errors.throw_if_any();
  return r;
}

DeleteItemRequest decode_delete_item(json::object body) {
  DeleteItemRequest r;
  ConstraintErrors errors;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "Key") {
      r.key = decode::optional_item(value);
    } else {
      decode::write_member(key, value, r.write, errors);
    }
  }
  check_data_table_name(r.write.table_name, errors);
  if (!r.key) errors.add_null("key", "Member must not be null", decode::kRankItem);
  errors.throw_if_any();
  return r;
}

UpdateItemRequest decode_update_item(json::object body) {
  UpdateItemRequest r;
  ConstraintErrors errors;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "Key") {
      r.key = decode::optional_item(value);
    } else if (key == "UpdateExpression") {
      r.update_expression = decode::optional_string(value);
    } else if (key == "AttributeUpdates") {
      if (!json::is_null(value)) r.attribute_updates = expr::decode_legacy_updates(value);
    } else {
      decode::write_member(key, value, r.write, errors);
    }
  }
  check_data_table_name(r.write.table_name, errors);
  if (!r.key) errors.add_null("key", "Member must not be null", decode::kRankItem);
  errors.throw_if_any();
  return r;
}

GetItemRequest decode_get_item(json::object body) {
  GetItemRequest r;
  ConstraintErrors errors;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") {
      r.table_name = decode::optional_string(value);
    } else if (key == "Key") {
      r.key = decode::optional_item(value);
    } else if (key == "ProjectionExpression") {
      r.projection_expression = decode::optional_string(value);
    } else if (key == "ExpressionAttributeNames") {
      r.names = decode::attribute_names(value);
    } else if (key == "AttributesToGet") {
      if (!json::is_null(value)) r.attributes_to_get = expr::decode_attributes_to_get(value);
    } else if (key == "ConsistentRead") {
      r.consistent_read = decode::optional_bool(value);
    } else if (key == "ReturnConsumedCapacity") {
      r.return_consumed_capacity = decode::return_consumed_capacity(value, errors);
    }
  }
  check_data_table_name(r.table_name, errors);
  if (!r.key) errors.add_null("key", "Member must not be null", decode::kRankItem);
  errors.throw_if_any();
  return r;
}

}  // namespace dynamod
