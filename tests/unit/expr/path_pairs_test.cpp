// Which two paths an overlap or conflict error names (behaviour compared with
// DynamoDB Local: test_update_item.py, test_item_validation.py, test_partiql.py).
#include "tests/unit/expr/expr_test_util.h"

namespace dynamod::expr::test {
namespace {

// "a.b[1], c" as paths, unchecked (parse_projection makes the expression
// language's own check).
std::vector<Path> paths_of(std::string_view list) {
  std::vector<Path> paths(1);
  std::string name;
  auto end_name = [&] {
    if (!name.empty()) paths.back().steps.push_back(PathStep{name});
    name.clear();
  };
  for (std::size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    if (c == ',') {
      end_name();
      paths.emplace_back();
    } else if (c == '.') {
      end_name();
    } else if (c == '[') {
      end_name();
      const std::size_t close = list.find(']', i);
      const std::string index(list.substr(i + 1, close - i - 1));
      paths.back().steps.push_back(PathStep{static_cast<std::uint32_t>(std::stoul(index))});
      i = close;
    } else if (c != ' ') {
      name += c;
    }
  }
  end_name();
  return paths;
}

std::string named_pair(std::string_view list, PathPairOrder order) {
  const std::vector<Path> paths = paths_of(list);
  std::vector<const Path*> pointers;
  for (const Path& p : paths) pointers.push_back(&p);
  try {
    check_disjoint(pointers, "", order);
  } catch (const ApiError& e) {
    const std::string& m = e.message();
    return (m.find("overlap") != std::string::npos ? "overlap " : "conflict ") + m.substr(m.find("path one: "));
  }
  return "";
}

}  // namespace

TEST_CASE("expr: the expression language names the last pair, the earlier path first") {
  CHECK(named_pair("a, b", PathPairOrder::LastPair) == "");
  CHECK(named_pair("l.x, l[0], l", PathPairOrder::LastPair) == "overlap path one: [l, [0]], path two: [l]");
  CHECK(named_pair("l, l.x, l[0]", PathPairOrder::LastPair) == "conflict path one: [l, x], path two: [l, [0]]");
}

TEST_CASE("expr: PartiQL names the later path, then where the earlier ones lead from where they met") {
  const auto tree = PathPairOrder::PartiqlTree;
  CHECK(named_pair("m.s, m", tree) == "overlap path one: [m], path two: [m, s]");
  CHECK(named_pair("a, a[2]", tree) == "overlap path one: [a, [2]], path two: [a]");
  // The last root in java.util.HashMap order (a 1, b 2, c 3), down by last children to a leaf.
  CHECK(named_pair("a, b, a", tree) == "overlap path one: [a], path two: [b]");
  CHECK(named_pair("c, b, a, c", tree) == "overlap path one: [c], path two: [c]");
  CHECK(named_pair("c.x, b, a, c.y, c", tree) == "overlap path one: [c], path two: [c, y]");
  // Met under `a`: its last child.
  CHECK(named_pair("a.x, a.y, b, a.x.z", tree) == "overlap path one: [a, x, z], path two: [a, y]");
  CHECK(named_pair("b, a[1], a.x", tree) == "conflict path one: [a, x], path two: [a, [1]]");
  CHECK(named_pair("a.x, a.y, a.z.w", tree) == "");
}

}  // namespace dynamod::expr::test
