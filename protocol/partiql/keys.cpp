#include "protocol/partiql/keys.h"

#include <algorithm>

#include "protocol/expr/value_text.h"
#include "protocol/partiql/condition.h"

namespace dynamod::partiql {
namespace {

bool is_attribute(const Node& n, std::string_view name) {
  return n.kind == NodeKind::Path && n.path.steps.size() == 1 && n.path.root() == name;
}

bool is_key_path(const Node& operand, const KeyDef& key) {
  return operand.kind == NodeKind::Path && key.includes(operand.path.root());
}

// A key attribute among a test's operands; with `through_calls`, also as the
// argument of an operand that is a function (size(sk)).
bool has_key_operand(const Statement& s, const Node& n, const KeyDef& key, bool through_calls) {
  return std::any_of(n.children.begin(), n.children.end(), [&](NodeId c) {
    const Node& operand = s.node(c);
    return is_key_path(operand, key) ||
           (through_calls && operand.kind == NodeKind::Call && has_key_operand(s, operand, key, false));
  });
}

bool tests_key(const Statement& s, NodeId term, const KeyDef& key, bool through_calls) {
  const Node& n = s.node(term);
  switch (n.kind) {
    case NodeKind::Not: return tests_key(s, n.children[0], key, false);
    case NodeKind::Compare:
    case NodeKind::Call: return has_key_operand(s, n, key, through_calls);
    case NodeKind::Between:
    case NodeKind::In:
    case NodeKind::Is: return has_key_operand(s, n, key, false);
    default: return false;
  }
}

std::optional<AttributeValue> typed_constant(const Statement& s, NodeId id, const KeyElement& key,
                                             const Parameters& parameters) {
  if (!is_constant(s, id)) return std::nullopt;
  AttributeValue v = constant_value(s, id, parameters);
  if (v.type() != to_attribute_type(key.type)) return std::nullopt;
  return v;
}

// Key values of one type in the order DynamoDB keeps them.
bool key_less(const AttributeValue& a, const AttributeValue& b) {
  if (a.type() == AttributeType::N) return a.as_number() < b.as_number();
  // std::string compares bytes as unsigned: UTF-8 strings in code-point order, binaries bytewise.
  return a.type() == AttributeType::S ? a.as_string() < b.as_string() : a.as_binary() < b.as_binary();
}

expr::SortOp sort_op(expr::CompareOp op, bool flipped) {
  switch (op) {
    case expr::CompareOp::Lt: return flipped ? expr::SortOp::Gt : expr::SortOp::Lt;
    case expr::CompareOp::Le: return flipped ? expr::SortOp::Ge : expr::SortOp::Le;
    case expr::CompareOp::Gt: return flipped ? expr::SortOp::Lt : expr::SortOp::Gt;
    case expr::CompareOp::Ge: return flipped ? expr::SortOp::Le : expr::SortOp::Ge;
    default: return expr::SortOp::Eq;
  }
}

// A sort-key range: bounds absent are open.
struct Bound {
  AttributeValue value;
  bool inclusive = true;
};
struct Range {
  std::optional<Bound> lower;
  std::optional<Bound> upper;
};

// The first string (or byte string) after every one that starts with `prefix`.
std::optional<std::string> prefix_end(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0xFF) prefix.pop_back();
  if (prefix.empty()) return std::nullopt;
  prefix.back() = static_cast<char>(static_cast<unsigned char>(prefix.back()) + 1);
  return prefix;
}

Range range_of(const expr::SortCondition& c) {
  Range r;
  switch (c.op) {
    case expr::SortOp::Eq: r.lower = r.upper = Bound{c.value, true}; break;
    case expr::SortOp::Lt: r.upper = Bound{c.value, false}; break;
    case expr::SortOp::Le: r.upper = Bound{c.value, true}; break;
    case expr::SortOp::Gt: r.lower = Bound{c.value, false}; break;
    case expr::SortOp::Ge: r.lower = Bound{c.value, true}; break;
    case expr::SortOp::Between:
      r.lower = Bound{c.value, true};
      r.upper = Bound{*c.upper, true};
      break;
    case expr::SortOp::BeginsWith: {
      r.lower = Bound{c.value, true};
      const bool binary = c.value.type() == AttributeType::B;
      if (auto end = prefix_end(binary ? c.value.as_binary() : c.value.as_string())) {
        r.upper =
            Bound{binary ? AttributeValue::binary(std::move(*end)) : AttributeValue::string(std::move(*end)), false};
      }
      break;
    }
  }
  return r;
}

bool intersect(const Range& a, const Range& b) {
  // The tighter lower bound against the tighter upper bound.
  auto tighter = [](const std::optional<Bound>& x, const std::optional<Bound>& y, bool lower) -> std::optional<Bound> {
    if (!x) return y;
    if (!y) return x;
    const int c = expr::compare_scalars(x->value, y->value);
    if (c == 0) return Bound{x->value, x->inclusive && y->inclusive};
    return (c > 0) == lower ? x : y;
  };
  const auto lo = tighter(a.lower, b.lower, true);
  const auto hi = tighter(a.upper, b.upper, false);
  if (!lo || !hi) return true;
  const int c = expr::compare_scalars(lo->value, hi->value);
  return c < 0 || (c == 0 && lo->inclusive && hi->inclusive);
}

void flatten_or(const Statement& s, NodeId id, std::vector<NodeId>& out) {
  const Node& n = s.node(id);
  if (n.kind != NodeKind::Or) {
    out.push_back(id);
    return;
  }
  flatten_or(s, n.children[0], out);
  flatten_or(s, n.children[1], out);
}

}  // namespace

std::optional<AttributeValue> key_equality(const Statement& s, NodeId term, std::string_view attribute,
                                           const Parameters& parameters) {
  const Node& n = s.node(term);
  if (n.kind != NodeKind::Compare || n.op != expr::CompareOp::Eq) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    const NodeId name = n.children[side];
    const NodeId value = n.children[1 - side];
    if (is_attribute(s.node(name), attribute) && is_constant(s, value)) {
      return constant_value(s, value, parameters);
    }
  }
  return std::nullopt;
}

std::optional<std::vector<AttributeValue>> key_in_list(const Statement& s, NodeId term, const KeyElement& key,
                                                       const Parameters& parameters) {
  const Node& n = s.node(term);
  if (n.kind != NodeKind::In || n.flag || !is_attribute(s.node(n.children[0]), key.name)) return std::nullopt;
  std::vector<AttributeValue> values;
  for (std::size_t i = 1; i < n.children.size(); ++i) {
    auto v = typed_constant(s, n.children[i], key, parameters);
    if (!v) return std::nullopt;
    values.push_back(std::move(*v));
  }
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end(), key_less);
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

bool tests_key_attribute(const Statement& s, NodeId term, const KeyDef& key) { return tests_key(s, term, key, true); }

bool pins_attribute(const Statement& s, NodeId where, std::string_view attribute) {
  const Node& n = s.node(where);
  switch (n.kind) {
    case NodeKind::And:
      return pins_attribute(s, n.children[0], attribute) || pins_attribute(s, n.children[1], attribute);
    case NodeKind::Or:
      return pins_attribute(s, n.children[0], attribute) && pins_attribute(s, n.children[1], attribute);
    case NodeKind::Compare:
      return n.op == expr::CompareOp::Eq &&
             (is_attribute(s.node(n.children[0]), attribute) || is_attribute(s.node(n.children[1]), attribute));
    case NodeKind::In: return !n.flag && is_attribute(s.node(n.children[0]), attribute);
    default: return false;
  }
}

std::optional<expr::SortCondition> sort_condition(const Statement& s, NodeId term, const KeyElement& sort,
                                                  const Parameters& parameters) {
  const Node& n = s.node(term);
  expr::SortCondition c{sort.name, expr::SortOp::Eq, {}, std::nullopt};
  if (n.kind == NodeKind::Compare && n.op != expr::CompareOp::Ne) {
    for (int side = 0; side < 2; ++side) {
      if (!is_attribute(s.node(n.children[side]), sort.name)) continue;
      auto v = typed_constant(s, n.children[1 - side], sort, parameters);
      if (!v) return std::nullopt;
      c.op = sort_op(n.op, side == 1);
      c.value = std::move(*v);
      return c;
    }
    return std::nullopt;
  }
  if (n.kind == NodeKind::Between && !n.flag && is_attribute(s.node(n.children[0]), sort.name)) {
    auto lower = typed_constant(s, n.children[1], sort, parameters);
    auto upper = typed_constant(s, n.children[2], sort, parameters);
    if (!lower || !upper) return std::nullopt;
    expr::check_between_bounds(*lower, *upper, "");
    c.op = expr::SortOp::Between;
    c.value = std::move(*lower);
    c.upper = std::move(*upper);
    return c;
  }
  if (n.kind == NodeKind::Call && n.text == "begins_with" && n.children.size() == 2 && sort.type != ScalarType::N &&
      is_attribute(s.node(n.children[0]), sort.name)) {
    auto prefix = typed_constant(s, n.children[1], sort, parameters);
    if (!prefix) return std::nullopt;
    c.op = expr::SortOp::BeginsWith;
    c.value = std::move(*prefix);
    return c;
  }
  return std::nullopt;
}

std::optional<KeyTerms> split_key_terms(const Statement& s, const std::vector<NodeId>& terms, const KeyDef& key,
                                        const Parameters& parameters, bool typed) {
  KeyTerms out;
  std::vector<bool> used(terms.size(), false);
  std::vector<const KeyElement*> elements{&key.partition};
  if (key.sort) elements.push_back(&*key.sort);
  for (const KeyElement* element : elements) {
    bool found = false;
    for (std::size_t i = 0; i < terms.size() && !found; ++i) {
      if (used[i]) continue;
      auto v = key_equality(s, terms[i], element->name, parameters);
      if (!v || (typed && v->type() != to_attribute_type(element->type))) continue;
      out.key.set(element->name, std::move(*v));
      used[i] = found = true;
    }
    if (!found) return std::nullopt;
  }
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (!used[i]) out.rest.push_back(terms[i]);
  }
  return out;
}

void check_overlapping_branches(const Statement& s, NodeId where, const KeyDef& key, const Parameters& parameters) {
  if (!key.sort || s.node(where).kind != NodeKind::Or) return;
  std::vector<NodeId> branches;
  flatten_or(s, where, branches);
  // Branches that name a partition and a range of its sort key.
  std::vector<std::pair<AttributeValue, Range>> ranges;
  for (NodeId branch : branches) {
    const std::vector<NodeId> terms = and_terms(s, branch);
    std::optional<AttributeValue> partition;
    std::optional<expr::SortCondition> sort;
    for (NodeId t : terms) {
      if (auto v = key_equality(s, t, key.partition.name, parameters);
          !partition && v && v->type() == to_attribute_type(key.partition.type)) {
        partition = std::move(v);
      } else if (!sort) {
        sort = sort_condition(s, t, *key.sort, parameters);
      }
    }
    if (partition && sort) ranges.emplace_back(std::move(*partition), range_of(*sort));
  }
  for (std::size_t j = 1; j < ranges.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      if (ranges[i].first == ranges[j].first && intersect(ranges[i].second, ranges[j].second)) {
        throw ApiError::validation("Overlapping conditions with range keys are not supported in where clause");
      }
    }
  }
}

}  // namespace dynamod::partiql
