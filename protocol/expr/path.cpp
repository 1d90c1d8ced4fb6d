#include "protocol/expr/path.h"

#include <algorithm>

#include "protocol/api_error.h"
#include "protocol/expr/java_hash.h"

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

// PartiQL's check: the paths go into a tree one after the other. The first
// that ends on a node already there, passes through an earlier path's end,
// or meets a node whose children are of the other kind (names against list
// indexes) is "path one"; "path two" is where the node it met that at leads
// by its last child at each level, children in java.util.HashMap order -
// not always a path it overlaps (DynamoDB Local: `SET a = 1, b = 2, a = 3`
// names [a] and [b]; `SET a.x = 1, a.y = 1, a.x.z = 1` names [a, y]).
class PathTree {
 public:
  PathTree() : nodes_(1) {}

  void insert(const Path& path, std::string_view error_prefix) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < path.steps.size(); ++i) {
      const PathStep& step = path.steps[i];
      const auto& children = nodes_[at].children;
      if (!children.empty() && children.front().first.is_name() != step.is_name()) {
        throw_not_disjoint(PathRelation::Conflict, path, last_leaf_from(at, path, i), error_prefix);
      }
      auto child = std::find_if(children.begin(), children.end(), [&](const auto& c) { return c.first == step; });
      const bool last_step = i + 1 == path.steps.size();
      if (child != children.end() && (last_step || nodes_[child->second].leaf)) {
        throw_not_disjoint(PathRelation::Overlap, path, last_leaf_from(at, path, i), error_prefix);
      }
      if (child == children.end()) {
        nodes_.emplace_back();
        nodes_[at].children.emplace_back(step, nodes_.size() - 1);
        at = nodes_.size() - 1;
      } else {
        at = child->second;
      }
    }
    nodes_[at].leaf = true;
  }

 private:
  struct Node {
    std::vector<std::pair<PathStep, std::size_t>> children;  // in insertion order
    bool leaf = false;
  };

  // The child a java.util.HashMap of these children iterates last: the
  // highest bucket (an index hashes as an Integer), the last put in it.
  std::size_t last_child(std::size_t at) const {
    const auto& children = nodes_[at].children;
    const std::size_t count = children.size();
    std::size_t best = 0;
    std::size_t best_bucket = 0;
    for (std::size_t c = 0; c < count; ++c) {
      const PathStep& step = children[c].first;
      const std::size_t bucket =
          step.is_name() ? java_hash_bucket(step.name(), count) : step.index() & (java_hash_capacity(count) - 1);
      if (c == 0 || bucket >= best_bucket) {
        best = c;
        best_bucket = bucket;
      }
    }
    return best;
  }

  // The node `at` is where `path`'s first `depth` steps lead.
  Path last_leaf_from(std::size_t at, const Path& path, std::size_t depth) const {
    Path out;
    out.steps.assign(path.steps.begin(), path.steps.begin() + static_cast<std::ptrdiff_t>(depth));
    while (!nodes_[at].children.empty()) {
      const auto& [step, next] = nodes_[at].children[last_child(at)];
      out.steps.push_back(step);
      at = next;
    }
    return out;
  }

  std::vector<Node> nodes_;
};

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
  PathTree tree;
  for (const Path* p : paths) tree.insert(*p, error_prefix);
}

}  // namespace dynamod::expr
