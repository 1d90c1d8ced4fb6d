// Evaluation of conditions: DynamoDB's typing rules (a comparison of
// different types is false, not an error), nested paths, missing items.
// Truth values were checked against DynamoDB Local (b12.py in
// /work/notes/research/expr).
#include "tests/unit/expr/expr_test_util.h"

namespace dynamod::expr::test {

TEST_CASE("expr: comparisons follow DynamoDB's typing rules") {
  CHECK(eval("n = :v") == false);
  Fixture f;
  f.values[":five"] = value(R"({"N":"5.0"})");
  CHECK(evaluate(f.cond("n = :five"), &sample()));  // numbers compare by value
  CHECK(eval("n <> :v"));
  CHECK(eval("nope <> :v"));  // missing is "not equal"
  CHECK_FALSE(eval("nope = :v"));
  CHECK_FALSE(eval("nope < :v"));
  CHECK(eval("NOT nope < :v"));
  CHECK_FALSE(eval("s > :v"));  // S vs N: false, not an error
  CHECK(eval("s > :st"));       // byte order
  CHECK(eval("s <= :s"));
  CHECK_FALSE(eval("s < :s"));
  CHECK(eval("b > :b"));  // binary, unsigned bytes
  CHECK_FALSE(eval("n = s"));
  CHECK(eval("n <> s"));
  CHECK(eval("l[0] < l[1]"));
  CHECK(eval("bo = :bo"));
  CHECK(eval("nu = :nu"));
  CHECK(eval("ss <> :ss"));  // sets compare as sets
  Fixture g;
  g.values[":same"] = value(R"({"SS":["b","a"]})");
  CHECK(evaluate(g.cond("ss = :same"), &sample()));
}

TEST_CASE("expr: nested paths and missing items") {
  CHECK(eval("m.x = :v"));
  CHECK(eval("l[1] = :v"));
  CHECK(eval("l[2][0] < :v"));
  CHECK(eval("m.z.q = :s") == false);
  CHECK(eval("attribute_exists(m.z.q) AND NOT attribute_exists(m.z.q.r)"));
}

TEST_CASE("expr: functions") {
  CHECK(eval("attribute_exists(m.x)"));
  CHECK(eval("attribute_exists(l[0])"));
  CHECK_FALSE(eval("attribute_exists(l[9])"));
  CHECK_FALSE(eval("attribute_exists(s.x)"));
  CHECK_FALSE(eval("attribute_exists(s[0])"));
  CHECK(eval("attribute_not_exists(m.q)"));
  CHECK(eval("attribute_exists(#dot)"));  // a name with a dot, through a placeholder
  CHECK_FALSE(eval("attribute_exists(a.b)"));
  CHECK(eval("begins_with(s, :st)"));
  CHECK(eval("begins_with(s, :s)"));
  CHECK_FALSE(eval("begins_with(n, :st)"));
  CHECK_FALSE(eval("begins_with(nope, :st)"));
  CHECK(eval("begins_with(b, :b)"));
  CHECK(eval("contains(s, :st)"));
  CHECK(eval("contains(ss, :ss) OR contains(ss, :st)") == false);  // a set is not a member of a set
  Fixture f;
  f.values[":a"] = value(R"({"S":"a"})");
  f.values[":one"] = value(R"({"N":"1"})");
  f.values[":lz"] = value(R"({"L":[{"N":"0"}]})");
  f.values[":empty"] = value(R"({"S":""})");
  const Item& i = sample();
  CHECK(evaluate(f.cond("contains(ss, :a)"), &i));
  CHECK(evaluate(f.cond("contains(ns, :one)"), &i));
  CHECK(evaluate(f.cond("contains(l, :one)"), &i));
  CHECK(evaluate(f.cond("contains(l, :lz)"), &i));  // list elements compare whole
  CHECK(evaluate(f.cond("contains(l, :a)"), &i));
  CHECK(evaluate(f.cond("contains(bs, :b)"), &i));
  CHECK(evaluate(f.cond("contains(b, :b)"), &i));  // binary substring
  CHECK(evaluate(f.cond("contains(s, :empty)"), &i));
  CHECK_FALSE(evaluate(f.cond("contains(m, :a)"), &i));
  CHECK_FALSE(evaluate(f.cond("contains(n, :one)"), &i));
  CHECK(evaluate(f.cond("contains(l, l[1])"), &i));
  CHECK(eval("attribute_type(s, :tS)"));
  Fixture g;
  for (const char* t : {"N", "SS", "NS", "BS", "L", "M", "NULL", "BOOL", "B"}) {
    g.values[std::string(":t") + t] = value(std::string(R"({"S":")") + t + "\"}");
  }
  CHECK(evaluate(g.cond("attribute_type(n, :tN) AND attribute_type(ss, :tSS) AND attribute_type(ns, :tNS)"), &i));
  CHECK(evaluate(g.cond("attribute_type(bs, :tBS) AND attribute_type(l, :tL) AND attribute_type(m, :tM)"), &i));
  CHECK(evaluate(g.cond("attribute_type(nu, :tNULL) AND attribute_type(bo, :tBOOL) AND attribute_type(b, :tB)"), &i));
  CHECK_FALSE(evaluate(g.cond("attribute_type(nope, :tN)"), &i));
}

TEST_CASE("expr: size counts characters, bytes, members and elements") {
  Fixture f;
  for (int k = 0; k <= 5; ++k) f.values[":n" + std::to_string(k)] = value(R"({"N":")" + std::to_string(k) + "\"}");
  const Item& i = sample();
  CHECK(evaluate(f.cond("size(s) = :n3"), &i));
  CHECK(evaluate(f.cond("size(e) = :n2"), &i));  // two characters, five UTF-8 bytes
  CHECK(evaluate(f.cond("size(ss) = :n2"), &i));
  CHECK(evaluate(f.cond("size(l) = :n4"), &i));
  CHECK(evaluate(f.cond("size(m) = :n3"), &i));
  CHECK(evaluate(f.cond("size(b) = :n3"), &i));
  CHECK(evaluate(f.cond("size(es) = :n0"), &i));
  CHECK(evaluate(f.cond("size(el) = :n0"), &i));
  CHECK_FALSE(evaluate(f.cond("size(n) = :n1"), &i));
  CHECK_FALSE(evaluate(f.cond("size(nope) = :n0"), &i));
  CHECK(evaluate(f.cond("NOT size(nope) = :n0"), &i));
  CHECK_FALSE(evaluate(f.cond("size(bo) = :n1"), &i));
  CHECK(evaluate(f.cond("size(s) > size(ss)"), &i));
  CHECK(value_size(value(R"({"S":"\ud83d\ude00"})")) == 2u);  // one code point above U+FFFF: two UTF-16 units
}

TEST_CASE("expr: BETWEEN and IN") {
  CHECK(eval("n BETWEEN :v AND :w") == false);
  Fixture f;
  f.values[":n5"] = value(R"({"N":"5"})");
  f.values[":a"] = value(R"({"S":"a"})");
  const Item& i = sample();
  CHECK(evaluate(f.cond("n BETWEEN :v AND :n5"), &i));
  CHECK(evaluate(f.cond("s BETWEEN :a AND :s"), &i));
  CHECK_FALSE(evaluate(f.cond("n BETWEEN :a AND :s"), &i));
  CHECK_FALSE(evaluate(f.cond("nope BETWEEN :v AND :n5"), &i));
  CHECK(evaluate(f.cond("n IN (:v, :n5)"), &i));
  CHECK_FALSE(evaluate(f.cond("n IN (:v, :s)"), &i));
  CHECK_FALSE(evaluate(f.cond("nope IN (:v)"), &i));
  CHECK(evaluate(f.cond("l[1] IN (:l, l[2], m.x)"), &i));
}

TEST_CASE("expr: conditions on a missing item") {
  Fixture f;
  CHECK(evaluate(f.cond("attribute_not_exists(pk)"), nullptr));
  CHECK_FALSE(evaluate(f.cond("attribute_exists(pk)"), nullptr));
  CHECK(evaluate(f.cond("pk <> :s"), nullptr));
  CHECK_FALSE(evaluate(f.cond("pk = :s"), nullptr));
  CHECK(evaluate(Condition{}, nullptr));  // no condition
}

}  // namespace dynamod::expr::test
