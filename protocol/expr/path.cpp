#include "protocol/expr/path.h"

#include "protocol/api_error.h"

namespace dynamod::expr {

Path make_path(std::string root) {
  Path p;
  p.steps.push_back(PathStep{std::move(root)});
  return p;
}

std::string Path::to_string() const {
  std::string out;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].is_name()) {
      if (i) out.push_back('.');
      out += steps[i].name();
    } else {
      out += '[' + std::to_string(steps[i].index()) + ']';
    }
  }
  return out;
}

std::string Path::bracket_list() const {
  std::string out = "[";
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (i) out += ", ";
    if (steps[i].is_name()) {
      out += steps[i].name();
    } else {
      out += '[' + std::to_string(steps[i].index()) + ']';
    }
  }
  out.push_back(']');
  return out;
}

const AttributeValue* find_path(const Item& item, const Path& path) {
  const AttributeValue* v = item.find(path.root());
  for (std::size_t i = 1; v && i < path.steps.size(); ++i) {
    const PathStep& s = path.steps[i];
    if (s.is_name()) {
      v = v->type() == AttributeType::M ? v->as_map().find(s.name()) : nullptr;
    } else if (v->type() == AttributeType::L) {
      const auto& values = v->as_list().values;
      v = s.index() < values.size() ? &values[s.index()] : nullptr;
    } else {
      v = nullptr;
    }
  }
  return v;
}

PathRelation relate(const Path& a, const Path& b) {
  const std::size_t n = std::min(a.steps.size(), b.steps.size());
  for (std::size_t i = 0; i < n; ++i) {
    const PathStep& x = a.steps[i];
    const PathStep& y = b.steps[i];
    // The same position reached as a map key by one and a list index by the
    // other: the two cannot both be valid for one item.
    if (x.is_name() != y.is_name()) return PathRelation::Conflict;
    if (!(x == y)) return PathRelation::Disjoint;
  }
  return PathRelation::Overlap;  // one is a prefix of (or equal to) the other
}

void check_disjoint(const std::vector<const Path*>& paths, std::string_view error_prefix, PathPairOrder order) {
  for (std::size_t j = 1; j < paths.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      PathRelation r = relate(*paths[i], *paths[j]);
      if (r == PathRelation::Disjoint) continue;
      std::string msg(error_prefix);
      msg += r == PathRelation::Overlap ? "Two document paths overlap with each other"
                                        : "Two document paths conflict with each other";
      const bool later_first = order == PathPairOrder::LaterFirst;
      msg += "; must remove or rewrite one of these paths; path one: " + paths[later_first ? j : i]->bracket_list() +
             ", path two: " + paths[later_first ? i : j]->bracket_list();
      throw ApiError::validation(std::move(msg));
    }
  }
}

}  // namespace dynamod::expr
