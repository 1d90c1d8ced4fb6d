// Translating PartiQL into the JSON API's requests: which SELECTs become a
// Query (and with which key condition) or a Scan, the write requests and
// their implicit conditions, and the service's messages for statements that
// parse but cannot run (see /work/notes/errors-partiql-tags-misc.md).
#include <doctest/doctest.h>

#include "protocol/expr/evaluate.h"
#include "protocol/expr/update.h"
#include "protocol/partiql/parser.h"
#include "protocol/partiql/statement_checks.h"
#include "protocol/partiql/translate.h"

namespace dynamod::partiql {
namespace {

// pk S / sk N, a KEYS_ONLY global index on g, and an ALL local index on l.
TableSchema range_table() {
  TableSchema t{.name = "t"};
  t.key.partition = KeyElement{"pk", ScalarType::S};
  t.key.sort = KeyElement{"sk", ScalarType::N};
  IndexSchema g{.name = "gsi"};
  g.key.partition = KeyElement{"g", ScalarType::S};
  g.projection.type = ProjectionType::KeysOnly;
  t.global_indexes.push_back(g);
  IndexSchema l{.name = "lsi"};
  l.key.partition = KeyElement{"pk", ScalarType::S};
  l.key.sort = KeyElement{"l", ScalarType::N};
  t.local_indexes.push_back(l);
  return t;
}

TableSchema hash_table() {
  TableSchema t{.name = "h"};
  t.key.partition = KeyElement{"pk", ScalarType::S};
  return t;
}

// As storage's prepare_statement: the statement checked once parsed, then translated.
Statement checked(std::string_view text, const Parameters& parameters = {}) {
  Statement s = parse(text);
  check_parsed(s);
  check_values_in_order(s, parameters);
  return s;
}

ReadPlan select(std::string_view text, const TableSchema& table, Inputs inputs = {}) {
  Statement s = checked(text, inputs.parameters);
  return translate_select(s, std::get<Select>(s.body), table, inputs);
}

WritePlan write(std::string_view text, const TableSchema& table, Inputs inputs = {}) {
  return translate_write(checked(text, inputs.parameters), table, inputs);
}

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return e.message();
  }
  return "";
}

Item item(std::initializer_list<std::pair<const char*, AttributeValue>> attributes) {
  Item out;
  for (const auto& [name, value] : attributes) out.set(name, value);
  return out;
}

AttributeValue S(std::string s) { return AttributeValue::string(std::move(s)); }
AttributeValue N(std::string_view n) { return AttributeValue::number(*Number::parse(n).number); }

}  // namespace

TEST_CASE("partiql translate: a partition-key equality is a Query, anything else a Scan") {
  const TableSchema t = range_table();
  ReadPlan q = select("SELECT * FROM t WHERE pk = 'p' AND sk > 2 AND a = 1", t);
  REQUIRE(q.spec.key_condition);
  CHECK(q.spec.key_condition->partition == S("p"));
  REQUIRE(q.spec.key_condition->sort);
  CHECK(q.spec.key_condition->sort->op == expr::SortOp::Gt);
  CHECK_FALSE(q.spec.filter.empty());  // a = 1
  CHECK_FALSE(q.key);

  // Constants on the left, BETWEEN and begins_with narrow the Query too.
  CHECK(select("SELECT * FROM t WHERE 'p' = pk AND 3 > sk", t).spec.key_condition->sort->op == expr::SortOp::Lt);
  CHECK(select("SELECT * FROM t WHERE pk = 'p' AND sk BETWEEN 1 AND 2", t).spec.key_condition->sort->op ==
        expr::SortOp::Between);

  ReadPlan whole = select("SELECT * FROM t WHERE pk = ? AND sk = 1", t, Inputs{{S("p")}});
  REQUIRE(whole.key);
  CHECK(*whole.key == item({{"pk", S("p")}, {"sk", N("1")}}));
  CHECK(whole.spec.filter.empty());

  // A Query's filter may not test a key attribute: with such a term left over, a Scan (DynamoDB
  // Local); the IN of a key with a value of another type is a Scan's filter too.
  for (const char* scan :
       {"SELECT * FROM t", "SELECT * FROM t WHERE a = 1", "SELECT * FROM t WHERE pk IN ['a', 1]",
        "SELECT * FROM t WHERE pk = 'a' OR pk = 'b'", "SELECT * FROM t WHERE pk > 'a'", "SELECT * FROM t WHERE g = 1",
        "SELECT * FROM t WHERE pk = 'a' AND sk <> 1", "SELECT * FROM t WHERE pk = 'a' AND NOT sk > 1",
        "SELECT * FROM t WHERE pk = 'a' AND sk IN [1]", "SELECT * FROM t WHERE pk = 'a' AND sk > 1 AND sk < 3",
        "SELECT * FROM t WHERE pk = 'a' AND begins_with(pk, 'a')",
        "SELECT * FROM t WHERE pk IN ['a', 'b'] AND pk = 'a'", "SELECT * FROM t WHERE pk = 'a' AND size(sk) = 2",
        "SELECT * FROM t WHERE pk = 'a' AND 2 < size(pk)",
        "SELECT * FROM t WHERE pk = 'a' AND contains(a, size(sk))"}) {
    CAPTURE(scan);
    CHECK_FALSE(select(scan, t).spec.key_condition);
  }
  // size() of a key under NOT, BETWEEN or IN leaves a Query.
  for (const char* query :
       {"SELECT * FROM t WHERE pk = 'a' AND NOT size(sk) = 2",
        "SELECT * FROM t WHERE pk = 'a' AND size(sk) BETWEEN 1 AND 2",
        "SELECT * FROM t WHERE pk = 'a' AND size(sk) IN [1, 2]", "SELECT * FROM t WHERE pk = 'a' AND size(a) = 2"}) {
    CAPTURE(query);
    CHECK(select(query, t).spec.key_condition);
  }
  // An OR of sort-key tests is the filter's, and a repeated equality changes nothing.
  CHECK(select("SELECT * FROM t WHERE pk = 'a' AND (sk = 1 OR sk = 2)", t).spec.key_condition);
  CHECK(select("SELECT * FROM t WHERE pk = 'a' AND pk = 'a'", t).spec.key_condition);

  // The partition key IN a list is a Query of each partition, once, in key order.
  ReadPlan in = select("SELECT * FROM t WHERE pk IN ['b', ?, 'b', 'a'] AND sk > 1", t, Inputs{{S("c")}});
  REQUIRE(in.spec.key_condition);
  CHECK(in.spec.key_condition->partition == S("a"));
  CHECK(in.spec.key_condition->sort);
  CHECK(in.spec.partitions == std::vector<AttributeValue>{S("a"), S("b"), S("c")});
  CHECK(select("SELECT * FROM t WHERE pk IN <<'b'>>", t).spec.partitions.empty());  // one: the key condition's
  CHECK(error_of([&] { select("SELECT * FROM t WHERE pk IN ['a', '']", t); }) ==
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty "
        "string value. Key: pk");

  // A partition-key equality makes a Query whatever its type: the key's constants must be of
  // its types, the sort key's first.
  const std::string wrong = "Key attribute's data type should match its data type in table's schema: Key ";
  CHECK(error_of([&] { select("SELECT * FROM t WHERE pk = 1", t); }) == wrong + "pk");
  CHECK(error_of([&] { select("SELECT * FROM t WHERE pk = 1 AND sk > 'x'", t); }) == wrong + "sk");
  CHECK(error_of([&] { select("SELECT * FROM t WHERE begins_with(sk, 'a') AND pk = 'p'", t); }) == wrong + "sk");
  CHECK(error_of([&] { select(R"(SELECT * FROM "t"."gsi" WHERE g = 1)", t); }) == wrong + "g");
  CHECK(error_of([&] { select("SELECT * FROM t WHERE pk = 'a' AND sk IN [1, 'x']", t); }) == "");  // IN is a filter

  // A batch's SELECT names one item of the table, and is refused so before its key's types.
  Inputs one_item;
  one_item.one_item = kBatchSelectKey;
  for (const char* other : {"SELECT * FROM t WHERE pk = 1", "SELECT * FROM t WHERE pk = 'a' AND sk = 1 AND a = 2",
                            R"(SELECT * FROM "t"."lsi" WHERE pk = 'a' AND sk = 1)"}) {
    CAPTURE(other);
    CHECK(error_of([&] { select(other, t, one_item); }) == kBatchSelectKey);
  }
  CHECK(error_of([&] { select("SELECT * FROM t WHERE sk = 1 AND pk = 2", t, one_item); }) == wrong + "pk");
  CHECK(error_of([&] { select("SELECT * FROM t WHERE pk = 'a' AND x < true", t, one_item); }) ==
        "Incorrect operand type for operator or function; operator or function: <, operand type: BOOL");
}

TEST_CASE("partiql translate: ORDER BY, Limit and consistency") {
  const TableSchema t = range_table();
  // A page is read in key order and sorted; the first mention of each key decides.
  ReadPlan desc = select("SELECT * FROM t WHERE pk = 'p' ORDER BY sk DESC", t);
  CHECK(desc.spec.forward);
  REQUIRE(desc.spec.page_order);
  CHECK(desc.spec.page_order->sort_descending);
  CHECK_FALSE(desc.spec.page_order->partitions_descending);
  ReadPlan both = select("SELECT * FROM t WHERE pk IN ['a', 'b'] ORDER BY pk DESC, sk ASC, pk ASC", t);
  REQUIRE(both.spec.page_order);
  CHECK(both.spec.page_order->partitions_descending);
  CHECK_FALSE(both.spec.page_order->sort_descending);
  // A Scan may be sorted when every branch of its WHERE clause fixes the partition key.
  CHECK(select("SELECT * FROM t WHERE pk = 'a' OR pk IN ['b'] ORDER BY sk", t).spec.page_order);
  const std::string optional =
      "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.";
  CHECK(error_of([&] { select("SELECT * FROM t WHERE pk = 'a' OR a = 1 ORDER BY sk", t); }) == optional);
  CHECK(error_of([&] { select("SELECT * FROM t WHERE a = 1 ORDER BY pk", t); }) == optional);
  CHECK(error_of([&] { select("SELECT * FROM t ORDER BY sk", t); }) ==
        "Must have WHERE clause in the statement when using ORDER BY clause.");
  CHECK(error_of([&] { select("SELECT * FROM t WHERE pk = 'p' ORDER BY v", t); }) ==
        "Variable reference v in ORDER BY clause must be part of the primary key");
  ReadPlan p = select("SELECT * FROM t WHERE pk = 'p'", t, Inputs{{}, true, 5});
  CHECK(p.spec.consistent);
  CHECK(p.spec.limit == 5);
}

TEST_CASE("partiql translate: index reads") {
  const TableSchema t = range_table();
  ReadPlan g = select(R"(SELECT * FROM "t"."gsi" WHERE g = 'x')", t);
  REQUIRE(g.spec.index);
  CHECK(g.spec.index->name == "gsi");
  CHECK(g.spec.select == dynamod::Select::AllProjectedAttributes);
  CHECK(g.spec.key_condition->partition_name == "g");
  CHECK_FALSE(g.key);  // batches and transactions read tables only

  CHECK(error_of([&] { select(R"(SELECT zzz.y, yyy, zzz.x FROM "t"."gsi" WHERE g = 'x')", t); }) ==
        "One or more parameter values were invalid: Global secondary index gsi does not project [zzz, yyy]");
  CHECK(error_of([&] { select(R"(SELECT * FROM "t"."gsi" WHERE g = 'x' AND f = 1)", t); }) ==
        "One or more parameter values were invalid: Secondary index gsi does not project one or more filter "
        "attributes: [f]");
  // Without the index's partition key the read scans the index, filtering on what its entries hold.
  const ReadPlan scan = select(R"(SELECT * FROM "t"."gsi" WHERE f = 1)", t);
  CHECK_FALSE(scan.spec.key_condition);
  CHECK_FALSE(scan.spec.filter.empty());
  CHECK(error_of([&] {
          select(R"(SELECT * FROM "t"."gsi")", t, Inputs{{}, true});
        }) == "Strongly consistent read is not supported on Global Secondary Indexes");
  CHECK(error_of([&] { select(R"(SELECT * FROM "t"."nope")", t); }) == "The table does not have the specified index");
  CHECK(error_of([&] { select(R"(SELECT * FROM "t"."t")", t); }) == "The table does not have the specified index");

  ReadPlan l = select(R"(SELECT data FROM "t"."lsi" WHERE pk = 'p' AND l = 5)", t, Inputs{{}, true});
  CHECK(l.spec.key_condition->sort->name == "l");
  CHECK(l.spec.projection_names == std::vector<std::string>{"data"});

  // No path into an index's key, in the filter or the select list, whatever is read.
  const std::string into_key =
      "Key attributes must be scalars; list random access '[]' and map lookup '.' are not "
      "allowed: IndexKey: ";
  CHECK(error_of([&] { select(R"(SELECT * FROM "t" WHERE g[0] = 'x')", t); }) == into_key + "g");
  CHECK(error_of([&] { select(R"(SELECT l.x FROM "t"."lsi" WHERE pk = 'p')", t); }) == into_key + "l");
  CHECK(error_of([&] { select(R"(SELECT * FROM "t" WHERE pk = 'p' AND sk BETWEEN 2 AND 1)", t); }) ==
        "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: "
        "AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}");
}

TEST_CASE("partiql translate: WHERE functions and predicates evaluate as DynamoDB's") {
  const TableSchema t = hash_table();
  const Item it = item({{"pk", S("k")},
                        {"s", S("str")},
                        {"n", AttributeValue::null()},
                        {"ss", AttributeValue::string_set(StringSet{{"a", "b", "c"}})}});
  auto matches = [&](const std::string& where) {
    ReadPlan p = select("SELECT * FROM h WHERE " + where, t);
    return expr::evaluate(p.spec.filter, &it);
  };
  CHECK(matches("ATTRIBUTE_EXISTS(ss)"));
  CHECK(matches("attribute_exists(nope) = false"));
  CHECK(matches("nope IS MISSING AND s IS NOT MISSING"));
  CHECK(matches("n IS NULL AND s IS STRING AND NOT s IS NULL"));
  CHECK(matches("size(s) = 3 AND begins_with(s, 'st') AND contains(ss, 'b')"));
  CHECK(matches("ss = <<'c', 'a', 'b'>>"));
  CHECK(matches("attribute_type(ss, 'SS')"));
  CHECK(matches("s <> 'x' AND s != 'y' AND s IN ('a', 'str') AND s NOT BETWEEN 'a' AND 'b'"));
  CHECK_FALSE(matches("nope IS NULL"));
  CHECK_FALSE(matches("s < 1"));  // S against N: allowed, just false
}

TEST_CASE("partiql translate: function and operand misuse") {
  const TableSchema t = hash_table();
  const std::string base = "SELECT * FROM h WHERE pk = 'x' AND ";
  const std::pair<std::string, std::string> cases[] = {
      {"attribute_exists('ss')",
       "Operator or function requires a document path; operator or function: attribute_exists"},
      {"attribute_exists()",
       "Incorrect number of operands for operator or function; operator or function: attribute_exists, number of "
       "operands: 0"},
      {"x < true", "Incorrect operand type for operator or function; operator or function: <, operand type: BOOL"},
      {"x BETWEEN [1] AND 2",
       "Incorrect operand type for operator or function; operator or function: BETWEEN, operand type: L"},
      {"EXISTS(ss)", "Unrecognized function: exists at 1:36:6"},
      {"set_add(ss, <<'a'>>)", "Unrecognized function: set_add at 1:36:7"},
      {"a = MISSING", "MISSING must be compared using IS operator"},
      {"pk = 1e126",
       "Number overflow. Attempting to store a number with magnitude larger than supported range under root"},
      {"a = 123456789012345678901234567890123456789",
       "Attempting to store more than 38 significant digits in a Number under root"},
      {"a = [1, 1e-131]",
       "Number underflow. Attempting to store a number with magnitude smaller than supported range under root[1]"},
      // BETWEEN bounds known from the statement: one type, in order (the sort key's too).
      {"x BETWEEN 3 AND 'a'",
       "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: "
       "AttributeValue: {N:3}, upper bound operand: AttributeValue: {S:a}"},
      {"NOT (x BETWEEN 'b' AND 'a')",
       "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: "
       "AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}"},
      // No path into a key attribute, the table's or an index's.
      {"pk.a = 1",
       "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: pk"},
  };
  for (const auto& [where, message] : cases) {
    CAPTURE(where);
    CHECK(error_of([&] { select(base + where, t); }) == message);
  }
  CHECK(error_of([&] { select("SELECT * FROM h WHERE pk = ? AND x = ?", t, Inputs{{S("a")}}); }) ==
        "Number of parameters in request and statement don't match.");
}

TEST_CASE("partiql translate: overlapping OR branches on the sort key") {
  const TableSchema t = range_table();
  const std::string message = "Overlapping conditions with range keys are not supported in where clause";
  CHECK(error_of([&] { select("SELECT * FROM t WHERE pk = 'q' AND sk > 1 OR pk = 'q' AND sk > 2", t); }) == message);
  CHECK(error_of([&] { select("SELECT * FROM t WHERE pk = 'q' AND sk BETWEEN 1 AND 3 OR pk = 'q' AND sk = 3", t); }) ==
        message);
  CHECK(error_of([&] { select("SELECT * FROM t WHERE pk = 'q' AND sk > 3 OR pk = 'q' AND sk < 1", t); }) == "");
  CHECK(error_of([&] { select("SELECT * FROM t WHERE pk = 'q' AND sk > 1 OR pk = 'r' AND sk > 2", t); }) == "");
  CHECK(error_of([&] { select("SELECT * FROM t WHERE pk = 'q' AND sk > 1 OR pk = 'q' AND sk <> 2", t); }) == "");
}

TEST_CASE("partiql translate: INSERT is a PutItem that refuses an existing key") {
  const TableSchema t = hash_table();
  WritePlan p = write("INSERT INTO h VALUE {'pk': 'k', 'l': [1, 'two'], 'ns': <<2, 1>>, 'p': ?}", t,
                      Inputs{{AttributeValue::binary("\x01")}});
  const auto& put = std::get<PutItemRequest>(p.request);
  CHECK(put.write.table_name == "h");
  REQUIRE(put.item);
  CHECK(put.item->find("ns")->as_number_set().values.size() == 2);
  CHECK(put.item->find("p")->type() == AttributeType::B);
  CHECK_FALSE(expr::evaluate(p.expressions.condition, &*put.item));
  CHECK(expr::evaluate(p.expressions.condition, nullptr));

  const std::pair<const char*, const char*> cases[] = {
      {"INSERT INTO h VALUE 'x'",
       "Unsupported format in item expression. Please use struct format {...} to express item values for insert "
       "statement. at 1:21:3"},
      {"INSERT INTO h VALUE {'pk': 'k', 's': <<>>}", "Empty bags are not supported"},
      {"INSERT INTO h VALUE {'pk': 'k', 's': <<'a', 1>>}",
       "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags at 1:45:1"},
      {"INSERT INTO h VALUE {'pk': 'k', 's': <<'a', 'a'>>}",
       "One or more parameter values were invalid: Input collection [a, a] contains duplicates."},
      {"INSERT INTO h VALUE {'pk': 'k', 's': set_add(a, <<1>>)}",
       "Unsupported data type: set_add under key root at 1:38:7"},
      {"INSERT INTO h VALUE {'pk': 7, 'm': {'x': 1e126}}",
       "Number overflow. Attempting to store a number with magnitude larger than supported range under root.x"},
      {"INSERT INTO h VALUE {'pk': 'k'} RETURNING ALL OLD *", "RETURNING is not supported in INSERT"},
  };
  for (const auto& [text, message] : cases) {
    CAPTURE(text);
    CHECK(error_of([&] { write(text, t); }) == message);
  }
}

TEST_CASE("partiql translate: UPDATE is an UpdateItem of an existing item") {
  const TableSchema t = range_table();
  WritePlan p = write(
      "UPDATE t SET a = a + 1, m.c = 'x' SET ss = set_add(ss, <<'b'>>) REMOVE r "
      "WHERE pk = 'k' AND sk = 1 AND v = 7 RETURNING MODIFIED NEW *",
      t);
  const auto& update = std::get<UpdateItemRequest>(p.request);
  CHECK(*update.key == item({{"pk", S("k")}, {"sk", N("1")}}));
  CHECK(update.write.return_values == ReturnValues::UpdatedNew);
  REQUIRE(p.expressions.update);
  CHECK(p.expressions.update->set.size() == 2);
  CHECK(p.expressions.update->add.size() == 1);
  CHECK(p.expressions.update->remove.size() == 1);
  // attribute_exists(pk) AND v = 7: a missing item fails, nothing is created.
  CHECK_FALSE(expr::evaluate(p.expressions.condition, nullptr));
  const Item old = item(
      {{"pk", S("k")}, {"sk", N("1")}, {"v", N("7")}, {"a", N("1")}, {"m", AttributeValue::map({})}, {"r", S("gone")}});
  CHECK(expr::evaluate(p.expressions.condition, &old));
  Item updated = expr::apply_update(*p.expressions.update, &old);
  CHECK(*updated.find("a") == N("2"));
  CHECK(updated.find("ss")->as_string_set().values == std::vector<std::string>{"b"});
  CHECK(updated.find("r") == nullptr);

  for (const char* text :
       {"UPDATE t SET c = 2", "UPDATE t SET c = 2 WHERE a = 7", "UPDATE t SET c = 2 WHERE pk = 'p'",
        "UPDATE t SET c = 2 WHERE pk = 'p' AND sk > 1", "UPDATE t SET c = 2 WHERE pk IN ['a'] AND sk = 1",
        "UPDATE t SET c = 2 WHERE pk = 'p' AND sk = 1 OR pk = 'q' AND sk = 1", "DELETE FROM t WHERE pk = 'p'"}) {
    CAPTURE(text);
    CHECK(error_of([&] { write(text, t); }) == kWhereKeys);
  }
  const std::string key = " WHERE pk = 'k' AND sk = 1";
  const std::pair<std::string, std::string> cases[] = {
      {"UPDATE t SET m = 1 REMOVE m.c",
       "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [m, c], path "
       "two: [m]"},
      {"UPDATE t SET ss = set_add(ss)", "SET_ADD must have exactly two arguments at 1:19:7"},
      {"UPDATE t SET x = set_add(ss, <<'a'>>)",
       "The first argument to SET_ADD must equal the assignment value at 1:18:7"},
      {"UPDATE t SET ss = set_delete(ss, 'x')",
       "The second argument to SET_DELETE must be a value with type SET at 1:30:2"},
      {"UPDATE t SET a = 'x' + 1",
       "Incorrect operand type for operator or function; operator or function: +, operand "
       "type: S"},
      {"UPDATE t SET a = MISSING", "MISSING must be compared using IS operator"},
      {"UPDATE t SET a = upper(b)", "Unrecognized function: upper at 1:18:5"},
      {R"(UPDATE "t"."gsi" SET a = 1)", "This operation is not supported on an index"},
  };
  for (const auto& [text, message] : cases) {
    CAPTURE(text);
    CHECK(error_of([&] { write(text + key, t); }) == message);
  }
}

TEST_CASE("partiql translate: an UPDATE's SET values convert as its actions are built") {
  auto clauses_error = [](std::string_view text) { return error_of([&] { check_update_clauses(checked(text), {}); }); };
  CHECK(clauses_error("UPDATE t SET a = set_add(a, 'x'), b = -0.0 WHERE pk = 'k'") ==
        "The second argument to SET_ADD must be a value with type SET at 1:26:1");
  CHECK(clauses_error("UPDATE t SET b = -0.0, a = set_add(a, 'x') WHERE pk = 'k'") ==
        "Negative zero decimal is not supported under key root at 1:19:3");
  CHECK(clauses_error("UPDATE t SET b = [1, {'c': -0e1}] WHERE pk = 'k'") ==
        "Negative zero decimal is not supported under key root.1.c at 1:29:3");
  CHECK(clauses_error("UPDATE t SET b = 1e999 WHERE pk = 'k'") ==
        "Number overflow. Attempting to store a number with magnitude larger than supported range under root");
}

TEST_CASE("partiql translate: DELETE and EXISTS") {
  const TableSchema t = hash_table();
  WritePlan d = write("DELETE FROM h WHERE pk = 'k' AND a = 1 RETURNING ALL OLD *", t);
  const auto& del = std::get<DeleteItemRequest>(d.request);
  CHECK(del.write.return_values == ReturnValues::AllOld);
  // A missing item is no error, even under a further condition.
  CHECK(expr::evaluate(d.expressions.condition, nullptr));
  const Item other = item({{"pk", S("k")}, {"a", N("2")}});
  CHECK_FALSE(expr::evaluate(d.expressions.condition, &other));
  CHECK(write("DELETE FROM h WHERE pk = 'k'", t).expressions.condition.empty());
  CHECK(
      error_of([&] { write("DELETE FROM h WHERE pk = 'k' RETURNING MODIFIED OLD *", t); }) ==
      "Invalid returning clause: RETURNING MODIFIED OLD *. Only RETURNING ALL OLD * is allowed in DELETE statements.");

  // The statement's expressions are looked at first, then an index, then the key, then RETURNING.
  CHECK(error_of([&] { write("DELETE FROM h WHERE a = 1 RETURNING MODIFIED OLD *", t); }) == kWhereKeys);
  CHECK(error_of([&] { write("DELETE FROM h WHERE a < true", t); }) ==
        "Incorrect operand type for operator or function; operator or function: <, operand type: BOOL");
  CHECK(error_of([&] { write(R"(UPDATE "h"."i" SET s = set_add(s, 'x') WHERE a = 1)", t); }) ==
        "The second argument to SET_ADD must be a value with type SET at 1:32:1");
  CHECK(error_of([&] { write(R"(UPDATE "h"."i" SET a = 1 WHERE a = 1)", t); }) ==
        "This operation is not supported on an index");

  WritePlan e = write("EXISTS(SELECT * FROM h WHERE pk = 'k' AND a = 2)", t);
  CHECK(std::get<DeleteItemRequest>(e.request).key->find("pk") != nullptr);
  CHECK_FALSE(expr::evaluate(e.expressions.condition, nullptr));
  CHECK(error_of([&] { write("EXISTS(SELECT * FROM h WHERE pk = 'k')", t); }) ==
        "EXISTS() must contain a single item read with additional condition");
}

}  // namespace dynamod::partiql
