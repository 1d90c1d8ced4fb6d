#include "protocol/batch_requests.h"

#include "protocol/attribute_json.h"
#include "protocol/expr/legacy_json.h"
#include "protocol/item_requests.h"
#include "protocol/json_writer.h"

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

// The item under `member` of a PutRequest or DeleteRequest, which must be there.
Item required_item(json::value& request, std::string_view member, std::string_view path) {
  std::optional<Item> item;
  for (auto field : json::read_object(request)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == member && !json::is_null(value)) item = decode_item(value);
  }
  if (!item) {
    throw ApiError::validation("1 validation error detected: Value null at 'requestItems.member." + std::string(path) +
                               "' failed to satisfy constraint: Member must not be null");
  }
  return std::move(*item);
}

BatchWriteRequest decode_write_request(json::value& v) {
  BatchWriteRequest r;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (json::is_null(value)) continue;
    if (key == "PutRequest") {
      r.put_item = required_item(value, "Item", "putRequest.item");
    } else if (key == "DeleteRequest") {
      r.delete_key = required_item(value, "Key", "deleteRequest.key");
    }
  }
  return r;
}

bool valid_table_name(const std::string& name) {
  if (name.size() < 3 || name.size() > 255) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
          c == '-')) {
      return false;
    }
  }
  return true;
}

constexpr std::string_view kMapKeysConstraint =
    "Map keys must satisfy constraint: [Member must have length less than or equal to 255, Member must have length "
    "greater than or equal to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]";

// The RequestItems map as the service echoes it in a constraint message.
std::string render_get_items(const std::vector<BatchGetTable>& tables) {
  JsonWriter out;
  out.begin_object();
  for (const auto& t : tables) {
    out.key(t.table_name);
    out.begin_object();
    out.key("Keys");
    out.begin_array();
    for (const auto& k : t.keys) encode_item(out, k);
    out.end_array();
    if (t.projection_expression) {
      out.key("ProjectionExpression");
      out.string(*t.projection_expression);
    }
    if (t.consistent_read) {
      out.key("ConsistentRead");
      out.boolean(true);
    }
    out.end_object();
  }
  out.end_object();
  return out.take();
}

// Java's rendering of AttributeValues, as the service echoes WriteRequests.
std::string java_item(const Item& item) {
  std::string out = "{";
  bool first = true;
  for (const auto& [name, value] : item) {
    if (!first) out += ", ";
    first = false;
    JsonWriter v;
    encode_attribute_value(v, value);
    out += name + "=" + v.str();
  }
  return out + "}";
}

std::string render_write_items(const std::vector<BatchWriteTable>& tables) {
  std::string out = "{";
  for (std::size_t i = 0; i < tables.size(); ++i) {
    if (i > 0) out += ", ";
    out += tables[i].table_name + "=[";
    for (std::size_t j = 0; j < tables[i].requests.size(); ++j) {
      const BatchWriteRequest& r = tables[i].requests[j];
      if (j > 0) out += ", ";
      out += "WriteRequest(";
      out += r.put_item ? "putRequest=PutRequest(item=" + java_item(*r.put_item) + ")" : "putRequest=null";
      out += r.delete_key ? ", deleteRequest=DeleteRequest(key=" + java_item(*r.delete_key) + "))"
                          : ", deleteRequest=null)";
    }
    out += "]";
  }
  return out + "}";
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
  if (!has_items) {
    errors.add_null("requestItems", "Member must not be null");
  } else if (r.tables.empty()) {
    errors.add_unechoed("RequestItems", "Member must have length greater than or equal to 1");
  }
  for (const auto& t : r.tables) {
    if (!valid_table_name(t.table_name)) {
      errors.add(render_get_items(r.tables), "requestItems", kMapKeysConstraint);
      break;
    }
  }
  for (const auto& t : r.tables) {
    if (t.keys.empty()) {
      errors.add_unechoed("RequestItems." + t.table_name + ".member.Keys",
                          "Member must have length greater than or equal to 1");
    } else if (t.keys.size() > kMaxBatchGetKeys) {
      errors.add_unechoed("RequestItems." + t.table_name + ".member.Keys",
                          "Member must have length less than or equal to 100");
    }
  }
  errors.throw_if_any();
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
  if (!has_items) errors.add_null("requestItems", "Member must not be null");
  for (const auto& t : r.tables) {
    if (!valid_table_name(t.table_name)) {
      errors.add(render_write_items(r.tables), "requestItems", kMapKeysConstraint);
      break;
    }
  }
  for (const auto& t : r.tables) {
    if (t.requests.empty()) {
      errors.add("{" + t.table_name + "=[]}", "requestItems",
                 "Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must "
                 "have length greater than or equal to 1]");
    } else if (t.requests.size() > kMaxBatchWriteRequests) {
      errors.add_unechoed("RequestItems." + t.table_name + ".member",
                          "Member must have length less than or equal to 25");
    }
  }
  errors.throw_if_any();
  if (has_items && r.tables.empty()) {
    throw ApiError::validation("The requestItems parameter is required for BatchWriteItem");
  }
  return r;
}

}  // namespace dynamod
