#include "protocol/expr/evaluate.h"

#include <algorithm>

#include "protocol/expr/value_text.h"

namespace dynamod::expr {
namespace {

bool is_scalar_ordered(AttributeType t) {
  return t == AttributeType::N || t == AttributeType::S || t == AttributeType::B;
}

std::size_t utf16_length(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;  // one per code point...
    if ((c & 0xF8) == 0xF0) ++n;  // ...and a second unit above U+FFFF
  }
  return n;
}

bool compare(CompareOp op, const AttributeValue* a, const AttributeValue* b) {
  if (op == CompareOp::Eq) return a && b && *a == *b;
  // A missing operand is "not equal" to anything (DynamoDB Local: nope <> :v is true).
  if (op == CompareOp::Ne) return !(a && b && *a == *b);
  if (!a || !b || a->type() != b->type() || !is_scalar_ordered(a->type())) return false;
  const int c = compare_scalars(*a, *b);
  switch (op) {
    case CompareOp::Lt: return c < 0;
    case CompareOp::Le: return c <= 0;
    case CompareOp::Gt: return c > 0;
    case CompareOp::Ge: return c >= 0;
    default: return false;
  }
}

bool begins_with(const AttributeValue* a, const AttributeValue* prefix) {
  if (!a || !prefix || a->type() != prefix->type()) return false;
  if (a->type() == AttributeType::S) return a->as_string().starts_with(prefix->as_string());
  if (a->type() == AttributeType::B) return a->as_binary().starts_with(prefix->as_binary());
  return false;
}

bool contains(const AttributeValue* a, const AttributeValue* x) {
  if (!a || !x) return false;
  switch (a->type()) {
    case AttributeType::S:
      return x->type() == AttributeType::S && a->as_string().find(x->as_string()) != std::string::npos;
    case AttributeType::B:
      return x->type() == AttributeType::B && a->as_binary().find(x->as_binary()) != std::string::npos;
    case AttributeType::SS: {
      if (x->type() != AttributeType::S) return false;
      const auto& v = a->as_string_set().values;
      return std::binary_search(v.begin(), v.end(), x->as_string());
    }
    case AttributeType::NS: {
      if (x->type() != AttributeType::N) return false;
      const auto& v = a->as_number_set().values;
      return std::binary_search(v.begin(), v.end(), x->as_number());
    }
    case AttributeType::BS: {
      if (x->type() != AttributeType::B) return false;
      const auto& v = a->as_binary_set().values;
      return std::binary_search(v.begin(), v.end(), x->as_binary());
    }
    case AttributeType::L: {
      const auto& v = a->as_list().values;
      return std::find(v.begin(), v.end(), *x) != v.end();
    }
    default: return false;
  }
}

bool function_condition(const FunctionCall& f, const Item* item) {
  AttributeValue s0, s1;
  switch (f.kind) {
    case FunctionKind::AttributeExists: return operand_value(f.args[0], item, s0) != nullptr;
    case FunctionKind::AttributeNotExists: return operand_value(f.args[0], item, s0) == nullptr;
    case FunctionKind::AttributeType: {
      const AttributeValue* v = operand_value(f.args[0], item, s0);
      const AttributeValue* t = operand_value(f.args[1], item, s1);
      if (!v || !t || t->type() != AttributeType::S) return false;
      return type_name(v->type()) == t->as_string();
    }
    case FunctionKind::BeginsWith:
      return begins_with(operand_value(f.args[0], item, s0), operand_value(f.args[1], item, s1));
    case FunctionKind::Contains:
      return contains(operand_value(f.args[0], item, s0), operand_value(f.args[1], item, s1));
    default: return false;  // not a condition function; rejected by the parser
  }
}

bool eval_node(const Condition& c, std::uint32_t id, const Item* item) {
  const ConditionNode& n = c.nodes[id];
  return std::visit(
      [&](const auto& node) -> bool {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, And>) {
          return eval_node(c, node.left, item) && eval_node(c, node.right, item);
        } else if constexpr (std::is_same_v<T, Or>) {
          return eval_node(c, node.left, item) || eval_node(c, node.right, item);
        } else if constexpr (std::is_same_v<T, Not>) {
          return !eval_node(c, node.child, item);
        } else if constexpr (std::is_same_v<T, Comparison>) {
          AttributeValue s0, s1;
          return compare(node.op, operand_value(node.lhs, item, s0), operand_value(node.rhs, item, s1));
        } else if constexpr (std::is_same_v<T, Between>) {
          AttributeValue s0, s1, s2;
          const AttributeValue* v = operand_value(node.value, item, s0);
          const AttributeValue* lo = operand_value(node.lower, item, s1);
          const AttributeValue* hi = operand_value(node.upper, item, s2);
          return compare(CompareOp::Ge, v, lo) && compare(CompareOp::Le, v, hi);
        } else if constexpr (std::is_same_v<T, In>) {
          AttributeValue s0, s1;
          const AttributeValue* v = operand_value(node.value, item, s0);
          if (!v) return false;
          for (const auto& o : node.list) {
            const AttributeValue* x = operand_value(o, item, s1);
            if (x && *x == *v) return true;
          }
          return false;
        } else {
          return function_condition(node.call, item);
        }
      },
      n.v);
}

}  // namespace

std::optional<std::size_t> value_size(const AttributeValue& v) {
  switch (v.type()) {
    case AttributeType::S: return utf16_length(v.as_string());
    case AttributeType::B: return v.as_binary().size();
    case AttributeType::SS: return v.as_string_set().values.size();
    case AttributeType::NS: return v.as_number_set().values.size();
    case AttributeType::BS: return v.as_binary_set().values.size();
    case AttributeType::L: return v.as_list().values.size();
    case AttributeType::M: return v.as_map().size();
    default: return std::nullopt;
  }
}

const AttributeValue* operand_value(const Operand& o, const Item* item, AttributeValue& scratch) {
  if (const Path* p = o.path()) return item ? find_path(*item, *p) : nullptr;
  if (const AttributeValue* v = o.constant()) return v;
  const FunctionCall& f = *o.call();
  if (f.kind == FunctionKind::Size) {
    AttributeValue inner_scratch;
    const AttributeValue* v = operand_value(f.args[0], item, inner_scratch);
    if (!v) return nullptr;
    auto n = value_size(*v);
    if (!n) return nullptr;
    scratch = AttributeValue::number(Number::from_canonical(std::to_string(*n)));
    return &scratch;
  }
  return nullptr;  // update functions are evaluated by apply_update
}

bool evaluate(const Condition& c, const Item* item) {
  if (c.empty()) return true;
  return eval_node(c, c.root, item);
}

}  // namespace dynamod::expr
