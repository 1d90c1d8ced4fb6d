// ProjectionExpression semantics (behaviour compared with DynamoDB Local).
#include "tests/unit/expr/expr_test_util.h"

namespace dynamod::expr::test {
namespace {
std::string proj(std::string_view text) {
  Fixture f;
  return to_json(project(sample(), parse_projection(text, f.p)));
}
}  // namespace

TEST_CASE("expr: projection rebuilds nested picks inside their parents") {
  CHECK(proj("n") == R"({"n":{"N":"5"}})");
  CHECK(proj("m.x") == R"({"m":{"M":{"x":{"N":"1"}}}})");
  CHECK(proj("m.x, m.z.q") == R"({"m":{"M":{"x":{"N":"1"},"z":{"M":{"q":{"S":"deep"}}}}}})");
  CHECK(proj("l[2], l[0]") == R"({"l":{"L":[{"N":"0"},{"L":[{"N":"0"}]}]}})");  // compacted, index order
  CHECK(proj("l[2][0]") == R"({"l":{"L":[{"L":[{"N":"0"}]}]}})");
  CHECK(proj("#dot") == R"({"a.b":{"N":"7"}})");
  CHECK(proj("nope, m.nope, l[9], s.x") == "{}");
  CHECK(proj("n, nope") == R"({"n":{"N":"5"}})");
}

}  // namespace dynamod::expr::test
