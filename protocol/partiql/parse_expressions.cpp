// The PartiQL parser's paths and expressions, loosest first: OR, AND, NOT,
// comparisons and predicates (IS, IN, BETWEEN, LIKE), + - || and * / %, signs,
// then primaries (literals, function calls, paths, lists, bags, structs).

#include <charconv>

#include "protocol/partiql/parser_internal.h"

namespace dynamod::partiql::detail {

// A document path starting at the next token (a name). `name` receives the
// path from its last name component on, as a select list reports it.
expr::Path Parser::path(std::string& name, bool target) {
  expr::Path p;
  const Token& first = take();
  p.steps.push_back(expr::PathStep{first.value});
  name = first.value;
  for (;;) {
    if (accept(TokenKind::Dot)) {
      const Token& t = peek();
      if (!is_name(t)) throw not_well_formed("Invalid path dot component");
      p.steps.push_back(expr::PathStep{take().value});
      name = p.steps.back().name();
    } else if (accept(TokenKind::LeftBracket)) {
      const Token& t = peek();
      const bool alone = peek(1).kind == TokenKind::RightBracket;
      std::uint32_t index = 0;
      if (t.kind == TokenKind::String && alone) {
        p.steps.push_back(expr::PathStep{take().value});
        name = t.value;
      } else if (t.kind == TokenKind::Number && alone && list_index(t.value, index)) {
        p.steps.push_back(expr::PathStep{index});
        name += "[" + take().value + "]";
      } else {
        refuse_index(target);
        p.steps.push_back(expr::PathStep{0u});  // (never read: the statement is refused)
      }
      expect(TokenKind::RightBracket, "RIGHT_BRACKET");
    } else {
      return p;
    }
  }
}

bool Parser::list_index(const std::string& text, std::uint32_t& index) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
  return ec == std::errc() && end == text.data() + text.size();
}

// What else a path's brackets hold parses as an expression and is refused
// once the statement has (DynamoDB Local): a negative index by its range,
// anything else at its operator or first token. An UPDATE's SET target
// takes literals there only; another path is no index.
void Parser::refuse_index(bool target) {
  const DepthGuard guard(*this);
  const Token& t = peek();
  const bool negative = t.kind == TokenKind::Minus && peek(1).kind == TokenKind::Number;
  std::uint32_t unused = 0;
  if (negative && list_index(peek(1).value, unused)) {
    take();
    const Token& number = take();
    refuse("List index is not within the allowable range; index: [-" + number.value + "]" + number.pos.suffix());
    return;
  }
  const bool literal =
      (t.kind == TokenKind::Number || keyword("TRUE") || keyword("FALSE") || keyword("NULL") || keyword("MISSING")) &&
      peek(1).kind == TokenKind::RightBracket;
  if ((target && !literal) || is_name(t)) throw not_well_formed("Invalid path component");
  const NodeId index = additive();
  refuse("Unexpected path component" + operator_position(out_.nodes[index]).suffix());
}

NodeId Parser::path_node(bool target) {
  if (!is_name(peek())) throw not_well_formed("Expected path");
  const Position pos = peek().pos;
  std::string name;
  expr::Path p = path(name, target);
  const NodeId id = add_node(NodeKind::Path, pos, {}, std::move(name));
  out_.nodes[id].path = std::move(p);
  return id;
}

NodeId Parser::expression() {
  const DepthGuard guard(*this);
  NodeId left = conjunction();
  while (keyword("OR")) {
    const Position pos = take().pos;
    const NodeId right = conjunction();
    left = add_node(NodeKind::Or, pos, {left, right});
  }
  return left;
}

NodeId Parser::conjunction() {
  NodeId left = negation();
  while (keyword("AND")) {
    const Position pos = take().pos;
    const NodeId right = negation();
    left = add_node(NodeKind::And, pos, {left, right});
  }
  return left;
}

NodeId Parser::negation() {
  if (!keyword("NOT")) return predicate();
  const DepthGuard guard(*this);
  const Position pos = take().pos;
  const NodeId inner = negation();
  return add_node(NodeKind::Not, pos, {inner});
}

std::optional<expr::CompareOp> Parser::comparison(TokenKind k) {
  switch (k) {
    case TokenKind::Eq: return expr::CompareOp::Eq;
    case TokenKind::Ne: return expr::CompareOp::Ne;
    case TokenKind::Lt: return expr::CompareOp::Lt;
    case TokenKind::Le: return expr::CompareOp::Le;
    case TokenKind::Gt: return expr::CompareOp::Gt;
    case TokenKind::Ge: return expr::CompareOp::Ge;
    default: return std::nullopt;
  }
}

// Comparisons chain to the left, after any predicate: `a = 1 = true` is
// `(a = 1) = true`, `a IS MISSING = false` compares the IS (DynamoDB Local).
NodeId Parser::comparisons(NodeId left, Position pos) {
  while (auto op = comparison(peek().kind)) {
    const Position op_pos = take().pos;
    const NodeId rhs = additive();
    left = add_node(NodeKind::Compare, pos, {left, rhs});
    out_.nodes[left].op = *op;
    out_.nodes[left].op_pos = op_pos;
  }
  return left;
}

NodeId Parser::predicate() {
  const NodeId value = additive();
  const Position pos = out_.nodes[value].pos;
  if (comparison(peek().kind)) return comparisons(value, pos);
  const bool negated = keyword("NOT") && (keyword("BETWEEN", 1) || keyword("IN", 1) || keyword("LIKE", 1));
  const Position op_pos = peek().pos;
  if (negated) take();
  std::vector<NodeId> children{value};
  NodeKind kind = NodeKind::Like;
  if (accept_keyword("LIKE")) {
    children.push_back(additive());
    if (accept_keyword("ESCAPE")) children.push_back(additive());
  } else if (accept_keyword("BETWEEN")) {
    kind = NodeKind::Between;
    children.push_back(additive());
    expect_keyword("AND");
    children.push_back(additive());
  } else if (accept_keyword("IN")) {
    kind = NodeKind::In;
    // IN [..], IN (..) or IN <<..>> (DynamoDB Local takes each alike).
    TokenKind close = TokenKind::RightParen;
    const char* close_name = "RIGHT_PAREN";
    if (accept(TokenKind::LeftBracket)) {
      close = TokenKind::RightBracket;
      close_name = "RIGHT_BRACKET";
    } else if (accept(TokenKind::BagOpen)) {
      close = TokenKind::BagClose;
      close_name = "RIGHT_ANGLE_BRACKET";
    } else {
      expect(TokenKind::LeftParen, "LEFT_PAREN");
    }
    if (!accept(close)) {
      do {
        children.push_back(additive());
      } while (accept(TokenKind::Comma));
      expect(close, close_name);
    }
  } else if (keyword("IS")) {
    // Positioned messages about the type point at IS.
    const Position is = take().pos;
    const bool is_not = accept_keyword("NOT");
    const NodeId id = add_node(NodeKind::Is, is, std::move(children), type_name());
    out_.nodes[id].flag = is_not;
    return comparisons(id, pos);
  } else {
    return value;
  }
  const NodeId id = add_node(kind, pos, std::move(children));
  out_.nodes[id].op_pos = op_pos;
  out_.nodes[id].flag = negated;
  return comparisons(id, pos);
}

// The type after IS, as its canonical name: PartiQL's type names and
// aliases, with the parameters each may take (DynamoDB Local: `IS INT`
// parses and is refused as INTEGER; `IS NUMBER` or `IS STRING(3)` does not
// parse).
std::string Parser::type_name() {
  struct TypeWord {
    std::string_view word;
    std::string_view canonical;
    int max_parameters;
  };
  static constexpr TypeWord kTypes[] = {
      {"MISSING", "MISSING", 0},
      {"NULL", "NULL", 0},
      {"BOOL", "BOOLEAN", 0},
      {"BOOLEAN", "BOOLEAN", 0},
      {"SMALLINT", "SMALLINT", 0},
      {"INT", "INTEGER", 0},
      {"INTEGER", "INTEGER", 0},
      {"FLOAT", "FLOAT", 1},
      {"REAL", "REAL", 1},
      {"DECIMAL", "DECIMAL", 2},
      {"DEC", "DECIMAL", 2},
      {"NUMERIC", "NUMERIC", 2},
      {"TIMESTAMP", "TIMESTAMP", 0},
      {"CHAR", "CHARACTER", 1},
      {"CHARACTER", "CHARACTER", 1},
      {"VARCHAR", "CHARACTER_VARYING", 1},
      {"STRING", "STRING", 0},
      {"SYMBOL", "SYMBOL", 0},
      {"CLOB", "CLOB", 0},
      {"BLOB", "BLOB", 0},
      {"STRUCT", "STRUCT", 0},
      {"TUPLE", "TUPLE", 0},
      {"LIST", "LIST", 0},
      {"SEXP", "SEXP", 0},
      {"DATE", "DATE", 0},
      {"TIME", "TIME", 1},
      {"BAG", "BAG", 0},
  };
  if (peek().kind != TokenKind::Identifier) throw not_well_formed("Expected type");
  const std::string word = upper(take().value);
  std::string canonical;
  int max_parameters = 0;
  if (word == "DOUBLE") {
    expect_keyword("PRECISION");
    canonical = "DOUBLE_PRECISION";
  } else if ((word == "CHAR" || word == "CHARACTER") && accept_keyword("VARYING")) {
    canonical = "CHARACTER_VARYING";
    max_parameters = 1;
  } else {
    const auto* t =
        std::find_if(std::begin(kTypes), std::end(kTypes), [&](const TypeWord& e) { return e.word == word; });
    if (t == std::end(kTypes)) throw not_well_formed("Expected type");
    canonical = t->canonical;
    max_parameters = t->max_parameters;
  }
  if (max_parameters > 0 && accept(TokenKind::LeftParen)) {
    int count = 0;
    do {
      if (++count > max_parameters || peek().kind != TokenKind::Number ||
          peek().value.find_first_not_of("0123456789") != std::string_view::npos) {
        throw not_well_formed("Expected type parameter");
      }
      take();
    } while (accept(TokenKind::Comma));
    expect(TokenKind::RightParen, "RIGHT_PAREN");
  }
  if (canonical == "TIME" && accept_keyword("WITH")) {
    expect_keyword("TIME");
    expect_keyword("ZONE");
    canonical = "TIME_WITH_TIME_ZONE";
  }
  return canonical;
}

// + - || and then * / %, each left to right (PartiQL's precedence; DynamoDB
// computes + and - in an UPDATE's SET and refuses the rest). Precedence
// climbing, one frame for every level, and signs in primary(): a nesting
// level costs the stack what it did before these were parsed (kMaxDepth).
NodeId Parser::additive(int min_level) {
  NodeId left = primary();
  for (int level = binary_level(peek().kind); level >= min_level; level = binary_level(peek().kind)) {
    const Token& op = take();
    const NodeId right = additive(level + 1);
    left =
        add_node(NodeKind::Arithmetic, op.pos, {left, right}, std::string(text_.substr(op.begin, op.end - op.begin)));
    out_.nodes[left].flag = op.kind == TokenKind::Minus;
  }
  return left;
}

int Parser::binary_level(TokenKind k) {
  switch (k) {
    case TokenKind::Plus:
    case TokenKind::Minus:
    case TokenKind::Concat: return 0;
    case TokenKind::Star:
    case TokenKind::Slash:
    case TokenKind::Percent: return 1;
    default: return -1;
  }
}

// A sign: part of a number literal (-7, +7, -.73e1), else an operator on
// what follows it (-a * b is (-a) * b).
NodeId Parser::signed_value() {
  const Token& sign = take();
  const std::string text = sign.kind == TokenKind::Minus ? "-" : "+";
  if (peek().kind == TokenKind::Number) {
    // Its position is the number's: the service points there (<<'a', -1>>).
    const Token& number = take();
    return add_node(NodeKind::Number, number.pos, {}, (text == "-" ? text : "") + number.value);
  }
  const DepthGuard guard(*this);
  const NodeId operand = primary();
  return add_node(NodeKind::Unary, sign.pos, {operand}, text);
}

NodeId Parser::primary() {
  const Token& t = peek();
  switch (t.kind) {
    case TokenKind::String: return add_node(NodeKind::String, t.pos, {}, take().value);
    case TokenKind::Number: return add_node(NodeKind::Number, t.pos, {}, take().value);
    case TokenKind::Parameter: {
      const NodeId id = add_node(NodeKind::Parameter, take().pos);
      out_.nodes[id].parameter = out_.parameter_count++;
      return id;
    }
    case TokenKind::Minus:
    case TokenKind::Plus: return signed_value();
    case TokenKind::LeftParen: {
      // (e) is e; (e1, e2, ...) a list.
      const Position open = take().pos;
      const NodeId inner = expression();
      if (accept(TokenKind::RightParen)) return inner;
      std::vector<NodeId> elements{inner};
      while (accept(TokenKind::Comma)) elements.push_back(expression());
      expect(TokenKind::RightParen, "RIGHT_PAREN");
      return add_node(NodeKind::List, open, std::move(elements));
    }
    case TokenKind::LeftBracket: return sequence(NodeKind::List, TokenKind::RightBracket, "RIGHT_BRACKET");
    case TokenKind::BagOpen: return sequence(NodeKind::Bag, TokenKind::BagClose, "RIGHT_ANGLE_BRACKET");
    case TokenKind::LeftBrace: return structure();
    case TokenKind::QuotedIdentifier: return path_node();
    case TokenKind::Identifier: return word();
    case TokenKind::End: throw not_well_formed("Unexpected end of statement");
    default: throw not_well_formed("Unexpected token");
  }
}

// A literal keyword, a function call or a path.
NodeId Parser::word() {
  const Token& t = peek();
  if (iequals(t.value, "true") || iequals(t.value, "false")) {
    const NodeId id = add_node(NodeKind::Boolean, t.pos);
    out_.nodes[id].flag = iequals(take().value, "true");
    return id;
  }
  if (iequals(t.value, "null")) return add_node(NodeKind::Null, take().pos);
  if (iequals(t.value, "missing")) return add_node(NodeKind::Missing, take().pos);
  if (peek(1).kind == TokenKind::LeftParen && (!is_reserved(t.value) || iequals(t.value, "exists"))) {
    const Token& name = take();
    take();
    std::vector<NodeId> arguments;
    if (peek().kind == TokenKind::Star && peek(1).kind == TokenKind::RightParen) {
      take();  // COUNT(*): a call without arguments here
      take();
    } else if (!accept(TokenKind::RightParen)) {
      do {
        arguments.push_back(expression());
      } while (accept(TokenKind::Comma));
      expect(TokenKind::RightParen, "RIGHT_PAREN");
    }
    return add_node(NodeKind::Call, name.pos, std::move(arguments), lower(name.value));
  }
  if (is_reserved(t.value)) throw not_well_formed("Unexpected keyword");
  return path_node();
}

NodeId Parser::sequence(NodeKind kind, TokenKind close, std::string_view close_name) {
  const Position open = take().pos;
  std::vector<NodeId> elements;
  if (!accept(close)) {
    do {
      elements.push_back(expression());
    } while (accept(TokenKind::Comma));
    expect(close, close_name);
  }
  return add_node(kind, open, std::move(elements));
}

NodeId Parser::structure() {
  const Position open = take().pos;
  std::vector<std::string> keys;
  std::vector<NodeId> values;
  if (!accept(TokenKind::RightBrace)) {
    do {
      const Token& key = peek();
      if (key.kind != TokenKind::String) throw not_well_formed("Expected string key");
      keys.push_back(take().value);
      expect(TokenKind::Colon, "COLON");
      values.push_back(expression());
    } while (accept(TokenKind::Comma));
    expect(TokenKind::RightBrace, "RIGHT_CURLY");
  }
  const NodeId id = add_node(NodeKind::Struct, open, std::move(values));
  out_.nodes[id].keys = std::move(keys);
  return id;
}

}  // namespace dynamod::partiql::detail
