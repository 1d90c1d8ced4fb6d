#include "protocol/attribute_name_limit.h"

#include "protocol/api_error.h"

#include <string>
#include <variant>

namespace dynamod {
namespace {

void check_names(const Map& map);

// Items are at most 32 levels deep when they get here (decoding and updates
// refuse deeper ones), so this recursion is short.
void check_names(const AttributeValue& value) {
  if (value.type() == AttributeType::M) {
    check_names(value.as_map());
  } else if (value.type() == AttributeType::L) {
    for (const auto& element : value.as_list().values) check_names(element);
  }
}

void check_names(const Map& map) {
  for (const auto& [name, value] : map) {
    if (name.size() > kMaxAttributeNameBytes) {
      throw ApiError::validation(std::string(kAttributeNameTooLarge));
    }
    check_names(value);
  }
}

void check_path(const expr::Path& path) {
  for (const auto& step : path.steps) {
    if (step.is_name() && step.name().size() > kMaxAttributeNameBytes) {
      throw ApiError::validation(std::string(kAttributeNameTooLarge));
    }
  }
}

// Function calls nest no deeper than the expression parser allows.
void check_operand(const expr::Operand& operand) {
  if (const AttributeValue* value = operand.constant()) {
    check_names(*value);
  } else if (const expr::FunctionCall* call = operand.call()) {
    for (const auto& arg : call->args) check_operand(arg);
  }
}

}  // namespace

void check_attribute_names(const Item& item) { check_names(item); }

void check_update_names(const expr::UpdateActions& update) {
  for (const auto& set : update.set) {
    check_path(set.path);
    if (const auto* operand = std::get_if<expr::Operand>(&set.value)) check_operand(*operand);
  }
  for (const auto& add : update.add) check_path(add.path);
}

}  // namespace dynamod
