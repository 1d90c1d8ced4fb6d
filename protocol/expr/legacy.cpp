#include "protocol/expr/legacy.h"

#include <algorithm>
#include <set>

#include "protocol/api_error.h"
#include "protocol/expr/value_text.h"

namespace dynamod::expr {
namespace {

[[noreturn]] void invalid(const std::string& detail) { throw ApiError::invalid_parameter(detail); }

enum class LegacyOp : std::uint8_t {
  EQ,
  NE,
  LE,
  LT,
  GE,
  GT,
  NOT_NULL,
  NUL,
  CONTAINS,
  NOT_CONTAINS,
  BEGINS_WITH,
  IN,
  BETWEEN
};

struct OpInfo {
  std::string_view name;
  LegacyOp op;
};
constexpr OpInfo kOps[] = {{"EQ", LegacyOp::EQ},
                           {"NE", LegacyOp::NE},
                           {"LE", LegacyOp::LE},
                           {"LT", LegacyOp::LT},
                           {"GE", LegacyOp::GE},
                           {"GT", LegacyOp::GT},
                           {"NOT_NULL", LegacyOp::NOT_NULL},
                           {"NULL", LegacyOp::NUL},
                           {"CONTAINS", LegacyOp::CONTAINS},
                           {"NOT_CONTAINS", LegacyOp::NOT_CONTAINS},
                           {"BEGINS_WITH", LegacyOp::BEGINS_WITH},
                           {"IN", LegacyOp::IN},
                           {"BETWEEN", LegacyOp::BETWEEN}};

LegacyOp parse_op(const std::string& name) {
  for (const auto& o : kOps) {
    if (o.name == name) return o.op;
  }
  throw ApiError::validation("Comparison type does not exist in DynamoDB");
}

bool is_scalar(AttributeType t) { return t == AttributeType::S || t == AttributeType::N || t == AttributeType::B; }

// Appends a node and returns its index.
std::uint32_t push(Condition& c, ConditionNode n) {
  c.nodes.push_back(std::move(n));
  return static_cast<std::uint32_t>(c.nodes.size() - 1);
}

Operand path_operand(const std::string& name) { return Operand{make_path(name)}; }

// One ComparisonOperator condition on attribute `name` with `args`.
std::uint32_t comparison(Condition& c, const std::string& name, const std::string& op_name,
                         const std::vector<AttributeValue>& args) {
  const LegacyOp op = parse_op(op_name);
  const std::size_t n = args.size();
  bool count_ok;
  switch (op) {
    case LegacyOp::NOT_NULL:
    case LegacyOp::NUL: count_ok = n == 0; break;
    case LegacyOp::IN: count_ok = n >= 1; break;
    case LegacyOp::BETWEEN: count_ok = n == 2; break;
    default: count_ok = n == 1; break;
  }
  if (!count_ok) invalid("Invalid number of argument(s) for the " + op_name + " ComparisonOperator");
  for (const auto& v : args) {
    const AttributeType t = v.type();
    bool type_ok = true;
    switch (op) {
      case LegacyOp::EQ:
      case LegacyOp::NE: break;
      case LegacyOp::BEGINS_WITH: type_ok = t == AttributeType::S || t == AttributeType::B; break;
      default: type_ok = is_scalar(t); break;
    }
    if (!type_ok) {
      invalid("ComparisonOperator " + op_name + " is not valid for " + std::string(type_name(t)) +
              " AttributeValue type");
    }
  }
  if (op == LegacyOp::IN || op == LegacyOp::BETWEEN) {
    for (const auto& v : args) {
      if (v.type() != args[0].type()) invalid("AttributeValues inside AttributeValueList must be of same type");
    }
  }
  if (op == LegacyOp::BETWEEN) {
    if (compare_scalars(args[0], args[1]) > 0) {
      throw ApiError::validation(
          "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
    }
  }
  auto compare_node = [&](CompareOp cmp) {
    return push(c, ConditionNode{Comparison{cmp, path_operand(name), Operand{args[0]}}});
  };
  auto function_node = [&](FunctionKind kind, std::vector<Operand> operands) {
    return push(c, ConditionNode{FunctionCondition{FunctionCall{kind, std::move(operands)}}});
  };
  switch (op) {
    case LegacyOp::EQ: return compare_node(CompareOp::Eq);
    case LegacyOp::NE: return compare_node(CompareOp::Ne);
    case LegacyOp::LE: return compare_node(CompareOp::Le);
    case LegacyOp::LT: return compare_node(CompareOp::Lt);
    case LegacyOp::GE: return compare_node(CompareOp::Ge);
    case LegacyOp::GT: return compare_node(CompareOp::Gt);
    case LegacyOp::NOT_NULL: return function_node(FunctionKind::AttributeExists, {path_operand(name)});
    case LegacyOp::NUL: return function_node(FunctionKind::AttributeNotExists, {path_operand(name)});
    case LegacyOp::CONTAINS: return function_node(FunctionKind::Contains, {path_operand(name), Operand{args[0]}});
    case LegacyOp::NOT_CONTAINS: {
      // Unlike NOT contains(...), NOT_CONTAINS is false for a missing attribute.
      std::uint32_t exists = function_node(FunctionKind::AttributeExists, {path_operand(name)});
      std::uint32_t has = function_node(FunctionKind::Contains, {path_operand(name), Operand{args[0]}});
      std::uint32_t not_has = push(c, ConditionNode{Not{has}});
      return push(c, ConditionNode{And{exists, not_has}});
    }
    case LegacyOp::BEGINS_WITH: return function_node(FunctionKind::BeginsWith, {path_operand(name), Operand{args[0]}});
    case LegacyOp::IN: {
      In in{path_operand(name), {}};
      for (const auto& v : args) in.list.push_back(Operand{v});
      return push(c, ConditionNode{std::move(in)});
    }
    case LegacyOp::BETWEEN:
      return push(c, ConditionNode{Between{path_operand(name), Operand{args[0]}, Operand{args[1]}}});
  }
  return 0;
}

std::uint32_t expected_entry(Condition& c, const std::string& name, const LegacyCondition& e) {
  if (e.comparison_operator) {
    if (e.exists) invalid("Exists and ComparisonOperator cannot be used together for Attribute: " + name);
    if (e.value && e.value_list) invalid("Value and AttributeValueList cannot be used together for Attribute: " + name);
    std::vector<AttributeValue> args;
    if (e.value_list) {
      args = *e.value_list;
    } else if (e.value) {
      args.push_back(*e.value);
    } else if (*e.comparison_operator != "NULL" && *e.comparison_operator != "NOT_NULL") {
      parse_op(*e.comparison_operator);
      invalid("Value or AttributeValueList must be used with ComparisonOperator: " + *e.comparison_operator +
              " for Attribute: " + name);
    }
    return comparison(c, name, *e.comparison_operator, args);
  }
  if (e.value && e.value_list) invalid("Value and AttributeValueList cannot be used together for Attribute: " + name);
  if (e.value_list) invalid("AttributeValueList can only be used with a ComparisonOperator for Attribute: " + name);
  const bool exists = e.exists.value_or(true);
  if (exists && !e.value) {
    invalid("Value must be provided when Exists is " + std::string(e.exists ? "true" : "null") +
            " for Attribute: " + name);
  }
  if (!exists && e.value) invalid("Value cannot be used when Exists is false for Attribute: " + name);
  if (!exists) {
    return push(c,
                ConditionNode{FunctionCondition{FunctionCall{FunctionKind::AttributeNotExists, {path_operand(name)}}}});
  }
  return push(c, ConditionNode{Comparison{CompareOp::Eq, path_operand(name), Operand{*e.value}}});
}

// The operator's own value is a constraint error, checked first.
ConditionalOperator conditional_operator(const std::optional<std::string>& text) {
  if (!text || *text == "AND") return ConditionalOperator::And;
  if (*text == "OR") return ConditionalOperator::Or;
  throw ApiError::validation("1 validation error detected: Value '" + *text +
                             "' at 'conditionalOperator' failed to satisfy constraint: Member must satisfy enum value "
                             "set: [OR, AND]");
}

Condition combine(const LegacyConditions& entries, const std::optional<std::string>& operator_text, bool expected) {
  const ConditionalOperator op = conditional_operator(operator_text);
  Condition c;
  std::optional<std::uint32_t> root;
  for (const auto& [name, e] : entries) {
    std::uint32_t n;
    if (expected) {
      n = expected_entry(c, name, e);
    } else {
      n = comparison(c, name, e.comparison_operator.value_or(""),
                     e.value_list ? *e.value_list : std::vector<AttributeValue>{});
    }
    if (!root) {
      root = n;
    } else if (op == ConditionalOperator::And) {
      root = push(c, ConditionNode{And{*root, n}});
    } else {
      root = push(c, ConditionNode{Or{*root, n}});
    }
  }
  if (root) c.root = *root;
  if (operator_text && entries.size() < 2) {
    throw ApiError::validation("ConditionalOperator can only be used when Filter or Expected has two or more elements");
  }
  return c;
}

}  // namespace

Condition convert_expected(const LegacyConditions& expected, const std::optional<std::string>& conditional_operator) {
  return combine(expected, conditional_operator, true);
}

Condition convert_filter(const LegacyConditions& filter, const std::optional<std::string>& conditional_operator) {
  return combine(filter, conditional_operator, false);
}

void throw_not_indexable() {
  throw ApiError::validation("Attempted conditional constraint is not an indexable operation");
}

LegacyKeyCondition convert_key_conditions(const LegacyConditions& conditions, const KeyDef& key,
                                          std::string_view index) {
  // A multi-attribute key takes a condition per key attribute (DynamoDB Local 3.3).
  const std::size_t most =
      key.multi_attribute() ? key.partition_elements().size() + key.sort_elements().size() : std::size_t{2};
  if (conditions.empty() || conditions.size() > most) {
    throw ApiError::validation("Conditions can be of length 1 or 2 only");
  }
  // Validate each entry as a filter, then reuse the key-condition checks.
  Condition c;
  std::optional<std::uint32_t> root;
  bool not_indexable = false;
  bool partition_indexable = false;
  for (const auto& [name, e] : conditions) {
    if (!e.comparison_operator) {
      throw ApiError::validation("1 validation error detected: Value null at 'keyConditions." + name +
                                 ".member.comparisonOperator' failed to satisfy constraint: Member must not be null");
    }
    const std::string op = *e.comparison_operator;
    const LegacyOp parsed = parse_op(op);
    std::vector<AttributeValue> args = e.value_list ? *e.value_list : std::vector<AttributeValue>{};
    const std::uint32_t n = comparison(c, name, op, args);
    switch (parsed) {
      case LegacyOp::EQ:
      case LegacyOp::LE:
      case LegacyOp::LT:
      case LegacyOp::GE:
      case LegacyOp::GT:
      case LegacyOp::BEGINS_WITH:
      case LegacyOp::BETWEEN: break;
      default: not_indexable = true; continue;
    }
    if (name == key.partition.name) partition_indexable = true;
    root = root ? push(c, ConditionNode{And{*root, n}}) : n;
  }
  if (not_indexable && !partition_indexable) throw_not_indexable();
  if (root) c.root = *root;
  return LegacyKeyCondition{extract_key_condition(c, key, index), not_indexable};
}

UpdateActions convert_attribute_updates(const LegacyUpdates& updates) {
  UpdateActions u;
  u.legacy = true;
  for (const auto& [name, e] : updates) {
    const std::string action = e.action.value_or("PUT");
    if (action != "PUT" && action != "ADD" && action != "DELETE") {
      throw ApiError::validation("1 validation error detected: Value '" + action + "' at 'attributeUpdates." + name +
                                 ".member.action' failed to satisfy constraint: Member must satisfy enum value set: "
                                 "[ADD, DELETE, PUT]");
    }
    if (!e.value) {
      if (action != "DELETE") invalid("Only DELETE action is allowed when no attribute value is specified");
      u.remove.push_back(make_path(name));
      continue;
    }
    const AttributeType t = e.value->type();
    if (action == "PUT") {
      u.set.push_back(SetAction{make_path(name), Operand{*e.value}});
    } else if (action == "ADD") {
      const bool ok = t == AttributeType::N || t == AttributeType::SS || t == AttributeType::NS ||
                      t == AttributeType::BS || t == AttributeType::L;
      if (!ok) invalid("ADD action is not supported for the type " + std::string(type_name(t)));
      u.add.push_back(AddAction{make_path(name), *e.value, true});
    } else {
      const bool ok = t == AttributeType::SS || t == AttributeType::NS || t == AttributeType::BS;
      if (!ok) invalid("DELETE action with value is not supported for the type " + std::string(type_name(t)));
      u.del.push_back(DeleteAction{make_path(name), *e.value});
    }
  }
  return u;
}

std::vector<Path> convert_attributes_to_get(const std::vector<std::string>& names) {
  if (names.empty()) {
    throw ApiError::validation(
        "1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy "
        "constraint: Member must have length greater than or equal to 1");
  }
  std::set<std::string_view> seen;
  std::vector<Path> paths;
  paths.reserve(names.size());
  for (const auto& n : names) {
    if (!seen.insert(n).second) invalid("Duplicate value in attribute name: " + n);
    paths.push_back(make_path(n));
  }
  return paths;
}

}  // namespace dynamod::expr
