#include "protocol/partiql/statement_checks.h"

#include <algorithm>
#include <set>

#include "protocol/api_error.h"
#include "protocol/attribute_json.h"
#include "protocol/number.h"
#include "protocol/partiql/condition.h"
#include "protocol/partiql/translate.h"

namespace dynamod::partiql {
namespace {

void check_select_list(const Select& select) {
  if (!select.projection) return;
  std::set<std::string_view> seen;
  std::vector<const expr::Path*> paths;
  for (const SelectItem& item : *select.projection) {
    if (!seen.insert(item.name).second) {
      throw ApiError::validation("Duplicate identifiers in select clause: " + item.name);
    }
    paths.push_back(&item.path);
  }
  expr::check_disjoint(paths, "", expr::PathPairOrder::PartiqlTree);
}

// Where a literal sits inside the value it belongs to: the member names and
// element numbers from that value down (a bag's members sit where the bag does).
struct Place {
  std::optional<NodeId> parent;
  std::string key;        // a struct member's name
  std::size_t index = 0;  // a list element's number
};

std::vector<Place> places(const Statement& s) {
  std::vector<Place> out(s.nodes.size());
  // Each attribute of an INSERT's item is a value of its own.
  const auto* insert = std::get_if<Insert>(&s.body);
  for (NodeId id = 0; id < s.nodes.size(); ++id) {
    const Node& n = s.node(id);
    if (n.kind != NodeKind::List && n.kind != NodeKind::Struct && n.kind != NodeKind::Bag) continue;
    if (insert && insert->value == id) continue;
    for (std::size_t i = 0; i < n.children.size(); ++i) {
      Place& p = out[n.children[i]];
      p.parent = id;
      if (n.kind == NodeKind::Struct) p.key = n.keys[i];
      p.index = i;
    }
  }
  return out;
}

// The literal's place as the number errors write it (root.m[1]) and as the
// negative zero error does (root.m.1).
std::pair<std::string, std::string> where(const Statement& s, const std::vector<Place>& at, NodeId id) {
  std::string brackets, dots;
  for (std::optional<NodeId> n = id; at[*n].parent; n = at[*n].parent) {
    const Place& p = at[*n];
    const NodeKind container = s.node(*p.parent).kind;
    if (container == NodeKind::Bag) continue;
    const std::string name = container == NodeKind::List ? std::to_string(p.index) : p.key;
    brackets.insert(0, container == NodeKind::List ? "[" + name + "]" : "." + name);
    dots.insert(0, "." + name);
  }
  return {"root" + brackets, "root" + dots};
}

// The nodes of an UPDATE's SET values.
std::vector<bool> in_update_values(const Statement& s) {
  std::vector<bool> inside(s.nodes.size(), false);
  const auto* u = std::get_if<Update>(&s.body);
  if (u == nullptr) return inside;
  std::vector<NodeId> pending;
  for (const UpdateAction& a : u->actions) {
    if (a.value) pending.push_back(*a.value);
  }
  while (!pending.empty()) {
    const NodeId id = pending.back();
    pending.pop_back();
    inside[id] = true;
    for (NodeId c : s.node(id).children) pending.push_back(c);
  }
  return inside;
}

}  // namespace

void check_values_in_order(const Statement& s, const Parameters& parameters) {
  const std::vector<bool> skipped = in_update_values(s);
  std::vector<NodeId> values;  // number literals, parameters and IS tests
  for (NodeId id = 0; id < s.nodes.size(); ++id) {
    const NodeKind kind = s.node(id).kind;
    const bool taken = kind == NodeKind::Number || kind == NodeKind::Parameter || kind == NodeKind::Is;
    if (taken && !skipped[id]) values.push_back(id);
  }
  std::sort(values.begin(), values.end(), [&](NodeId a, NodeId b) {
    const Position& x = s.node(a).pos;
    const Position& y = s.node(b).pos;
    return std::pair(x.line, x.column) < std::pair(y.line, y.column);
  });
  for (NodeId id : values) {
    const Node& n = s.node(id);
    if (n.kind == NodeKind::Parameter) {
      if (n.parameter >= parameters.size()) parameters_do_not_match();
      continue;
    }
    if (n.kind == NodeKind::Is) {
      check_is(s, n);
      continue;
    }
    auto parsed = Number::parse(n.text);
    // (Where a literal sits is worked out only for the one refused.)
    if (!parsed.number) {
      throw ApiError::validation(number_error(parsed.error, n.text).message() + " under " +
                                 where(s, places(s), id).first);
    }
    if (negative_zero_decimal(n.text, *parsed.number)) negative_zero(n, where(s, places(s), id).second);
  }
}

void check_parsed(const Statement& s) {
  if (s.refusal) throw ApiError::validation(*s.refusal);
  if (const auto* select = std::get_if<Select>(&s.body)) check_select_list(*select);
}

void check_statement(const Statement& s, const Parameters& parameters) {
  check_parsed(s);
  check_values_in_order(s, parameters);
  check_where(s, parameters);
  check_update_clauses(s, parameters);
  check_table_name(s);
}

void check_table_name(const Statement& s) {
  const StatementKind kind = s.kind();
  if ((kind == StatementKind::Update || kind == StatementKind::Delete) && s.table().empty_component) {
    throw ApiError::validation(std::string(kEmptyPathComponent));
  }
}

void check_where(const Statement& s, const Parameters& parameters) {
  const std::optional<NodeId> where = std::visit(
      [](const auto& body) -> std::optional<NodeId> {
        using Body = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<Body, Exists>) return body.select.where;
        if constexpr (std::is_same_v<Body, Insert>) return std::nullopt;
        if constexpr (!std::is_same_v<Body, Exists> && !std::is_same_v<Body, Insert>) return body.where;
      },
      s.body);
  if (!where) return;
  check_condition_shape(s, *where);
  build_condition(s, and_terms(s, where), parameters);
}

}  // namespace dynamod::partiql
