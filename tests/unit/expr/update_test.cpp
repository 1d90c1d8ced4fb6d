// Applying updates: every action, list element removal, sets, arithmetic,
// and the service's errors in the service's order (checked against DynamoDB
// Local, b6.py and the differential runs in /work/notes/research/expr).
#include "tests/unit/expr/expr_test_util.h"

#include "metering/item_size.h"
#include "protocol/expr/number_arithmetic.h"

#include <initializer_list>
#include <tuple>

namespace dynamod::expr::test {
namespace {

Item base() {
  return item(R"({"pk":{"S":"u1"},"n":{"N":"5"},"s":{"S":"str"},"l":{"L":[{"N":"0"},{"N":"1"},{"N":"2"},{"N":"3"}]},
    "m":{"M":{"x":{"N":"1"},"y":{"M":{}}}},"ss":{"SS":["a","b"]},"ns":{"NS":["1","2"]},"bo":{"BOOL":true}})");
}

// Applies `text` to base() and returns the JSON of attribute `name` ("" if absent).
std::string after(std::string_view text, std::string_view name, const Item* old = nullptr) {
  Fixture f;
  Item start = base();
  Item out = apply_update(parse_update(text, f.p), old ? old : &start);
  const AttributeValue* v = out.find(name);
  if (!v) return "";
  Item one;
  one.set(std::string(name), *v);
  return to_json(one);
}

const std::string type = "An operand in the update expression has an incorrect data type";
const std::string path = "The document path provided in the update expression is invalid for update";
const std::string missing = "The provided expression refers to an attribute that does not exist in the item";

std::string apply_error(std::string_view text) {
  Fixture f;
  Item start = base();
  auto u = parse_update(text, f.p);
  return error_of([&] { apply_update(u, &start); });
}

}  // namespace

TEST_CASE("expr: SET") {
  CHECK(after("SET a = :v", "a") == R"({"a":{"N":"1"}})");
  CHECK(after("SET a = n", "a") == R"({"a":{"N":"5"}})");
  CHECK(after("SET a = n + :v", "a") == R"({"a":{"N":"6"}})");
  CHECK(after("SET n = n - :v", "n") == R"({"n":{"N":"4"}})");
  CHECK(after("SET a = :p1 + :p2", "a") == R"({"a":{"N":"0.3"}})");
  CHECK(after("SET a = list_append(l, :l)", "a") ==
        R"({"a":{"L":[{"N":"0"},{"N":"1"},{"N":"2"},{"N":"3"},{"N":"9"}]}})");
  CHECK(after("SET a = list_append(:l, l)", "a") ==
        R"({"a":{"L":[{"N":"9"},{"N":"0"},{"N":"1"},{"N":"2"},{"N":"3"}]}})");
  CHECK(after("SET a = if_not_exists(nope, :v)", "a") == R"({"a":{"N":"1"}})");
  CHECK(after("SET a = if_not_exists(n, :v)", "a") == R"({"a":{"N":"5"}})");
  CHECK(after("SET l = list_append(if_not_exists(l, :l), :l)", "l") ==
        R"({"l":{"L":[{"N":"0"},{"N":"1"},{"N":"2"},{"N":"3"},{"N":"9"}]}})");
  CHECK(after("SET m.y.z = :v", "m") == R"({"m":{"M":{"x":{"N":"1"},"y":{"M":{"z":{"N":"1"}}}}}})");
  CHECK(after("SET l[1] = :w", "l") == R"({"l":{"L":[{"N":"0"},{"N":"2"},{"N":"2"},{"N":"3"}]}})");
  CHECK(after("SET l[10] = :w", "l") == R"({"l":{"L":[{"N":"0"},{"N":"1"},{"N":"2"},{"N":"3"},{"N":"2"}]}})");
  CHECK(after("SET l[11] = :v, l[10] = :w", "l") ==
        R"({"l":{"L":[{"N":"0"},{"N":"1"},{"N":"2"},{"N":"3"},{"N":"2"},{"N":"1"}]}})");
  // Every value is computed from the old item.
  CHECK(after("SET n = :v, a = n", "a") == R"({"a":{"N":"5"}})");
  // An update of a missing item starts from nothing.
  Fixture f;
  Item created = apply_update(parse_update("SET a = :v", f.p), nullptr);
  CHECK(to_json(created) == R"({"a":{"N":"1"}})");
}

TEST_CASE("expr: REMOVE, including list elements") {
  CHECK(after("REMOVE n", "n") == "");
  CHECK(after("REMOVE nope", "n") == R"({"n":{"N":"5"}})");
  CHECK(after("REMOVE l[1], l[2]", "l") == R"({"l":{"L":[{"N":"0"},{"N":"3"}]}})");  // old indexes
  CHECK(after("REMOVE l[2], l[1]", "l") == R"({"l":{"L":[{"N":"0"},{"N":"3"}]}})");
  CHECK(after("REMOVE l[10]", "l") == R"({"l":{"L":[{"N":"0"},{"N":"1"},{"N":"2"},{"N":"3"}]}})");
  CHECK(after("REMOVE l[0] SET l[1] = :v", "l") == R"({"l":{"L":[{"N":"1"},{"N":"2"},{"N":"3"}]}})");
  CHECK(after("REMOVE m.x, m.y", "m") == R"({"m":{"M":{}}})");
  CHECK(after("REMOVE m.nope", "m") == R"({"m":{"M":{"x":{"N":"1"},"y":{"M":{}}}}})");
  // On an item that does not exist a nested REMOVE is ignored (the service; an existing item
  // without the parent refuses it, "expr: update errors"); a nested DELETE is still refused.
  Fixture f;
  CHECK(to_json(apply_update(parse_update("REMOVE x.y, w[0], z", f.p), nullptr)) == "{}");
  CHECK(to_json(apply_update(parse_update("SET a = :v REMOVE x.y", f.p), nullptr)) == R"({"a":{"N":"1"}})");
  CHECK(error_of([&] { apply_update(parse_update("DELETE x.y :ss", f.p), nullptr); }) == path);
}

TEST_CASE("expr: ADD on numbers and sets") {
  CHECK(after("ADD n :v", "n") == R"({"n":{"N":"6"}})");
  CHECK(after("ADD a :v", "a") == R"({"a":{"N":"1"}})");
  CHECK(after("ADD ss :ss2", "ss") == R"({"ss":{"SS":["a","b","c"]}})");
  CHECK(after("ADD ss :ss", "ss") == R"({"ss":{"SS":["a","b"]}})");
  CHECK(after("ADD newset :ss", "newset") == R"({"newset":{"SS":["a"]}})");
  CHECK(after("ADD ns :ns", "ns") == R"({"ns":{"NS":["1","2"]}})");
  CHECK(after("ADD m.x :v", "m") == R"({"m":{"M":{"x":{"N":"2"},"y":{"M":{}}}}})");
  CHECK(after("ADD m.q :v", "m") == R"({"m":{"M":{"q":{"N":"1"},"x":{"N":"1"},"y":{"M":{}}}}})");
  CHECK(after("ADD l[1] :v", "l") == R"({"l":{"L":[{"N":"0"},{"N":"2"},{"N":"2"},{"N":"3"}]}})");
}

TEST_CASE("expr: DELETE from sets") {
  CHECK(after("DELETE ss :ss", "ss") == R"({"ss":{"SS":["b"]}})");
  CHECK(after("DELETE ns :ns", "ns") == R"({"ns":{"NS":["2"]}})");
  Fixture f;
  f.values[":ab"] = value(R"({"SS":["a","b","z"]})");
  Item start = base();
  Item out = apply_update(parse_update("DELETE ss :ab", f.p), &start);
  CHECK(out.find("ss") == nullptr);  // removing every member removes the attribute
  CHECK(after("DELETE nope :ss", "nope") == "");
  CHECK(after("DELETE m.q :ss", "m") == R"({"m":{"M":{"x":{"N":"1"},"y":{"M":{}}}}})");
}

TEST_CASE("expr: update errors") {
  CHECK(apply_error("ADD s :v") == type);
  CHECK(apply_error("ADD n :ss") == type);
  CHECK(apply_error("ADD ss :ns") == type);
  CHECK(apply_error("ADD l :v") == type);
  CHECK(apply_error("DELETE n :ss") == type);
  CHECK(apply_error("DELETE ns :ss") == type);
  CHECK(apply_error("SET a = s + :v") == type);
  CHECK(apply_error("SET a = list_append(s, :l)") == type);
  CHECK(apply_error("SET a = nope") == missing);
  CHECK(apply_error("SET a = nope + :v") == missing);
  CHECK(apply_error("SET a = m.nope") == missing);
  CHECK(apply_error("SET a = l[10]") == missing);
  CHECK(apply_error("SET a = list_append(nope, :l)") == missing);
  CHECK(apply_error("SET a = if_not_exists(nope, nope2)") == missing);
  CHECK(apply_error("SET nope.x = :v") == path);
  CHECK(apply_error("SET s.x = :v") == path);
  CHECK(apply_error("SET m[0] = :v") == path);
  CHECK(apply_error("SET l.x = :v") == path);
  CHECK(apply_error("SET m.q.z = :v") == path);
  CHECK(apply_error("REMOVE nope.x") == path);
  CHECK(apply_error("REMOVE nope[1]") == path);
  CHECK(apply_error("REMOVE s[0]") == path);
  CHECK(apply_error("ADD nope.x :v") == path);
}

// Which failure the service names when several actions fail (each case probed
// on DynamoDB Local, 2026-11-30): the actions by attribute, through the
// buckets of a Java HashMap of 16 from bucket 14 down to 0 and then 15, within
// a bucket from the last put in (SET actions put in first); each its path
// before its value or type (a SET's operands left to right: missing, wrong
// type).
TEST_CASE("expr: the order of update errors") {
  // Cases drawn at random (buckets: s, c 3; t 4; u, e 5; nope, f 6; w 7;
  // x1 9; z 10; k 11; v2 12; n, b0 14; h7 15, which comes last)
  CHECK(apply_error("SET z = q ADD s :v, c :v") == missing);
  CHECK(apply_error("ADD x1.x :v, s :v SET gg = list_append(p, :l)") == path);
  CHECK(apply_error("SET x1.x = :v, h7 = s + :v ADD u :v") == path);
  CHECK(apply_error("REMOVE s[0] DELETE n :ss") == type);
  CHECK(apply_error("ADD s :v, w :v SET v2.x = :v") == path);
  CHECK(apply_error("ADD w.x :v, s :v") == path);
  CHECK(apply_error("SET t = f REMOVE p.x") == missing);
  CHECK(apply_error("SET f = aa REMOVE s[0]") == missing);
  CHECK(apply_error("SET gg[1] = :v, nope = s + :v REMOVE b.x") == type);
  CHECK(apply_error("SET u = aa, h7 = s + :v") == missing);
  CHECK(apply_error("ADD b0.x :v SET w = :v DELETE n :ss") == type);
  CHECK(apply_error("SET v2 = x1 REMOVE t DELETE u.x :ss") == missing);
  CHECK(apply_error("ADD aa.x :v SET v2 = list_append(s, :l)") == type);
  CHECK(apply_error("DELETE h7.x :ss SET v2 = t") == missing);
  // Cases of the earlier probes
  CHECK(apply_error("SET a = s + :v REMOVE nope.x") == path);
  CHECK(apply_error("ADD s :v REMOVE nope.x") == path);
  CHECK(apply_error("REMOVE nope.x ADD s :v") == path);
  CHECK(apply_error("DELETE s :ss REMOVE nope.x") == path);
  CHECK(apply_error("SET s.x = :v ADD l[1] :ss") == type);
  CHECK(apply_error("ADD nope.x :v, n :ss") == type);
  CHECK(apply_error("ADD n :ss, nope.x :v") == type);
  CHECK(apply_error("SET a = nope ADD n :ss") == type);
  CHECK(apply_error("DELETE nope.x :ss, s :ss") == path);
  CHECK(apply_error("DELETE s :ss, nope.x :ss") == path);
  CHECK(apply_error("DELETE s :ss ADD nope.x :v") == path);
  CHECK(apply_error("SET c = nope ADD nope.x :v") == path);
  CHECK(apply_error("SET a = list_append(s, :l) ADD nope.x :v") == path);
  CHECK(apply_error("SET c = nope DELETE s :ss") == type);
  CHECK(apply_error("SET a.b = :v DELETE s :ss") == type);
  // (buckets: p, ss, zz 0; a, q 1; b 2; c 3)
  CHECK(apply_error("SET p.x = :v, b = nope") == missing);
  CHECK(apply_error("SET q.x = :v, c = nope") == missing);
  CHECK(apply_error("SET a.q = :v, ss = list_append(ss, :l)") == path);
  CHECK(apply_error("SET a.x = :v, q = nope") == missing);  // one bucket: the last written first
  CHECK(apply_error("SET q = nope, a.x = :v") == path);
  CHECK(apply_error("SET s[2] = list_append(s[2], :l)") == path);
  CHECK(apply_error("SET nope[1] = nope[1] - s") == path);
  CHECK(apply_error("SET z = if_not_exists(z, :v), nope.x = nope.x + n") == path);
  CHECK(apply_error("SET a.b = :v, c = nope") == missing);
  CHECK(apply_error("SET c = nope, a.b = :v") == missing);
  CHECK(apply_error("SET a.b = :v, c = nope + :v") == missing);
  CHECK(apply_error("SET a.b = :v, c = list_append(s, :l)") == type);
  CHECK(apply_error("SET c = list_append(s, :l), a.b = :v") == type);
  CHECK(apply_error("SET a = s + :v, b.c = :v") == path);
  CHECK(apply_error("SET b.c = :v, a = s + :v") == path);
  CHECK(apply_error("SET a = s + :v, b = nope") == missing);
  CHECK(apply_error("SET b = nope, a = s + :v") == missing);
  CHECK(apply_error("SET a = list_append(s, :l), b = nope") == missing);
  // within one value, left to right
  CHECK(apply_error("SET q = s - nope") == type);
  CHECK(apply_error("SET q = nope - s") == missing);
}

TEST_CASE("expr: arithmetic is exact and bounded") {
  auto n = [](std::string_view t) { return *Number::parse(t).number; };
  CHECK(add_numbers(n("0.1"), n("0.2")).to_string() == "0.3");
  CHECK(add_numbers(n("-5"), n("5")).to_string() == "0");
  CHECK(subtract_numbers(n("1"), n("1.5")).to_string() == "-0.5");
  CHECK(add_numbers(n("0"), n("-7")).to_string() == "-7");
  CHECK(subtract_numbers(n("0"), n("7")).to_string() == "-7");
  CHECK(add_numbers(n("99999999999999999999999999999999999999"), n("1")).to_string() ==
        "100000000000000000000000000000000000000");
  CHECK(add_numbers(n("1e-130"), n("1e-130")).to_string() == "0." + std::string(129, '0') + "2");
  const std::string overflow =
      "Number overflow. Attempting to store a number with magnitude larger than supported range";
  CHECK(error_of([&] { add_numbers(n("9.9999999999999999999999999999999999999E+125"), n("9E+125")); }) == overflow);
  CHECK(error_of([&] { add_numbers(n("1e50"), n("1")); }) == overflow);  // needs 51 digits
  CHECK(error_of([&] { subtract_numbers(n("1e50"), n("1")); }) == overflow);
  CHECK(error_of([&] { add_numbers(n("-9.9E+125"), n("-9.9E+125")); }) == overflow);
  CHECK(add_numbers(n("1e50"), n("1e50")).to_string() == "2" + std::string(50, '0'));
}

TEST_CASE("expr: updated attributes for ReturnValues") {
  Fixture f;
  Item start = base();
  auto u = parse_update("SET m.x = :w, a = :v REMOVE l[1]", f.p);
  Item out = apply_update(u, &start);
  CHECK(to_json(updated_attributes(u, out)) == R"({"a":{"N":"1"},"l":{"L":[{"N":"2"}]},"m":{"M":{"x":{"N":"2"}}}})");
  CHECK(to_json(updated_attributes(u, start)) == R"({"l":{"L":[{"N":"1"}]},"m":{"M":{"x":{"N":"1"}}}})");
}

// A standalone UpdateItem's second figure (issue 32, the service in August 2026): the names and
// values written, plus 3 bytes and 19 per SET (20 through a list index) and 2 per REMOVE.
TEST_CASE("update_written_size: the names and values written plus each action's cost") {
  Fixture f;
  auto written = [&](std::string_view text) {
    auto actions = parse_update(text, f.p);
    Item out = apply_update(actions, &sample());
    return metering::update_written_size(actions, out);
  };
  // :s is "str" (3 bytes), :v the number 1 (2 bytes).
  CHECK(written("SET a = :s") == 3 + 19 + 1 + 3);
  CHECK(written("SET a = :s, b = :v") == 3 + 19 + 19 + 1 + 3 + 1 + 2);
  CHECK(written("SET a = :s REMOVE n") == 3 + 19 + 2 + 1 + 3);
  CHECK(written("SET l[0] = :s") == 3 + 20 + 1 + 3);
  CHECK(written("SET #name = :s") == 3 + 19 + 4 + 3);
  CHECK(written("SET m.x = :s") == 3 + 19 + 1 + 3);  // the attribute's name, the value written
  CHECK(written("REMOVE n") == 3 + 2);
  CHECK(written("ADD n :v") == 3 + 19 + 1 + 2);  // n becomes 6: two bytes
}

}  // namespace dynamod::expr::test

namespace dynamod::expr::test {

// A value of `levels` levels: lists around a number (1 is the number alone).
AttributeValue nested_lists(int levels) {
  AttributeValue v = AttributeValue::number(*Number::parse("1").number);
  for (int i = 1; i < levels; ++i) v = AttributeValue::list(List{{v}});
  return v;
}

TEST_CASE("expr: a SET may not nest the item deeper than 32 levels (DynamoDB Local's text)") {
  const std::string nesting = "Nesting Levels have exceeded supported limits";
  using Case = std::tuple<const char*, int, bool>;  // path, levels of the value, accepted
  for (auto [path, levels, ok] : std::initializer_list<Case>{{"a", 32, true},
                                                             {"a", 33, false},
                                                             {"m.y.z", 30, true},
                                                             {"m.y.z", 31, false},
                                                             {"l[9]", 31, true},
                                                             {"l[9]", 32, false},
                                                             {"a", 40, false}}) {
    INFO(path << " = " << levels << " levels");
    Fixture f;
    f.values[":deep"] = nested_lists(levels);
    Item start = base();
    auto u = parse_update(std::string("SET ") + path + " = :deep", f.p);
    CHECK(error_of([&] { apply_update(u, &start); }) == (ok ? "" : nesting));
  }
  // list_append keeps its operands' levels: a list of 32-level elements is 33.
  Fixture f;
  f.values[":deep"] = AttributeValue::list(List{{nested_lists(31)}});
  Item start = base();
  CHECK(error_of([&] { apply_update(parse_update("SET a = list_append(:deep, :deep)", f.p), &start); }) == "");
  f.values[":deep"] = AttributeValue::list(List{{nested_lists(32)}});
  CHECK(error_of([&] { apply_update(parse_update("SET a = list_append(:deep, :l)", f.p), &start); }) == nesting);
}

}  // namespace dynamod::expr::test
