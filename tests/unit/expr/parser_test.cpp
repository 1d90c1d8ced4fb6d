// Parsing: grammar, the service's syntax-error text, semantic checks in the
// service's order, and limits. Expected texts were established against
// DynamoDB Local and public suites run against DynamoDB (see
// /work/notes/expressions.md).
#include "tests/unit/expr/expr_test_util.h"

#include "protocol/expr/reserved_words.h"

namespace dynamod::expr::test {

TEST_CASE("expr: every condition construct parses") {
  Fixture f;
  for (const char* text : {"a = :v",
                           "a <> :v",
                           "a < :v",
                           "a <= :v",
                           "a > :v",
                           "a >= :v",
                           "a BETWEEN :v AND :w",
                           "a IN (:v)",
                           "a IN (:v, :w, :s)",
                           "attribute_exists(a)",
                           "attribute_not_exists(a.b[1])",
                           "attribute_type(a, :tS)",
                           "begins_with(a, :s)",
                           "contains(a, :v)",
                           "size(a) > :v",
                           "size(a) = size(b)",
                           "NOT a = :v",
                           "a = :v AND b = :v OR c = :v",
                           "(a = :v)",
                           "(a) = (:v)",
                           "#n = :v",
                           "#m.x[3].y = :v",
                           "a[0][1] = :v",
                           "a = :v and b = :w",
                           "not a = :v",
                           "a between :v and :w",
                           "a in (:v)",
                           "a\t=\n:v",
                           "A1_b = :v"}) {
    CAPTURE(text);
    CHECK(f.cond_error(text) == "");
  }
}

TEST_CASE("expr: syntax errors name the token and its neighbours as written") {
  Fixture f;
  const std::pair<const char*, const char*> cases[] = {
      {" ", R"(token: "<EOF>", near: " ")"},
      {"a", R"(token: "<EOF>", near: "a")"},
      {"a =", R"(token: "<EOF>", near: "=")"},
      {"= :v", R"(token: "=", near: "= :v")"},
      {"  = :v", R"(token: "=", near: "  = :v")"},
      {"a = :v AND ", R"(token: "<EOF>", near: "AND ")"},
      {"a == :v", R"(token: "=", near: "== :v")"},
      {"a = :v b", R"(token: "b", near: ":v b")"},
      {"a = :v b  ", R"(token: "b", near: ":v b  ")"},
      {"a = :v b c", R"(token: "b", near: ":v b c")"},
      {"a ! :v", R"(token: "!", near: "a ! :v")"},
      {"a.  = :v", R"(token: "=", near: ".  = :v")"},
      {"a[x] = :v", R"(token: "x", near: "[x]")"},
      {"a[-1] = :v", R"(token: "-", near: "[-1")"},
      {"a[01] = :v", R"(token: "1", near: "01]")"},
      {"a#b = :v", R"(token: "#b", near: "a#b =")"},
      {"#", R"(token: "#", near: "#")"},
      {"a = 'x'", R"(token: "'", near: "= 'x")"},
      {"_a = :v", R"(token: "_", near: "_a")"},
      {"1a = :v", R"(token: "1", near: "1a")"},
      {"\xc3\xa9 = :v", "token: \"\xc3\xa9\", near: \"\xc3\xa9 =\""},
      {"a IN ()", R"~(token: ")", near: "()")~"},
      {"a IN (:v,)", R"~(token: ")", near: ",)")~"},
      {"attribute_exists()", R"~(token: ")", near: "()")~"},
      {"a NOT IN (:v)", R"(token: "NOT", near: "a NOT IN")"},
      {"a < b < c", R"(token: "<", near: "b < c")"},
      {"(a = :v) = :v", R"(token: "=", near: ") = :v")"},
      {"a = :v + :v", R"(token: "+", near: ":v + :v")"},
      {"a = :v OR b = :v AND c", R"(token: "<EOF>", near: "c")"},
  };
  for (const auto& [text, detail] : cases) {
    CAPTURE(text);
    CHECK(f.cond_error(text) == std::string("Invalid ConditionExpression: Syntax error; ") + detail);
  }
  CHECK(f.cond_error("a =", ConditionKind::Filter) ==
        R"(Invalid FilterExpression: Syntax error; token: "<EOF>", near: "=")");
  CHECK(f.cond_error("a =", ConditionKind::KeyCondition) ==
        R"(Invalid KeyConditionExpression: Syntax error; token: "<EOF>", near: "=")");
  CHECK(f.update_error("SET a = :v, REMOVE b") ==
        R"(Invalid UpdateExpression: Syntax error; token: "REMOVE", near: ", REMOVE b")");
  CHECK(f.update_error("SET a = :v + :w + :v") ==
        R"(Invalid UpdateExpression: Syntax error; token: "+", near: ":w + :v")");
  CHECK(f.update_error("SET (a) = :v") == R"(Invalid UpdateExpression: Syntax error; token: "(", near: "SET (a")");
  CHECK(f.projection_error("a,") == R"(Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: ",")");
  CHECK(f.projection_error("!!! INVALID !!!") ==
        R"(Invalid ProjectionExpression: Syntax error; token: "!", near: "!!")");
  CHECK(f.projection_error("add") == R"(Invalid ProjectionExpression: Syntax error; token: "add", near: "add")");
}

TEST_CASE("expr: empty and oversized expressions") {
  Fixture f;
  CHECK(f.cond_error("") == "Invalid ConditionExpression: The expression can not be empty;");
  CHECK(f.update_error("") == "Invalid UpdateExpression: The expression can not be empty;");
  CHECK(f.projection_error("") == "Invalid ProjectionExpression: The expression can not be empty;");
  std::string at_limit = "attribute_exists(" + std::string(4096 - 18, 'a') + ")";
  REQUIRE(at_limit.size() == 4096);
  CHECK(f.cond_error(at_limit) == "");
  std::string over = "attribute_exists(" + std::string(4097 - 18, 'a') + ")";
  CHECK(f.cond_error(over) ==
        "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097");
  CHECK(f.cond_error(over, ConditionKind::KeyCondition) ==
        "Invalid KeyConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097");
  // UpdateExpression and ProjectionExpression omit the size (the service does too).
  CHECK(f.update_error("REMOVE " + std::string(4090, 'a')) ==
        "Invalid UpdateExpression: Expression size has exceeded the maximum allowed size;");
  CHECK(f.projection_error(std::string(4097, 'a')) ==
        "Invalid ProjectionExpression: Expression size has exceeded the maximum allowed size;");
}

TEST_CASE("expr: keywords are case-insensitive, function names are not") {
  Fixture f;
  CHECK(f.cond_error("a = :v aNd b = :w") == "");
  CHECK(f.update_error("set a = :v remove b") == "");
  CHECK(f.cond_error("ATTRIBUTE_EXISTS(a)") ==
        "Invalid ConditionExpression: Invalid function name; function: ATTRIBUTE_EXISTS");
  CHECK(f.cond_error("foo(a)") == "Invalid ConditionExpression: Invalid function name; function: foo");
}

TEST_CASE("expr: functions in the wrong place or with the wrong operands") {
  Fixture f;
  const std::string c = "Invalid ConditionExpression: ";
  CHECK(f.cond_error("size(a)") ==
        c + "The function is not allowed to be used this way in an expression; function: size");
  CHECK(f.cond_error("a = attribute_exists(b)") ==
        c + "The function is not allowed to be used this way in an expression; function: attribute_exists");
  CHECK(f.cond_error("list_append(a, b) = :v") ==
        c + "The function is not allowed in a condition expression; function: list_append");
  CHECK(f.cond_error("begins_with(a)") == c + "Incorrect number of operands for operator or function; operator or "
                                              "function: begins_with, number of operands: 1");
  CHECK(f.cond_error("a = size(a, b)") ==
        c + "Incorrect number of operands for operator or function; operator or function: size, number of operands: 2");
  CHECK(f.cond_error("attribute_exists(:v)") ==
        c + "Operator or function requires a document path; operator or function: attribute_exists");
  CHECK(f.cond_error("begins_with(a, :v)") ==
        c + "Incorrect operand type for operator or function; operator or function: begins_with, operand type: N");
  CHECK(f.cond_error("size(:v) = :v") ==
        c + "Incorrect operand type for operator or function; operator or function: size, operand type: N");
  CHECK(f.cond_error("size(size(a)) = :v") ==
        c + "Incorrect operand type for operator or function; operator or function: size, operand type: N");
  CHECK(f.cond_error("attribute_type(a, :v)") ==
        c + "Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N");
  CHECK(f.cond_error("attribute_type(a, :s)") ==
        c + "Invalid attribute type name found; type: str, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}");
  const std::string u = "Invalid UpdateExpression: ";
  CHECK(f.update_error("SET a = size(b)") == u + "The function is not allowed in an update expression; function: size");
  CHECK(f.update_error("SET a = list_append(:l, :l) + :v") ==
        u + "The function is not allowed to be used this way in an expression; function: list_append");
  // No function takes a list_append, even in parentheses or second; if_not_exists nests.
  for (const char* text :
       {"SET a = list_append(list_append(:l, :l), :l)", "SET a = list_append(:l, list_append(a, :l))",
        "SET a = list_append((list_append(:l, :l)), :l)", "SET a = if_not_exists(a, list_append(:l, :l))"}) {
    CHECK(f.update_error(text) ==
          u + "The function is not allowed to be used this way in an expression; function: list_append");
  }
  CHECK_NOTHROW(parse_update("SET a = list_append(if_not_exists(a, :l), :l)", f.p));
  CHECK_NOTHROW(parse_update("SET a = if_not_exists(a, if_not_exists(b, :l))", f.p));
  CHECK(f.update_error("SET a = if_not_exists(:v, a)") ==
        u + "Operator or function requires a document path; operator or function: if_not_exists");
  CHECK(f.update_error("SET a = list_append(:v, :l)") ==
        u + "Incorrect operand type for operator or function; operator or function: list_append, operand type: N");
  CHECK(f.update_error("SET a = :v + :s") ==
        u + "Incorrect operand type for operator or function; operator or function: +, operand type: S");
  CHECK(f.update_error("ADD a :s") == u + "Incorrect operand type for operator or function; operator: ADD, operand "
                                          "type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND");
  CHECK(f.update_error("DELETE a :v") == u + "Incorrect operand type for operator or function; operator: DELETE, "
                                             "operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND");
  CHECK(f.update_error("ADD a :m") == u + "Incorrect operand type for operator or function; operator: ADD, operand "
                                          "type: MAP, typeSet: ALLOWED_FOR_ADD_OPERAND");
}

TEST_CASE("expr: ordering comparisons refuse non-scalar constants at parse time") {
  Fixture f;
  const std::string c =
      "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: ";
  CHECK(f.cond_error("a < :l") == c + "<, operand type: L");
  CHECK(f.cond_error("a > :m") == c + ">, operand type: M");
  CHECK(f.cond_error("a <= :ss") == c + "<=, operand type: SS");
  CHECK(f.cond_error("a >= :bo") == c + ">=, operand type: BOOL");
  CHECK(f.cond_error("a BETWEEN :v AND :l") == c + "BETWEEN, operand type: L");
  CHECK(f.cond_error("a = :l") == "");  // equality takes any type
  CHECK(f.cond_error("a IN (:l, :m)") == "");
  CHECK(f.cond_error("a BETWEEN :s AND :v") ==
        "Invalid ConditionExpression: The BETWEEN operator requires same data type for lower and upper bounds; lower "
        "bound operand: AttributeValue: {S:str}, upper bound operand: AttributeValue: {N:1}");
  CHECK(f.cond_error("a BETWEEN :w AND :v") ==
        "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower "
        "bound; lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}");
}

TEST_CASE("expr: the first operand must differ from the others") {
  Fixture f;
  const std::string c =
      "Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this operator "
      "or function; operator: ";
  CHECK(f.cond_error("a = a") == c + "=, first operand: [a]");
  CHECK(f.cond_error("a.b = a.b") == c + "=, first operand: [a, b]");
  CHECK(f.cond_error("a[1] = a[1]") == c + "=, first operand: [a, [1]]");
  CHECK(f.cond_error("#n = n") == c + "=, first operand: [n]");
  CHECK(f.cond_error("a IN (b, a)") == c + "IN, first operand: [a]");
  CHECK(f.cond_error("begins_with(a, a)") == c + "begins_with, first operand: [a]");
  CHECK(f.cond_error("a.b = a.c") == "");
}

TEST_CASE("expr: redundant parentheses") {
  Fixture f;
  const std::string msg = "Invalid ConditionExpression: The expression has redundant parentheses;";
  CHECK(f.cond_error("((a = :v))") == msg);
  CHECK(f.cond_error("((a)) = :v") == msg);
  CHECK(f.cond_error("(a = :v) AND ((b = :v))") == msg);
  CHECK(f.cond_error("(a) = (:v)") == "");
  // Reported instead of a later syntax error once the part holding them was parsed...
  CHECK(f.cond_error("((a)) = :v AND") == msg);
  // ...but not when the parser never got that far.
  CHECK(f.cond_error("((a))") == R"~(Invalid ConditionExpression: Syntax error; token: "<EOF>", near: ")")~");
  CHECK(f.cond_error("a = :v AND ((b)) c") == R"(Invalid ConditionExpression: Syntax error; token: "c", near: ") c")");
  CHECK(f.update_error("SET a = ((:v))") == "Invalid UpdateExpression: The expression has redundant parentheses;");
  CHECK(f.update_error("SET a = (:v + :w)") == "");
}

TEST_CASE("expr: reserved words, undefined placeholders, and the order they are reported in") {
  Fixture f;
  const std::string c = "Invalid ConditionExpression: ";
  CHECK(f.cond_error("name = :v") == c + "Attribute name is a reserved keyword; reserved keyword: name");
  CHECK(f.cond_error("a.Status = :v") == c + "Attribute name is a reserved keyword; reserved keyword: Status");
  CHECK(f.cond_error("#name = :v") == "");
  CHECK(f.cond_error("#u = :v") ==
        c + "An expression attribute name used in the document path is not defined; attribute name: #u");
  CHECK(f.cond_error("a = :u") ==
        c + "An expression attribute value used in expression is not defined; attribute value: :u");
  // Reserved words are found before undefined names anywhere in the expression;
  CHECK(f.cond_error("#u = :v AND name = :v") == c + "Attribute name is a reserved keyword; reserved keyword: name");
  // placeholders and operand types are checked together, left to right.
  CHECK(f.cond_error("#u = :u") ==
        c + "An expression attribute name used in the document path is not defined; attribute name: #u");
  CHECK(f.cond_error(":u = #u") ==
        c + "An expression attribute value used in expression is not defined; attribute value: :u");
  CHECK(f.cond_error("a < :l AND #u = :v") ==
        c + "Incorrect operand type for operator or function; operator or function: <, operand type: L");
  CHECK(f.cond_error("foo(a) AND name = :v") == c + "Invalid function name; function: foo");
  CHECK(f.cond_error("a[4294967295] = :v AND #u = :v") ==
        c + "List index is not within the allowable range; index: [4294967295]");
  CHECK(f.cond_error("a[2147483647] = :v") == "");
  CHECK(f.cond_error("a[2147483648] = :v") == c + "List index is not within the allowable range; index: [2147483648]");
  CHECK(is_reserved_word("NAME"));
  CHECK(is_reserved_word("zone"));
  CHECK(is_reserved_word("FLATTERN"));  // sic, in AWS's list
  CHECK_FALSE(is_reserved_word("size"));
  CHECK_FALSE(is_reserved_word("attribute_exists"));
  CHECK_FALSE(is_reserved_word("pk"));
}

TEST_CASE("expr: limits on depth, operators and IN") {
  Fixture f;
  const std::string c = "Invalid ConditionExpression: ";
  std::string path = "a";
  for (int i = 1; i < 32; ++i) path += ".b";
  CHECK(f.cond_error(path + " = :v") == "");
  CHECK(f.cond_error(path + ".c = :v") == c + "The document path has too many nesting levels; nesting levels: 33");

  auto conjunction = [](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += (i ? " AND " : "") + std::string("attribute_exists(a") + std::to_string(i) + ")";
    return s;
  };
  CHECK(f.cond_error(conjunction(150)) == "");  // 150 functions + 149 ANDs
  CHECK(f.cond_error(conjunction(151)) == c + "The expression contains too many operators; operator count: 301");

  std::string in = "a IN (:v";
  for (int i = 1; i < 100; ++i) in += ", :v";
  CHECK(f.cond_error(in + ")") == "");
  CHECK(f.cond_error(in + ", :v)") ==
        c + "The IN operator is provided with too many operands; number of operands: 101");

  std::string sets;
  for (int i = 0; i < 301; ++i) sets += (i ? "," : "") + std::string("a") + std::to_string(i) + "=:v+:v";
  CHECK(f.update_error("SET " + sets) ==
        "Invalid UpdateExpression: The expression contains too many operators; operator count: 301");
}

TEST_CASE("expr: update sections and document path overlaps") {
  Fixture f;
  const std::string u = "Invalid UpdateExpression: ";
  CHECK(f.update_error("SET a = :v SET b = :v") ==
        u + "The \"SET\" section can only be used once in an update expression;");
  CHECK(f.update_error("REMOVE a REMOVE b") ==
        u + "The \"REMOVE\" section can only be used once in an update expression;");
  CHECK(f.update_error("ADD a :v DELETE b :ss ADD c :v") ==
        u + "The \"ADD\" section can only be used once in an update expression;");
  CHECK(f.update_error("DELETE a :ss REMOVE b DELETE c :ss") ==
        u + "The \"DELETE\" section can only be used once in an update expression;");
  CHECK(f.update_error("REMOVE b SET a = :v ADD c :v DELETE d :ss") == "");
  CHECK(f.update_error("SET a = :v, a.b = :w") == u + "Two document paths overlap with each other; must remove or "
                                                      "rewrite one of these paths; path one: [a], path two: [a, b]");
  CHECK(f.update_error("SET a = :v REMOVE a") == u + "Two document paths overlap with each other; must remove or "
                                                     "rewrite one of these paths; path one: [a], path two: [a]");
  CHECK(f.update_error("SET a[1] = :v, a.b = :w") ==
        u + "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, "
            "[1]], path two: [a, b]");
  CHECK(f.update_error("SET #n = :v ADD n :w") == u + "Two document paths overlap with each other; must remove or "
                                                      "rewrite one of these paths; path one: [n], path two: [n]");
  // Of several pairs, the one whose later path comes last, then whose earlier one does.
  CHECK(f.update_error("ADD l :v SET l.x = :w DELETE l[0] :ss") ==
        u + "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [l, x], "
            "path two: [l, [0]]");
  CHECK(f.update_error("SET l.x = :w, l[0] = :w, l = :w") ==
        u + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [l, "
            "[0]], path two: [l]");
  CHECK(f.update_error("SET a[1] = :v REMOVE a[2]") == "");
  CHECK(f.update_error("SET a.b = :v REMOVE a.c") == "");
}

TEST_CASE("expr: projection parsing") {
  Fixture f;
  auto paths = parse_projection("a, #m.x[2], b[0].c", f.p);
  REQUIRE(paths.size() == 3);
  CHECK(paths[1].to_string() == "m.x[2]");
  CHECK(paths[1].bracket_list() == "[m, x, [2]]");
  CHECK(f.projection_error("a, a") ==
        "Invalid ProjectionExpression: Two document paths overlap with each other; must "
        "remove or rewrite one of these paths; path one: [a], path two: [a]");
  CHECK(f.projection_error("l[1], l.x") ==
        "Invalid ProjectionExpression: Two document paths conflict with each other; "
        "must remove or rewrite one of these paths; path one: [l, [1]], path two: [l, x]");
  CHECK(f.projection_error("l.x, l[0], l") ==
        "Invalid ProjectionExpression: Two document paths overlap with each other; "
        "must remove or rewrite one of these paths; path one: [l, [0]], path two: [l]");
  CHECK(f.projection_error("name") ==
        "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name");
  CHECK(f.projection_error("#u") ==
        "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; "
        "attribute name: #u");
  CHECK(f.projection_error(":v") == R"(Invalid ProjectionExpression: Syntax error; token: ":v", near: ":v")");
}

TEST_CASE("expr: placeholders used and unused") {
  NameMap names{{"#a", "a"}, {"#b", "b"}};
  ValueMap values;
  for (int i = 0; i < 20; ++i) values[":k" + std::to_string(i)] = value(R"({"N":"1"})");
  Placeholders p(&names, &values);
  parse_condition("#a = :k3", ConditionKind::Condition, p);
  // Names are reported before values, in the service's (Java HashSet) order.
  CHECK(error_of([&] { p.check_all_used(); }) ==
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}");
  parse_projection("#b", p);
  CHECK(error_of([&] { p.check_all_used(); }) ==
        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:k1, :k2, :k19, :k4, :k18, :k5, "
        ":k6, :k7, :k8, :k9, :k13, :k12, :k11, :k10, :k17, :k16, :k15, :k14, :k0}");
  CHECK(java_hash_set_order({":l", ":m", ":b", ":s", ":ss", ":w"}) == "{:l, :m, :b, :s, :ss, :w}");
  CHECK(java_hash_set_order({":w", ":ss", ":s", ":b", ":m", ":l"}) == "{:l, :m, :b, :s, :ss, :w}");

  Placeholders none(nullptr, nullptr);
  CHECK(
      error_of([&] { parse_condition("a = :v", ConditionKind::Filter, none); }) ==
      "Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :v");
  CHECK(error_of([&] { none.check_all_used(); }) == "");
}

TEST_CASE("expr: the placeholder maps themselves are validated") {
  NameMap empty_names;
  ValueMap empty_values;
  CHECK(error_of([&] { validate_placeholder_maps(&empty_names, nullptr); }) ==
        "ExpressionAttributeNames must not be empty");
  CHECK(error_of([&] { validate_placeholder_maps(nullptr, &empty_values); }) ==
        "ExpressionAttributeValues must not be empty");
  NameMap bad_key{{"n", "x"}};
  CHECK(error_of([&] { validate_placeholder_maps(&bad_key, nullptr); }) ==
        "ExpressionAttributeNames contains invalid key: Syntax error; key: \"n\"");
  NameMap spaced{{"#n ", "x"}};  // the service accepts surrounding whitespace
  CHECK(error_of([&] { validate_placeholder_maps(&spaced, nullptr); }) == "");
  NameMap empty_name{{"#n", ""}};
  CHECK(error_of([&] { validate_placeholder_maps(&empty_name, nullptr); }) ==
        "ExpressionAttributeNames contains invalid value: Empty attribute name for key #n");
  NameMap long_key{{"#" + std::string(300, 'n'), "x"}};
  CHECK(error_of([&] { validate_placeholder_maps(&long_key, nullptr); }) ==
        "ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; "
        "size of key: 301");
  ValueMap bad_value_key{{"v", value(R"({"N":"1"})")}};
  CHECK(error_of([&] { validate_placeholder_maps(&bad_key, &bad_value_key); }) ==
        "ExpressionAttributeNames contains invalid key: Syntax error; key: \"n\"");
  CHECK(error_of([&] { validate_placeholder_maps(nullptr, &bad_value_key); }) ==
        "ExpressionAttributeValues contains invalid key: Syntax error; key: \"v\"");
}

TEST_CASE("expr: key updates and parameter mixing") {
  Fixture f;
  auto u = parse_update("SET #p = :s", f.p);
  CHECK(error_of([&] {
          check_key_updates(u, {"pk", "sk"});
        }) ==
        "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key");
  auto nested = parse_update("REMOVE sk.x", f.p);
  CHECK(error_of([&] {
          check_key_updates(nested, {"pk", "sk"});
        }) ==
        "One or more parameter values were invalid: Cannot update attribute sk. This attribute is part of the key");
  auto ok = parse_update("SET a = pk", f.p);
  CHECK(error_of([&] { check_key_updates(ok, {"pk"}); }) == "");
  CHECK(error_of([] { check_no_mixing({"Expected"}, {"ConditionExpression"}); }) ==
        "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: "
        "{Expected} Expression parameters: {ConditionExpression}");
  CHECK(error_of([] {
          check_no_mixing({"QueryFilter", "KeyConditions"}, {"FilterExpression", "KeyConditionExpression"});
        }) ==
        "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: "
        "{QueryFilter, KeyConditions} Expression parameters: {FilterExpression, KeyConditionExpression}");
  CHECK(error_of([] { check_no_mixing({}, {"ConditionExpression"}); }) == "");
}

TEST_CASE("expr: precedence is NOT over AND over OR") {
  // a = 1 is true on the sample? no: there is no "a"; n = 5 is true.
  CHECK(eval("n = :w OR n > :v AND s = :s"));  // false OR (true AND true)
  CHECK_FALSE(eval("(n = :w OR n > :v) AND s = :st"));
  CHECK(eval("NOT n = :w AND s = :s"));  // (NOT false) AND true
  CHECK_FALSE(eval("NOT (n > :v AND s = :s)"));
  CHECK(eval("NOT NOT n > :v"));
  CHECK(eval("n > :v OR NOT n > :v AND nope = :v"));
  CHECK(eval("n BETWEEN :v AND :w OR n > :v"));  // BETWEEN's AND is its own
}

}  // namespace dynamod::expr::test
