#include "protocol/partiql/key_types.h"

#include "protocol/api_error.h"
#include "protocol/partiql/keys.h"

namespace dynamod::partiql {
namespace {

constexpr std::string_view kMissing = "Key attribute should be present in the item: Key ";
constexpr std::string_view kWrongType = "Key attribute's data type should match its data type in table's schema: Key ";

[[noreturn]] void wrong_type(const std::string& name) { throw ApiError::validation(std::string(kWrongType) + name); }

void check_type(const AttributeValue& v, const KeyElement& element) {
  if (v.type() != to_attribute_type(element.type)) wrong_type(element.name);
}

bool names(const Statement& s, NodeId id, const std::string& attribute) {
  const Node& n = s.node(id);
  return n.kind == NodeKind::Path && n.path.steps.size() == 1 && n.path.root() == attribute;
}

// The constants a term compares with `attribute` the way a key condition would.
std::vector<NodeId> compared_constants(const Statement& s, NodeId term, const std::string& attribute) {
  const Node& n = s.node(term);
  if (n.kind == NodeKind::Compare && n.op != expr::CompareOp::Ne) {
    for (int side = 0; side < 2; ++side) {
      if (names(s, n.children[side], attribute) && is_constant(s, n.children[1 - side])) {
        return {n.children[1 - side]};
      }
    }
  }
  if (n.kind == NodeKind::Between && !n.flag && names(s, n.children[0], attribute)) {
    std::vector<NodeId> bounds;
    for (NodeId b : {n.children[1], n.children[2]}) {
      if (is_constant(s, b)) bounds.push_back(b);
    }
    return bounds;
  }
  if (n.kind == NodeKind::Call && n.text == "begins_with" && n.children.size() == 2 &&
      names(s, n.children[0], attribute) && is_constant(s, n.children[1])) {
    return {n.children[1]};
  }
  return {};
}

bool is_null_test(const Statement& s, NodeId term, const std::string& attribute) {
  const Node& n = s.node(term);
  return n.kind == NodeKind::Is && !n.flag && n.text == "NULL" && names(s, n.children[0], attribute);
}

const KeyElement* key_named(const Statement& s, NodeId id, const KeyDef& read_key, const KeyDef& table_key) {
  const Node& n = s.node(id);
  if (n.kind != NodeKind::Path || n.path.steps.size() != 1) return nullptr;
  for (const KeyDef* key : {&read_key, &table_key}) {
    for (const KeyElement* e : {&key->partition, key->sort ? &*key->sort : nullptr}) {
      if (e != nullptr && e->name == n.path.root()) return e;
    }
  }
  return nullptr;
}

class ConditionKeyTypes {
 public:
  ConditionKeyTypes(const Statement& s, const KeyDef& read_key, const KeyDef& table_key, const Parameters& parameters)
      : s_(s), read_key_(read_key), table_key_(table_key), parameters_(parameters) {}

  void check(NodeId id) {
    const Node& n = s_.node(id);
    switch (n.kind) {
      case NodeKind::Not:
      case NodeKind::And:
      case NodeKind::Or:
        for (NodeId c : n.children) check(c);
        return;
      case NodeKind::Compare:
        compare_side(n.children[0], n.children[1]);
        compare_side(n.children[1], n.children[0]);
        return;
      case NodeKind::Between:
        compare_side(n.children[0], n.children[1]);
        compare_side(n.children[0], n.children[2]);
        return;
      case NodeKind::In:
        // The list's first value only (`sk IN [1, 'a']` passes on an N key).
        if (n.children.size() > 1) compare_side(n.children[0], n.children[1]);
        return;
      case NodeKind::Is:
        if (const KeyElement* k = key_named(s_, n.children[0], read_key_, table_key_)) {
          // IS NULL compares with a NULL; IS <type> with the type's name, a string.
          if (n.text == "NULL") mismatch();
          if (n.text != "MISSING" && k->type != ScalarType::S) mismatch();
        }
        return;
      case NodeKind::Call:
        if ((n.text == "contains" || n.text == "begins_with" || n.text == "attribute_type") && n.children.size() == 2) {
          compare_side(n.children[0], n.children[1]);
        }
        return;
      default: return;
    }
  }

 private:
  void compare_side(NodeId attribute, NodeId value) {
    const KeyElement* k = key_named(s_, attribute, read_key_, table_key_);
    if (k == nullptr || !is_constant(s_, value)) return;
    if (constant_value(s_, value, parameters_).type() != to_attribute_type(k->type)) mismatch();
  }

  [[noreturn]] static void mismatch() {
    throw ApiError::invalid_parameter("Condition parameter type does not match schema type");
  }

  const Statement& s_;
  const KeyDef& read_key_;
  const KeyDef& table_key_;
  const Parameters& parameters_;
};

}  // namespace

QueryTerms query_terms(const Statement& s, const std::vector<NodeId>& terms, const KeyDef& key,
                       const Parameters& parameters) {
  QueryTerms q;
  for (NodeId t : terms) {
    if (key_equality(s, t, key.partition.name, parameters)) {
      q.partition = t;
      break;
    }
  }
  if (!q.partition) return q;
  for (NodeId t : terms) {
    if (t == *q.partition) continue;
    if (key.sort && !q.sort &&
        (!compared_constants(s, t, key.sort->name).empty() || is_null_test(s, t, key.sort->name))) {
      q.sort = t;
    } else if (tests_key_attribute(s, t, key) && !key_equality(s, t, key.partition.name, parameters)) {
      q.scan = true;
    }
  }
  return q;
}

void check_item_key(const Item& item, const KeyDef& key) {
  for (const KeyElement* element : {&key.partition, key.sort ? &*key.sort : nullptr}) {
    if (element == nullptr) continue;
    const AttributeValue* v = item.find(element->name);
    if (v == nullptr) throw ApiError::validation(std::string(kMissing) + element->name);
    check_type(*v, *element);
  }
}

void check_named_key(const Item& key, const KeyDef& def) {
  for (const KeyElement* element : {def.sort ? &*def.sort : nullptr, &def.partition}) {
    if (element == nullptr) continue;
    if (const AttributeValue* v = key.find(element->name)) check_type(*v, *element);
  }
}

void check_query_key(const Statement& s, const QueryTerms& q, const KeyDef& key, const Parameters& parameters) {
  if (!q.partition || q.scan) return;  // a Scan: its filter's types are check_condition_key_types's
  if (q.sort && key.sort) {
    for (NodeId c : compared_constants(s, *q.sort, key.sort->name)) {
      check_type(constant_value(s, c, parameters), *key.sort);
    }
  }
  check_type(*key_equality(s, *q.partition, key.partition.name, parameters), key.partition);
}

void check_condition_key_types(const Statement& s, const std::vector<NodeId>& terms, const QueryTerms& q,
                               const KeyDef& read_key, const KeyDef& table_key, const Parameters& parameters) {
  const std::string& partition = read_key.partition.name;
  const bool query = q.partition && !q.scan;
  ConditionKeyTypes checker(s, read_key, table_key, parameters);
  bool after_partition = false;  // a `pk IS NULL` after the partition's equality is the filter's
  for (NodeId t : terms) {
    const Node& n = s.node(t);
    after_partition = after_partition || (q.partition && t == *q.partition);
    if (is_null_test(s, t, partition) && !after_partition) wrong_type(partition);
    if (query && t == q.sort && is_null_test(s, t, read_key.sort->name)) wrong_type(read_key.sort->name);
    if (query && (key_equality(s, t, partition, parameters) || t == q.sort)) continue;
    if (!q.partition && n.kind == NodeKind::In && !n.flag && names(s, n.children[0], partition)) {
      // A list of partitions, read as a Query of each.
      if (n.children.size() > 1 && is_constant(s, n.children[1])) {
        check_type(constant_value(s, n.children[1], parameters), read_key.partition);
      }
      continue;
    }
    checker.check(t);
  }
}

void check_single_key_values(const Statement& s, const std::vector<NodeId>& rest, const Item& key, const KeyDef& def,
                             const Parameters& parameters) {
  for (NodeId t : rest) {
    for (const KeyElement* e : {&def.partition, def.sort ? &*def.sort : nullptr}) {
      if (e == nullptr) continue;
      const auto value = key_equality(s, t, e->name, parameters);
      if (is_null_test(s, t, e->name) || (value && !(*value == *key.find(e->name)))) {
        throw ApiError::validation("Multiple conditions on same key " + e->name +
                                   ". Only single item Update/Insert/Delete are supported");
      }
    }
  }
}

bool is_key_error(const ApiError& e) {
  return e.code() == ErrorCode::ValidationException &&
         (e.message().starts_with(kMissing) || e.message().starts_with(kWrongType));
}

}  // namespace dynamod::partiql
