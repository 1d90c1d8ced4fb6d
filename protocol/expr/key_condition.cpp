#include "protocol/expr/key_condition.h"

#include "protocol/api_error.h"
#include "protocol/expr/value_text.h"
#include "protocol/key_paths.h"
#include "protocol/key_validation.h"

namespace dynamod::expr {
namespace {

[[noreturn]] void fail(const std::string& msg) { throw ApiError::validation(msg); }

// Any path of more than one step, on a key attribute or not (the service, eu-west-2 2026:
// dynoxide's and ExtendDB's captures; DynamoDB Local names a key attribute's path as
// key_paths.h does).
[[noreturn]] void fail_nested() {
  fail("Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes");
}

struct Leaf {
  std::string name;
  SortOp op;
  const AttributeValue* value = nullptr;
  const AttributeValue* upper = nullptr;
};

const Path* single_path(const Operand& o) { return o.path(); }

// The one key attribute a leaf condition names (and checks it is a plain
// top-level name).
const std::string& key_name(const Path& p) {
  if (p.steps.size() > 1) fail_nested();
  return p.root();
}

void reject_nested(const Operand& o) {
  if (o.call()) fail("KeyConditionExpressions cannot contain nested operations");
}

SortOp flip(SortOp op) {
  switch (op) {
    case SortOp::Lt: return SortOp::Gt;
    case SortOp::Le: return SortOp::Ge;
    case SortOp::Gt: return SortOp::Lt;
    case SortOp::Ge: return SortOp::Le;
    default: return op;
  }
}

void collect(const Condition& c, std::uint32_t id, const KeyDef& key, std::vector<Leaf>& leaves) {
  const ConditionNode& n = c.nodes[id];
  if (const auto* a = std::get_if<And>(&n.v)) {
    collect(c, a->left, key, leaves);
    collect(c, a->right, key, leaves);
    return;
  }
  if (std::holds_alternative<Or>(n.v)) fail("Invalid operator used in KeyConditionExpression: OR");
  if (std::holds_alternative<Not>(n.v)) fail("Invalid operator used in KeyConditionExpression: NOT");
  if (std::holds_alternative<In>(n.v)) fail("Invalid operator used in KeyConditionExpression: IN");
  if (const auto* cmp = std::get_if<Comparison>(&n.v)) {
    if (cmp->op == CompareOp::Ne) fail("Invalid operator used in KeyConditionExpression: <>");
    reject_nested(cmp->lhs);
    reject_nested(cmp->rhs);
    const Path* l = single_path(cmp->lhs);
    const Path* r = single_path(cmp->rhs);
    // The service's order: a nested first operand, two names, a nested second.
    if (l) key_name(*l);
    if (l && r) fail("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
    if (r) key_name(*r);
    if (!l && !r) fail("Invalid condition in KeyConditionExpression: No key attribute specified");
    SortOp op = cmp->op == CompareOp::Eq   ? SortOp::Eq
                : cmp->op == CompareOp::Lt ? SortOp::Lt
                : cmp->op == CompareOp::Le ? SortOp::Le
                : cmp->op == CompareOp::Gt ? SortOp::Gt
                                           : SortOp::Ge;
    if (l) {
      leaves.push_back(Leaf{key_name(*l), op, cmp->rhs.constant()});
    } else {
      // ":v < sk" means "sk > :v".
      leaves.push_back(Leaf{key_name(*r), flip(op), cmp->lhs.constant()});
    }
    return;
  }
  if (const auto* b = std::get_if<Between>(&n.v)) {
    reject_nested(b->value);
    reject_nested(b->lower);
    reject_nested(b->upper);
    const Path* p = single_path(b->value);
    if (p) key_name(*p);
    if (!p) {
      fail(
          "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first "
          "operand");
    }
    if (b->lower.path() || b->upper.path()) {
      fail("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
    }
    leaves.push_back(Leaf{key_name(*p), SortOp::Between, b->lower.constant(), b->upper.constant()});
    return;
  }
  const auto& f = std::get<FunctionCondition>(n.v).call;
  if (f.kind != FunctionKind::BeginsWith) {
    fail("Invalid operator used in KeyConditionExpression: " + std::string(function_name(f.kind)));
  }
  reject_nested(f.args[0]);
  reject_nested(f.args[1]);
  const Path* p = single_path(f.args[0]);
  if (p) key_name(*p);
  if (!p) {
    fail(
        "Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first "
        "operand");
  }
  if (f.args[1].path()) {
    fail("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
  }
  leaves.push_back(Leaf{key_name(*p), SortOp::BeginsWith, f.args[1].constant()});
}

void check_type(const AttributeValue* v, ScalarType t) {
  if (!v || v->type() != to_attribute_type(t)) {
    throw ApiError::invalid_parameter("Condition parameter type does not match schema type");
  }
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

void check_operand(const Leaf& leaf, const KeyElement& k, std::string_view index) {
  check_type(leaf.value, k.type);
  if (leaf.op == SortOp::Between) check_type(leaf.upper, k.type);
  if (leaf.op == SortOp::BeginsWith && k.type == ScalarType::N) {
    throw ApiError::invalid_parameter("Condition parameter type does not match schema type");
  }
  check_key_value_not_empty(k.name, *leaf.value, index);
  if (leaf.upper) check_key_value_not_empty(k.name, *leaf.upper, index);
}

// A multi-attribute key (DynamoDB Local 3.3; the documentation gives the
// rules, not the messages): every partition-key attribute with "=", then the
// sort-key attributes from the first on, equalities on a leading run and at
// most one other condition, on the last attribute tested.
KeyCondition extract_multi_attribute(const std::vector<Leaf>& leaves, const KeyDef& key, std::string_view index) {
  const std::vector<const KeyElement*> partitions = key.partition_elements();
  const std::vector<const KeyElement*> sorts = key.sort_elements();
  if (leaves.size() > partitions.size() + sorts.size()) fail("Query key condition not supported");
  auto leaf_on = [&](const KeyElement* k) -> const Leaf* {
    for (const auto& l : leaves) {
      if (l.name == k->name) return &l;
    }
    return nullptr;
  };
  std::vector<std::string> unequal;
  for (const KeyElement* k : partitions) {
    const Leaf* l = leaf_on(k);
    if (l == nullptr || l->op != SortOp::Eq) unequal.push_back(k->name);
  }
  if (!unequal.empty()) {
    fail("HASH key attributes " + joined(unequal) + " must have equality conditions specified in the query");
  }
  std::size_t tested = 0;  // sort-key attributes up to the last one with a condition
  for (std::size_t i = 0; i < sorts.size(); ++i) {
    if (leaf_on(sorts[i]) != nullptr) tested = i + 1;
  }
  for (std::size_t i = 0; i + 1 < tested; ++i) {
    const Leaf* l = leaf_on(sorts[i]);
    if (l == nullptr || l->op != SortOp::Eq) unequal.push_back(sorts[i]->name);
  }
  if (!unequal.empty()) {
    fail("RANGE key attributes " + joined(unequal) +
         " must have equality conditions specified in the query because a condition is present on key attribute " +
         sorts[tested - 1]->name);
  }
  for (const auto& l : leaves) {
    if (!key.includes(l.name)) fail("Query condition missed key schema element");
  }
  KeyCondition out;
  for (const KeyElement* k : partitions) {
    const Leaf& l = *leaf_on(k);
    check_operand(l, *k, index);
    if (k == partitions.front()) {
      out.partition_name = k->name;
      out.partition = *l.value;
    } else {
      out.more_partition.push_back({k->name, *l.value});
    }
  }
  for (std::size_t i = 0; i < tested; ++i) {
    const Leaf& l = *leaf_on(sorts[i]);
    check_operand(l, *sorts[i], index);
    if (l.op == SortOp::Eq) {
      out.sort_equalities.push_back({sorts[i]->name, *l.value});
    } else {
      out.sort = SortCondition{sorts[i]->name, l.op, *l.value, std::nullopt};
      if (l.upper) out.sort->upper = *l.upper;
    }
  }
  return out;
}

}  // namespace

void check_key_condition_not_nested(const Condition& c) {
  PathList paths;
  collect_paths(c, paths);
  for (const Path* p : paths) {
    if (p->steps.size() > 1) fail_nested();
  }
}

KeyCondition extract_key_condition(const Condition& c, const KeyDef& key, std::string_view index) {
  std::vector<Leaf> leaves;
  if (!c.empty()) collect(c, c.root, key, leaves);
  if (key.multi_attribute()) {
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (leaves[i].name == leaves[j].name) fail("KeyConditionExpressions must only contain one condition per key");
      }
    }
    return extract_multi_attribute(leaves, key, index);
  }
  if (leaves.size() > 2) fail("Conditions can be of length 1 or 2 only");
  if (leaves.size() == 2 && leaves[0].name == leaves[1].name) {
    fail("KeyConditionExpressions must only contain one condition per key");
  }
  const Leaf* partition = nullptr;
  const Leaf* sort = nullptr;
  for (const auto& l : leaves) {
    if (l.name == key.partition.name) {
      partition = &l;
    } else if (key.sort && l.name == key.sort->name) {
      sort = &l;
    } else {
      // The service names the key element it did not find: the partition key
      // if it is absent, else the sort key.
      const std::string& missing =
          partition || !key.sort ? (key.sort ? key.sort->name : key.partition.name) : key.partition.name;
      fail("Query condition missed key schema element: " + missing);
    }
  }
  if (!partition) fail("Query condition missed key schema element: " + key.partition.name);
  if (partition->op != SortOp::Eq) fail("Query key condition not supported");
  check_type(partition->value, key.partition.type);
  check_key_value_not_empty(key.partition.name, *partition->value, index);
  KeyCondition out{key.partition.name, *partition->value, std::nullopt};
  if (sort) {
    check_type(sort->value, key.sort->type);
    if (sort->op == SortOp::Between) check_type(sort->upper, key.sort->type);
    if (sort->op == SortOp::BeginsWith && key.sort->type == ScalarType::N) {
      throw ApiError::invalid_parameter("Condition parameter type does not match schema type");
    }
    check_key_value_not_empty(key.sort->name, *sort->value, index);
    if (sort->upper) check_key_value_not_empty(key.sort->name, *sort->upper, index);
    SortCondition s{key.sort->name, sort->op, *sort->value, std::nullopt};
    if (sort->upper) s.upper = *sort->upper;
    out.sort = std::move(s);
  }
  return out;
}

void check_start_key_bounds(const KeyCondition& kc, const KeyDef& key, const Item& start) {
  auto outside_range = [] {
    return ApiError::validation("The provided starting key does not match the range key predicate");
  };
  const std::vector<const KeyElement*> partitions = key.partition_elements();
  for (std::size_t i = 0; i < partitions.size(); ++i) {
    const AttributeValue* v = start.find(partitions[i]->name);
    if (v == nullptr || !(*v == (i == 0 ? kc.partition : kc.more_partition[i - 1].value))) {
      // A multi-attribute key names every mismatch the range key predicate's (DynamoDB Local 3.3).
      if (key.multi_attribute()) throw outside_range();
      throw ApiError::validation("The provided starting key is outside query boundaries based on provided conditions");
    }
  }
  for (const KeyEquality& e : kc.sort_equalities) {
    const AttributeValue* v = start.find(e.name);
    if (v == nullptr || !(*v == e.value)) throw outside_range();
  }
  if (kc.sort) {
    const AttributeValue* sort = start.find(kc.sort->name);
    if (sort == nullptr || !matches_sort_condition(*kc.sort, *sort)) throw outside_range();
  }
}

bool matches_sort_condition(const SortCondition& s, const AttributeValue& v) {
  if (v.type() != s.value.type()) return false;
  const int c = compare_scalars(v, s.value);
  switch (s.op) {
    case SortOp::Eq: return c == 0;
    case SortOp::Lt: return c < 0;
    case SortOp::Le: return c <= 0;
    case SortOp::Gt: return c > 0;
    case SortOp::Ge: return c >= 0;
    case SortOp::Between: return c >= 0 && s.upper && compare_scalars(v, *s.upper) <= 0;
    case SortOp::BeginsWith:
      if (v.type() == AttributeType::S) return v.as_string().starts_with(s.value.as_string());
      return v.type() == AttributeType::B && v.as_binary().starts_with(s.value.as_binary());
  }
  return false;
}

}  // namespace dynamod::expr
