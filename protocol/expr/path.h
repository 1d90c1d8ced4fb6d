#pragma once
// A document path: an attribute name followed by .name and [index] steps.
// Paths are resolved (placeholders substituted) before they reach this type.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "protocol/attribute_value.h"

namespace dynamod::expr {

// DynamoDB allows 32 levels in a document path (the name counts as one).
inline constexpr std::size_t kMaxPathDepth = 32;

struct PathStep {
  std::variant<std::string, std::uint32_t> step;  // map key / list index

  bool is_name() const { return step.index() == 0; }
  const std::string& name() const { return std::get<0>(step); }
  std::uint32_t index() const { return std::get<1>(step); }
  friend bool operator==(const PathStep&, const PathStep&) = default;
};

struct Path {
  std::vector<PathStep> steps;  // steps[0] is always a name

  const std::string& root() const { return steps.front().name(); }
  // "a.b[1]": how a user would write it.
  std::string to_string() const;
  // "[a, b, [1]]": how DynamoDB's error messages render a path.
  std::string bracket_list() const;
  friend bool operator==(const Path&, const Path&) = default;
};

Path make_path(std::string root);

// Where a path points in an item; null when any step is missing or crosses a
// value of the wrong type (a name step into a list, an index into a map...).
const AttributeValue* find_path(const Item& item, const Path& path);

// Relation of two paths as DynamoDB's update and projection checks see it.
enum class PathRelation : std::uint8_t { Disjoint, Overlap, Conflict };
PathRelation relate(const Path& a, const Path& b);

// Throws "<prefix>Two document paths overlap ..."/"... conflict ..." for one
// pair of paths that is not disjoint. Which pair, and which path is named
// first, follow DynamoDB Local (probed; test_update_item.py,
// test_item_validation.py and test_partiql.py pin them):
// - LastPair (the expression language: UpdateExpression, ProjectionExpression):
//   the pair whose later path comes last, then whose earlier one does
//   (`SET l.x = :v, l[0] = :v, l = :v` names [l, [0]] and [l]), earlier first;
// - PartiqlTree (PartiQL): the first path that meets an earlier one, then a
//   path the tree of the earlier ones leads to from where they met
//   (`SELECT m.s, m` names [m] and [m, s]; path.cpp has the rule).
enum class PathPairOrder : std::uint8_t { LastPair, PartiqlTree };
void check_disjoint(const std::vector<const Path*>& paths, std::string_view error_prefix, PathPairOrder order);

}  // namespace dynamod::expr
