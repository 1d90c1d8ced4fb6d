#include "protocol/expr/projection.h"

#include <algorithm>
#include <optional>

namespace dynamod::expr {
namespace {

// The requested paths as a tree: one node per step; `whole` when a path
// ends here (the whole value is wanted).
struct Trie {
  PathStep step;
  bool whole = false;
  std::vector<Trie> children;
};

Trie& child(Trie& t, const PathStep& s) {
  for (auto& c : t.children) {
    if (c.step == s) return c;
  }
  t.children.push_back(Trie{s, false, {}});
  return t.children.back();
}

std::optional<AttributeValue> pick(const AttributeValue& v, const Trie& t) {
  if (t.whole) return v;
  if (v.type() == AttributeType::M) {
    Map out;
    for (const auto& sub : t.children) {
      if (!sub.step.is_name()) continue;
      const AttributeValue* c = v.as_map().find(sub.step.name());
      if (!c) continue;
      if (auto picked = pick(*c, sub)) out.set(sub.step.name(), std::move(*picked));
    }
    if (out.empty()) return std::nullopt;
    return AttributeValue::map(std::move(out));
  }
  if (v.type() == AttributeType::L) {
    std::vector<const Trie*> indexes;
    for (const auto& sub : t.children) {
      if (!sub.step.is_name()) indexes.push_back(&sub);
    }
    std::sort(indexes.begin(), indexes.end(),
              [](const Trie* a, const Trie* b) { return a->step.index() < b->step.index(); });
    List out;
    const auto& values = v.as_list().values;
    for (const Trie* sub : indexes) {
      if (sub->step.index() >= values.size()) continue;
      if (auto picked = pick(values[sub->step.index()], *sub)) out.values.push_back(std::move(*picked));
    }
    if (out.values.empty()) return std::nullopt;
    return AttributeValue::list(std::move(out));
  }
  return std::nullopt;
}

}  // namespace

Item project_paths(const Item& item, const std::vector<const Path*>& paths) {
  Trie root;
  for (const Path* p : paths) {
    Trie* t = &root;
    for (const auto& s : p->steps) t = &child(*t, s);
    t->whole = true;
  }
  Item out;
  for (const auto& sub : root.children) {
    const AttributeValue* v = item.find(sub.step.name());
    if (!v) continue;
    if (auto picked = pick(*v, sub)) out.set(sub.step.name(), std::move(*picked));
  }
  return out;
}

Item project(const Item& item, const std::vector<Path>& paths) {
  std::vector<const Path*> ptrs;
  ptrs.reserve(paths.size());
  for (const auto& p : paths) ptrs.push_back(&p);
  return project_paths(item, ptrs);
}

Item project_named(const Item& item, const std::vector<Path>& paths, const std::vector<std::string>& names) {
  Item out;
  for (std::size_t i = 0; i < paths.size() && i < names.size(); ++i) {
    if (const AttributeValue* v = find_path(item, paths[i])) out.set(names[i], *v);
  }
  return out;
}

}  // namespace dynamod::expr
