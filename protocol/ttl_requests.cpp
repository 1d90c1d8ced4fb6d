#include "protocol/ttl_requests.h"

#include "protocol/item_requests.h"
#include "protocol/table_requests.h"

namespace dynamod {

UpdateTimeToLiveRequest decode_update_time_to_live(json::object body) {
  UpdateTimeToLiveRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") {
      r.table_name = decode::optional_string(value);
    } else if (key == "TimeToLiveSpecification") {
      if (json::is_null(value)) continue;
      r.has_specification = true;
      for (auto member : json::read_object(value)) {
        std::string_view mkey = member.unescaped_key().value();
        json::value m = member.value();
        if (mkey == "Enabled") r.enabled = json::is_null(m) ? std::nullopt : std::optional<bool>(json::read_bool(m));
        else if (mkey == "AttributeName") r.attribute_name = decode::optional_string(m);
      }
    }
  }
  ConstraintErrors errors;
  const std::string& name = require_table_name(r.table_name);
  check_table_name_constraints(name, errors);
  if (!r.has_specification) {
    errors.add_null("timeToLiveSpecification", "Member must not be null");
  } else {
    if (!r.attribute_name) {
      errors.add_null("timeToLiveSpecification.attributeName", "Member must not be null");
    } else if (r.attribute_name->empty()) {
      errors.add("", "timeToLiveSpecification.attributeName", "Member must have length greater than or equal to 1");
    } else if (r.attribute_name->size() > 255) {
      errors.add(*r.attribute_name, "timeToLiveSpecification.attributeName",
                 "Member must have length less than or equal to 255");
    }
    if (!r.enabled) errors.add_null("timeToLiveSpecification.enabled", "Member must not be null");
  }
  errors.throw_if_any();
  return r;
}

}  // namespace dynamod
