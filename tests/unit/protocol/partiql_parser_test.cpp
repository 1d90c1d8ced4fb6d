// The PartiQL grammar: every statement form DynamoDB runs, the select list's
// names, and the service's messages for statements it refuses at parse
// time, with positions (see /work/notes/errors-partiql-tags-misc.md).
#include <doctest/doctest.h>

#include "protocol/partiql/parser.h"
#include "protocol/partiql/statement_checks.h"

namespace dynamod::partiql {
namespace {

std::string parse_error(std::string_view text) {
  try {
    parse(text);
  } catch (const ApiError& e) {
    return e.message();
  }
  return "";
}

// check_parsed, then the literals (the cases have no parameters to count).
std::string check_error(std::string_view text) {
  try {
    const Statement s = parse(text);
    check_parsed(s);
    check_values_in_order(s, {});
  } catch (const ApiError& e) {
    return e.message();
  }
  return "";
}

const std::string kEnvelope(kNotWellFormed);

}  // namespace

TEST_CASE("partiql parser: every statement form parses") {
  for (
      const char* text : {
          R"(SELECT * FROM "t")",
          R"(select a, "b", m.c, l[1], m['k'] from t where pk = 'x' and sk between 1 and 2 order by sk desc)",
          R"(SELECT * FROM "t"."idx" WHERE g = ? AND (a > 1 OR NOT b IS MISSING) AND c IN [1, 2] AND d NOT IN (3))",
          R"(SELECT * FROM t WHERE attribute_exists(a) = true AND size(s) >= 3 AND s IS NOT NULL AND t IS STRING)",
          R"(INSERT INTO "t" VALUE {'pk': 'a', 'n': -7, 'l': [1, .5e1], 'm': {'x': null}, 'ss': <<'a', 'b'>>, 'b': true})",
          R"(UPDATE t SET a = a + 1, m.c = 'x' SET l = list_append(l, [2]) REMOVE b REMOVE c[0] WHERE pk = 'k' RETURNING ALL NEW *)",
          R"(FROM t WHERE pk = ? SET ss = set_add(ss, <<'x'>>) REMOVE q)",
          R"(DELETE FROM t WHERE pk = 'k' AND a = 1 RETURNING ALL OLD *)",
          R"(EXISTS(SELECT * FROM t WHERE pk = 'k' AND a = 1))",
          R"(SELECT a, "A", b.c, d[0] FROM t WHERE n = -0 AND m = 0.0)",
      }) {
    CAPTURE(text);
    CHECK(parse_error(text) == "");
  }
}

TEST_CASE("partiql parser: statement shapes") {
  Statement s = parse(R"(SELECT x, m.c, l[1], "q" FROM "t"."i" WHERE pk = ? ORDER BY sk DESC)");
  REQUIRE(s.kind() == StatementKind::Select);
  const Select& select = std::get<Select>(s.body);
  REQUIRE(select.projection);
  std::vector<std::string> names;
  for (const auto& item : *select.projection) names.push_back(item.name);
  // A nested path comes back under its last component, a list element as written.
  CHECK(names == std::vector<std::string>{"x", "c", "l[1]", "q"});
  CHECK(s.table().table == "t");
  CHECK(s.table().index == "i");
  REQUIRE(select.order_by.size() == 1);
  CHECK(select.order_by[0].descending);
  // ORDER BY takes a list of keys, each with its own direction.
  const Statement two = parse("SELECT * FROM t WHERE pk = 1 ORDER BY pk, sk DESC");
  const Select& ordered = std::get<Select>(two.body);
  REQUIRE(ordered.order_by.size() == 2);
  CHECK(ordered.order_by[0].path.to_string() == "pk");
  CHECK(!ordered.order_by[0].descending);
  CHECK(ordered.order_by[1].descending);
  CHECK(s.parameter_count == 1);

  // FROM-first: parameters are numbered in the order they are written.
  Statement u = parse("from t where pk = ? set c = ? remove b returning modified old *");
  REQUIRE(u.kind() == StatementKind::Update);
  const Update& update = std::get<Update>(u.body);
  CHECK(u.parameter_count == 2);
  CHECK(u.node(*update.where).kind == NodeKind::Compare);
  CHECK(u.node(u.node(*update.where).children[1]).parameter == 0);
  CHECK(u.node(*update.actions[0].value).parameter == 1);
  CHECK_FALSE(update.actions[1].value.has_value());
  REQUIRE(u.returning());
  CHECK(u.returning()->image == ReturnImage::ModifiedOld);
  // As written, for the DELETE message that quotes it.
  CHECK(u.returning()->text == "returning modified old *");
}

TEST_CASE("partiql parser: literals") {
  Statement s = parse("INSERT INTO t VALUE {'s': 'it''s', 'n': -.73e1, 'z': NULL, 'b': FALSE}");
  const Node& value = s.node(std::get<Insert>(s.body).value);
  REQUIRE(value.kind == NodeKind::Struct);
  CHECK(value.keys == std::vector<std::string>{"s", "n", "z", "b"});
  CHECK(s.node(value.children[0]).text == "it's");
  CHECK(s.node(value.children[1]).text == "-.73e1");
  CHECK(s.node(value.children[2]).kind == NodeKind::Null);
  CHECK(s.node(value.children[3]).kind == NodeKind::Boolean);
  // "double quoted" is a name, never a string.
  Statement q = parse(R"(SELECT * FROM t WHERE pk = "u1")");
  CHECK(q.node(q.node(*std::get<Select>(q.body).where).children[1]).kind == NodeKind::Path);
}

TEST_CASE("partiql parser: grammar errors carry the parser's detail") {
  const std::pair<const char*, const char*> cases[] = {
      {"SLECT * FROM t WHERE pk = 'a'", "Expected data manipulation"},
      {"UPSERT INTO t VALUE {'pk': 'x'}", "Expected data manipulation"},
      {"SELECT * FROM t WHERE pk = 'a' foo", "Unexpected token after expression"},
      {"SELECT * FROM t WHERE pk = 1 e5", "Unexpected token after expression"},
      {"SELECT * FROM t WHERE pk = 'a')", "Unexpected token after expression"},
      {"DELETE FROM t WHERE pk = 'a' ORDER BY pk", "Unexpected token after expression"},
      {"SELECT * FROM t ORDER BY sk WHERE pk = 'a'", "Unexpected token after expression"},
      {"INSERT INTO t x VALUE {'pk': 'a'}", "Unexpected token after expression"},
      {"INSERT INTO t VALUES {'pk': 'a'}", "Unexpected token after expression"},
      {"SELECT * FROM t WHERE pk = 'a'; SELECT * FROM t", "Unexpected token after expression"},
      {"SELECT * FROM t WHERE a.inner = 1", "Invalid path dot component"},
      // One path a REMOVE, as PartiQL's grammar has it.
      {"UPDATE t REMOVE a, b WHERE pk = 'a'", "Unexpected token after expression"},
      // A misspelt keyword reads as an alias, and the statement does not parse on.
      {"UPDATE t REMOV a WHERE pk = 'a'", "Expected SET or REMOVE"},
      {"DELETE FROM t WHER pk = 'a'", "Unexpected token after expression"},
      {"", ""},
  };
  for (const auto& [text, detail] : cases) {
    CAPTURE(text);
    CHECK(parse_error(text) == kEnvelope + detail);
  }
  for (const char* text : {"SELECT *", "SELECT * FROM t WHERE", "SELECT *, x FROM t", "UPDATE t WHERE pk = 'a'"}) {
    CAPTURE(text);
    CHECK(parse_error(text).starts_with(kEnvelope));
  }
}

TEST_CASE("partiql parser: nesting is bounded") {
  // Deeper than 1,000 levels is refused before the recursion can exhaust the stack.
  const std::string deep = "Expression nested more than 1000 levels deep";
  CHECK(parse_error("SELECT * FROM t WHERE " + std::string(8100, '(')) == kEnvelope + deep);
  std::string nots = "SELECT * FROM t WHERE ";
  for (int i = 0; i < 1001; ++i) nots += "NOT ";
  CHECK(parse_error(nots + "a = 1") == kEnvelope + deep);
  CHECK(parse_error("INSERT INTO t VALUE " + std::string(2000, '[')) == kEnvelope + deep);
  // 1,000 levels parse: the statement's own and 999 parentheses.
  CHECK(parse_error("SELECT * FROM t WHERE " + std::string(999, '(') + "a = 1" + std::string(999, ')')) == "");
}

TEST_CASE("partiql parser: forms refused with the service's own messages") {
  const std::pair<const char*, const char*> cases[] = {
      {R"(SELECT * FROM "t"."i"."x")", "A path may contain at most 2 components in the FROM clause"},
      {R"(SELECT * FROM "a", "b")", "Only select from a single table or index is supported."},
      {"SELECT DISTINCT * FROM t", "Unsupported token in expression: DISTINCT"},
      // An UPDATE's SET target takes a literal alone there; no path is an index.
      {"UPDATE t SET a[1+1] = 1 WHERE pk = 'p'",
       "Statement wasn't well formed, can't be processed: Invalid path component"},
      {"SELECT a[b] FROM t", "Statement wasn't well formed, can't be processed: Invalid path component"},
      {"CREATE TABLE foo", "Unsupported operation: CreateTable"},
      {"DROP TABLE foo", "Unsupported operation: DropTable"},
      {"DROP INDEX i ON foo", "Unsupported operation: DropIndex"},
      {"INSERT INTO t {'pk': 'a'}", "Unsupported operation: InsertOp"},
      {"INSERT INTO t << {'pk': 'a'} >>", "Unsupported operation: InsertOp"},
  };
  for (const auto& [text, message] : cases) {
    CAPTURE(text);
    CHECK(parse_error(text) == message);
  }
}

TEST_CASE("partiql parser: checks made once a statement is parsed") {
  const std::pair<const char*, const char*> cases[] = {
      // Refused once parsed (in a transaction, as the statement's own error).
      {R"(SELECT * FROM "t"."")", "Path component cannot be an empty string"},
      {R"(SELECT * FROM "")", "Path component cannot be an empty string"},
      {R"(SELECT COUNT(*) FROM "")", "Path component cannot be an empty string"},  // before the select list
      {R"(UPDATE "" SET a = 1 WHERE pk = 'p')", ""},                               // check_table_name's
      // VALUE and PIVOT parse (a batch or transaction counts them as reads) and are refused.
      {"SELECT VALUE pk FROM t", "Select projection doesn't support value or pivot keywords"},
      {"PIVOT v AT k FROM t WHERE pk = 'p'", "Select projection doesn't support value or pivot keywords"},
      {R"(SELECT * FROM "t" t WHERE pk = 'p')", "Aliasing is not supported"},
      {R"(SELECT * FROM "t" AS t)", "Aliasing is not supported"},
      {R"(DELETE FROM "t" x WHERE pk = 'p')", "Aliasing is not supported"},
      {R"(INSERT INTO "" VALUE {'pk': 'a'})", ""},  // the table "" is looked for
      // A select list item is any expression with an alias; the first that is not a path
      // without one is named (an alias first), at its operator, function name or literal.
      {"SELECT COUNT(*) FROM t", "Unexpected path component at 1:8:5"},
      {"SELECT attribute_exists(ss) FROM t", "Unexpected path component at 1:8:16"},
      {"SELECT a * b FROM t", "Unexpected path component at 1:10:1"},
      {"SELECT a || b FROM t", "Unexpected path component at 1:10:2"},
      {"SELECT 1 + 2 * 3 FROM t", "Unexpected path component at 1:10:1"},  // * binds first
      {"SELECT 1 * 2 + 3 FROM t", "Unexpected path component at 1:14:1"},
      {"SELECT a || b + c FROM t", "Unexpected path component at 1:15:1"},  // + and || alike, left first
      {"SELECT a + b = c FROM t", "Unexpected path component at 1:14:1"},
      {"SELECT NOT a = b FROM t", "Unexpected path component at 1:8:3"},
      {"SELECT a NOT IN [1] FROM t", "Unexpected path component at 1:10:3"},
      {"SELECT a BETWEEN 1 AND 2 FROM t", "Unexpected path component at 1:10:7"},
      {"SELECT a LIKE 'x' FROM t", "Unexpected path component at 1:10:4"},
      {"SELECT a IS NOT NULL FROM t", "Unexpected path component at 1:10:2"},
      {"SELECT -1 FROM t", "Unexpected path component at 1:9:1"},  // the number's place
      {"SELECT +a FROM t", "Unexpected path component at 1:8:1"},
      {"SELECT (a, b) FROM t", "Unexpected path component at 1:8:1"},
      {"SELECT a, 'x' FROM t", "Unexpected path component at 1:11:3"},
      {"SELECT 1, a b FROM t", "Unexpected path component at 1:8:1"},
      {"SELECT a b, 1 FROM t", "Aliasing is not supported"},
      {"SELECT COUNT(*) c FROM t", "Aliasing is not supported"},
      {"SELECT 1 FROM t x", "Aliasing is not supported"},  // the FROM clause's alias first
      {"SELECT (a) FROM t", ""},
      // A path's brackets take any expression; what is not an index is refused at it.
      {"SELECT a[1.5] FROM t", "Unexpected path component at 1:10:3"},
      {"SELECT * FROM t WHERE a[1+1] = 1", "Unexpected path component at 1:26:1"},
      {"SELECT a[-1] FROM t", "List index is not within the allowable range; index: [-1] at 1:11:1"},
      {"UPDATE t SET a[TRUE] = 1 WHERE pk = 'p'", "Unexpected path component at 1:16:4"},
      {"SELECT a['x' || 'y'] FROM t", "Unexpected path component at 1:14:2"},
      {"SELECT ALL * FROM t", ""},
      // The names a select list returns (a nested path's last component) are distinct.
      {R"(SELECT sk, pk, sk FROM "t")", "Duplicate identifiers in select clause: sk"},
      {R"(SELECT a, m.a FROM "t")", "Duplicate identifiers in select clause: a"},
      {R"(SELECT l[1], l[1] FROM "t")", "Duplicate identifiers in select clause: l[1]"},
      // A negative zero decimal or float, at the number, under its place in the value.
      {"INSERT INTO t VALUE {'pk': 'k', 'a': -0.0}", "Negative zero decimal is not supported under key root at 1:39:3"},
      {"INSERT INTO t VALUE {'pk': 'k', 'a': {'b': [1, - 0e0]}}",
       "Negative zero decimal is not supported under key root.b.1 at 1:50:3"},
      {"SELECT * FROM t WHERE a = 1 AND b = <<-.0>>",
       "Negative zero decimal is not supported under key root at 1:40:2"},
      // Number literals in the statement's order: the first that does not convert.
      {"SELECT * FROM t WHERE a = [1e999, -0.0]",
       "Number overflow. Attempting to store a number with magnitude larger than supported range under root[0]"},
      {"SELECT * FROM t WHERE a = -0.0 AND b = 1e999",
       "Negative zero decimal is not supported under key root at 1:28:3"},
      {R"(SELECT a, a FROM "t" WHERE b = -0.0)", "Duplicate identifiers in select clause: a"},
      // An UPDATE's SET values are checked as its actions are built, its WHERE clause's here.
      {"UPDATE t SET a = -0.0 WHERE pk = 'k'", ""},
      {"UPDATE t SET a = -0.0 WHERE pk = 'k' AND b = [-0.0]",
       "Negative zero decimal is not supported under key root.0 at 1:48:3"},
  };
  for (const auto& [text, message] : cases) {
    CAPTURE(text);
    CHECK(parse_error(text) == "");
    CHECK(check_error(text) == message);
  }
  // An EXISTS returns nothing: its list is not looked at.
  CHECK(check_error(R"(EXISTS(SELECT a, a FROM "t" WHERE pk = 'k' AND a = 1))") == "");
}

}  // namespace dynamod::partiql
