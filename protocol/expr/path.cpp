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

namespace {

[[noreturn]] void throw_not_disjoint(PathRelation r, const Path& one, const Path& two, std::string_view error_prefix) {
  std::string msg(error_prefix);
  msg += r == PathRelation::Overlap ? "Two document paths overlap with each other"
                                    : "Two document paths conflict with each other";
  msg += "; must remove or rewrite one of these paths; path one: " + one.bracket_list() +
         ", path two: " + two.bracket_list();
  throw ApiError::validation(std::move(msg));
}

}  // namespace

void check_disjoint(const std::vector<const Path*>& paths, std::string_view error_prefix, PathPairOrder order) {
  if (order == PathPairOrder::LastPair) {
    for (std::size_t j = paths.size(); j-- > 1;) {
      for (std::size_t i = j; i-- > 0;) {
        const PathRelation r = relate(*paths[i], *paths[j]);
        if (r != PathRelation::Disjoint) throw_not_disjoint(r, *paths[i], *paths[j], error_prefix);
      }
    }
    return;
  }
  for (std::size_t j = 1; j < paths.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      const PathRelation r = relate(*paths[i], *paths[j]);
      if (r != PathRelation::Disjoint) throw_not_disjoint(r, *paths[j], *paths[i], error_prefix);
    }
  }
}

}  // namespace dynamod::expr
