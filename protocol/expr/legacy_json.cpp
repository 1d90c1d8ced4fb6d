#include "protocol/expr/legacy_json.h"

#include "protocol/attribute_json.h"

namespace dynamod::expr {

LegacyConditions decode_legacy_conditions(json::value& v) {
  LegacyConditions out;
  for (auto field : json::read_object(v)) {
    std::string name(field.unescaped_key().value());
    json::value entry = field.value();
    LegacyCondition c;
    for (auto member : json::read_object(entry)) {
      std::string_view key = member.unescaped_key().value();
      json::value m = member.value();
      if (json::is_null(m)) continue;
      if (key == "Value") {
        c.value = decode_attribute_value(m);
      } else if (key == "Exists") {
        c.exists = json::read_bool(m);
      } else if (key == "ComparisonOperator") {
        c.comparison_operator = std::string(json::read_string(m));
      } else if (key == "AttributeValueList") {
        std::vector<AttributeValue> list;
        for (auto element : json::read_array(m)) {
          json::value e = element.value();
          list.push_back(decode_attribute_value(e));
        }
        c.value_list = std::move(list);
      }
    }
    out.emplace_back(std::move(name), std::move(c));
  }
  return out;
}

LegacyUpdates decode_legacy_updates(json::value& v) {
  LegacyUpdates out;
  for (auto field : json::read_object(v)) {
    std::string name(field.unescaped_key().value());
    json::value entry = field.value();
    LegacyUpdate u;
    for (auto member : json::read_object(entry)) {
      std::string_view key = member.unescaped_key().value();
      json::value m = member.value();
      if (json::is_null(m)) continue;
      if (key == "Action") {
        u.action = std::string(json::read_string(m));
      } else if (key == "Value") {
        u.value = decode_attribute_value(m);
      }
    }
    out.emplace_back(std::move(name), std::move(u));
  }
  return out;
}

std::vector<std::string> decode_attributes_to_get(json::value& v) {
  std::vector<std::string> out;
  for (auto element : json::read_array(v)) {
    json::value e = element.value();
    out.emplace_back(json::read_string(e));
  }
  return out;
}

ValueMap decode_expression_values(json::value& v) {
  ValueMap out;
  for (auto field : json::read_object(v)) {
    std::string key(field.unescaped_key().value());
    json::value value = field.value();
    try {
      out[key] = decode_attribute_value(value);
    } catch (const ApiError& e) {
      if (e.code() != ErrorCode::ValidationException) throw;
      throw ApiError::validation("ExpressionAttributeValues contains invalid value: " + e.message() + " for key " +
                                 key);
    }
  }
  return out;
}

}  // namespace dynamod::expr
