#include "protocol/item_expressions.h"

#include "protocol/expr/expression.h"
#include "protocol/expr/legacy.h"

namespace dynamod {
namespace {

expr::Condition parse_write_condition(const ConditionParameters& c, expr::Placeholders& p) {
  if (c.expression) return expr::parse_condition(*c.expression, expr::ConditionKind::Condition, p);
  if (c.expected) {
    return expr::convert_expected(*c.expected, c.conditional_operator);
  }
  if (c.conditional_operator)
    throw ApiError::validation("ConditionalOperator cannot be used without Filter or Expected");
  return {};
}

void names_need_expressions(const WriteParameters& w, const char* missing) {
  if (w.values) {
    throw ApiError::validation(std::string("ExpressionAttributeValues can only be specified when using expressions: ") +
                               missing);
  }
  if (w.names) throw ApiError::validation("ExpressionAttributeNames can only be specified when using expressions");
}

}  // namespace

void check_put_or_delete_return_values(ReturnValues rv) {
  if (rv != ReturnValues::None && rv != ReturnValues::AllOld) {
    throw ApiError::validation("ReturnValues can only be ALL_OLD or NONE");
  }
}

ItemExpressions parse_put_or_delete_expressions(const WriteParameters& w, bool in_transaction) {
  const ConditionParameters& c = w.condition;
  // Parameters are named in the API model's member order.
  std::vector<std::string_view> legacy;
  if (c.expected) legacy.push_back("Expected");
  if (c.conditional_operator) legacy.push_back("ConditionalOperator");
  std::vector<std::string_view> expressions;
  if (c.expression) expressions.push_back("ConditionExpression");
  expr::check_no_mixing(legacy, expressions);
  if (!c.expression) {
    if (in_transaction) return {};
    names_need_expressions(w, "ConditionExpression is null");
  }
  expr::validate_placeholder_maps(w.names ? &*w.names : nullptr, w.values ? &*w.values : nullptr);
  expr::Placeholders placeholders(w.names ? &*w.names : nullptr, w.values ? &*w.values : nullptr);
  ItemExpressions out;
  out.condition = parse_write_condition(c, placeholders);
  placeholders.check_all_used();
  return out;
}

ItemExpressions parse_update_expressions(const UpdateItemRequest& r, bool in_transaction) {
  const WriteParameters& w = r.write;
  std::vector<std::string_view> legacy;
  if (r.attribute_updates) legacy.push_back("AttributeUpdates");
  if (w.condition.expected) legacy.push_back("Expected");
  if (w.condition.conditional_operator) legacy.push_back("ConditionalOperator");
  std::vector<std::string_view> expressions;
  if (r.update_expression) expressions.push_back("UpdateExpression");
  if (w.condition.expression) expressions.push_back("ConditionExpression");
  expr::check_no_mixing(legacy, expressions);
  if (expressions.empty() && !in_transaction) {
    names_need_expressions(w, "UpdateExpression and ConditionExpression are null");
  }
  expr::validate_placeholder_maps(w.names ? &*w.names : nullptr, w.values ? &*w.values : nullptr);
  expr::Placeholders placeholders(w.names ? &*w.names : nullptr, w.values ? &*w.values : nullptr);
  ItemExpressions out;
  if (r.update_expression) {
    out.update = expr::parse_update(*r.update_expression, placeholders);
  } else if (r.attribute_updates) {
    out.update = expr::convert_attribute_updates(*r.attribute_updates);
  } else {
    out.update = expr::UpdateActions{};
  }
  out.condition = parse_write_condition(w.condition, placeholders);
  placeholders.check_all_used();
  return out;
}

std::optional<std::vector<expr::Path>> parse_get_projection(const GetItemRequest& r) {
  std::vector<std::string_view> legacy;
  if (r.attributes_to_get) legacy.push_back("AttributesToGet");
  std::vector<std::string_view> expressions;
  if (r.projection_expression) expressions.push_back("ProjectionExpression");
  expr::check_no_mixing(legacy, expressions);
  if (!r.projection_expression && r.names) {
    throw ApiError::validation("ExpressionAttributeNames can only be specified when using expressions");
  }
  expr::validate_placeholder_maps(r.names ? &*r.names : nullptr, nullptr);
  expr::Placeholders placeholders(r.names ? &*r.names : nullptr, nullptr);
  std::optional<std::vector<expr::Path>> paths;
  if (r.projection_expression) {
    paths = expr::parse_projection(*r.projection_expression, placeholders);
  } else if (r.attributes_to_get) {
    paths = expr::convert_attributes_to_get(*r.attributes_to_get);
  }
  placeholders.check_all_used();
  return paths;
}

}  // namespace dynamod
