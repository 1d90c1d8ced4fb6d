#include "protocol/expr/legacy_json.h"

#include <algorithm>

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

void check_comparison_operators(const LegacyConditions& conditions, std::string_view member, bool required,
                                ConstraintErrors& errors, int rank) {
  // The enum in the service's own order (dynalite's tests, recorded from DynamoDB).
  static constexpr std::string_view kOperators[] = {"IN",          "NULL", "BETWEEN",  "LT", "NOT_CONTAINS",
                                                    "EQ",          "GT",   "NOT_NULL", "NE", "LE",
                                                    "BEGINS_WITH", "GE",   "CONTAINS"};
  static const std::string kConstraint = [] {
    std::string c = "Member must satisfy enum value set: [";
    for (std::string_view op : kOperators) c += std::string(op) + (op == "CONTAINS" ? "]" : ", ");
    return c;
  }();
  for (const auto& [name, c] : conditions) {
    const std::string path = std::string(member) + "." + name + ".member.comparisonOperator";
    if (!c.comparison_operator) {
      if (required) errors.add_null(path, "Member must not be null", rank);
    } else if (std::find(std::begin(kOperators), std::end(kOperators), *c.comparison_operator) ==
               std::end(kOperators)) {
      errors.add(*c.comparison_operator, path, kConstraint, rank);
    }
  }
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
      // The depth limit is the item's, checked on the request as a whole: its text stands alone.
      if (e.code() != ErrorCode::ValidationException || e.message() == kNestingLimitMessage) throw;
      throw ApiError::validation("ExpressionAttributeValues contains invalid value: " + e.message() + " for key " +
                                 key);
    }
  }
  return out;
}

}  // namespace dynamod::expr
