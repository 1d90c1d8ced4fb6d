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

}  // namespace

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

void check_query_key(const Statement& s, const std::vector<NodeId>& terms, const KeyDef& key,
                     const Parameters& parameters) {
  std::optional<AttributeValue> partition;
  for (NodeId t : terms) {
    if (!partition) partition = key_equality(s, t, key.partition.name, parameters);
  }
  if (!partition) return;  // a Scan
  if (key.sort) {
    for (NodeId t : terms) {
      for (NodeId c : compared_constants(s, t, key.sort->name)) check_type(constant_value(s, c, parameters), *key.sort);
    }
  }
  check_type(*partition, key.partition);
}

bool is_key_error(const ApiError& e) {
  return e.code() == ErrorCode::ValidationException &&
         (e.message().starts_with(kMissing) || e.message().starts_with(kWrongType));
}

}  // namespace dynamod::partiql
