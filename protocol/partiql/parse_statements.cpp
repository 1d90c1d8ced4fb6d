// The PartiQL parser's clauses, by kind of statement: the table and the
// shared clauses (WHERE, RETURNING), SELECT (its select list, FROM onwards,
// PIVOT), INSERT, UPDATE (also written FROM-first) and DELETE.

#include "protocol/partiql/parser_internal.h"

namespace dynamod::partiql::detail {

TableRef Parser::table_ref() {
  TableRef ref;
  ref.pos = peek().pos;
  std::vector<std::string> parts;
  do {
    const Token& t = peek();
    if (!is_name(t)) throw not_well_formed("Expected table name");
    parts.push_back(take().value);
  } while (accept(TokenKind::Dot));
  if (parts.size() > 2) throw ApiError::validation("A path may contain at most 2 components in the FROM clause");
  ref.empty_component = std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); });
  ref.table = std::move(parts[0]);
  if (parts.size() == 2) ref.index = std::move(parts[1]);
  return ref;
}

// An alias parses (PartiQL has them) and is refused once the whole statement
// has: a misspelt keyword read as one (UPDATE t REMOV a ...) leaves a
// statement that is not well formed, and that is what the service says.
void Parser::skip_alias() {
  if (accept_keyword("AS")) {
    if (!is_name(peek())) throw ApiError::validation("Aliasing is not supported");
  } else if (!is_name(peek())) {
    return;
  }
  take();
  aliased_ = true;
}

std::optional<NodeId> Parser::where() {
  if (!accept_keyword("WHERE")) return std::nullopt;
  return expression();
}

std::optional<Returning> Parser::returning() {
  if (!keyword("RETURNING")) return std::nullopt;
  const std::uint32_t begin = take().begin;
  bool all = false;
  if (accept_keyword("ALL")) {
    all = true;
  } else {
    expect_keyword("MODIFIED");
  }
  bool old = false;
  if (accept_keyword("OLD")) {
    old = true;
  } else {
    expect_keyword("NEW");
  }
  const std::uint32_t end = expect(TokenKind::Star, "STAR").end;
  Returning r;
  r.image = all ? (old ? ReturnImage::AllOld : ReturnImage::AllNew)
                : (old ? ReturnImage::ModifiedOld : ReturnImage::ModifiedNew);
  r.text = std::string(text_.substr(begin, end - begin));
  return r;
}

// A select list item parses as any expression with an alias; the service
// takes a path without one. The first item that is not is refused once the
// statement has parsed: an alias, else the expression's operator, function
// name or literal (DynamoDB Local: `a * b` at the *, `size(a)` at size).
SelectItem Parser::select_item() {
  const NodeId id = expression();
  bool alias = false;
  if (accept_keyword("AS")) {
    if (!is_name(peek())) throw not_well_formed("Expected alias");
    take();
    alias = true;
  } else if (is_name(peek())) {
    take();
    alias = true;
  }
  const Node& n = out_.nodes[id];
  SelectItem item;
  if (alias) {
    refuse_select_item("Aliasing is not supported");
  } else if (n.kind != NodeKind::Path) {
    refuse_select_item("Unexpected path component" + operator_position(n).suffix());
  } else {
    item.path = n.path;
    item.name = n.text;
  }
  return item;
}

const Position& Parser::operator_position(const Node& n) {
  switch (n.kind) {
    case NodeKind::Compare:
    case NodeKind::Between:
    case NodeKind::In:
    case NodeKind::Like: return n.op_pos;
    default: return n.pos;
  }
}

void Parser::refuse_select_item(std::string message) {
  if (!select_refusal_) select_refusal_ = std::move(message);
}

Select Parser::select_rest() {
  Select s;
  if (keyword("DISTINCT")) throw ApiError::validation("Unsupported token in expression: DISTINCT");
  accept_keyword("ALL");  // the default quantifier
  if (accept(TokenKind::Star)) {
    s.projection = std::nullopt;
  } else if (accept_keyword("VALUE")) {
    expression();  // (the value is not looked at)
    refuse(std::string(kValueOrPivot));
  } else {
    s.projection.emplace();
    do {
      s.projection->push_back(select_item());
    } while (accept(TokenKind::Comma));
  }
  from_rest(s);
  return s;
}

// Whether a token at `ahead` continues an expression (an operator, a path's
// next step).
bool Parser::continues_expression(std::size_t ahead) const {
  switch (peek(ahead).kind) {
    case TokenKind::Eq:
    case TokenKind::Ne:
    case TokenKind::Lt:
    case TokenKind::Le:
    case TokenKind::Gt:
    case TokenKind::Ge:
    case TokenKind::Plus:
    case TokenKind::Minus:
    case TokenKind::Star:
    case TokenKind::Slash:
    case TokenKind::Percent:
    case TokenKind::Concat:
    case TokenKind::Dot: return true;
    default:
      return keyword("AND", ahead) || keyword("OR", ahead) || keyword("IN", ahead) || keyword("BETWEEN", ahead) ||
             keyword("LIKE", ahead) || keyword("IS", ahead) ||
             (keyword("NOT", ahead) &&
              (keyword("IN", ahead + 1) || keyword("BETWEEN", ahead + 1) || keyword("LIKE", ahead + 1)));
  }
}

// A FROM clause followed by an expression where WHERE was meant: with an
// alias (`FROM t x = 1`), PartiQL reads an expression around the SELECT;
// without one (`FROM t = 1`), a source it does not take (DynamoDB Local's
// answers). The rest is parsed for its grammar.
bool Parser::parse_wrapped_select() {
  const std::size_t alias = keyword("AS") ? 1 : 0;
  if (is_name(peek(alias)) && continues_expression(alias + 1)) {
    if (alias) take();
    const NodeId e = expression();
    if (out_.nodes[e].kind == NodeKind::Is) {
      if (peek().kind != TokenKind::End) throw not_well_formed("Unexpected token after expression");
      throw ApiError::validation("Unsupported operation: Typed");
    }
    out_.wrapped_select = true;
    return true;
  }
  if (alias == 0 && (binary_level(peek().kind) >= 0 || comparison(peek().kind).has_value())) {
    take();
    expression();
    refuse("Unexpected from source");
    return true;
  }
  return false;
}

// PIVOT v AT k FROM ...: a SELECT of PartiQL's, refused once parsed.
Select Parser::pivot_rest() {
  expression();
  expect_keyword("AT");
  expression();
  refuse(std::string(kValueOrPivot));
  Select s;
  from_rest(s);
  return s;
}

// A SELECT's FROM clause onwards.
void Parser::from_rest(Select& s) {
  expect_keyword("FROM");
  s.from = table_ref();
  if (s.from.empty_component) refuse(std::string(kEmptyPathComponent));
  if (peek().kind == TokenKind::Comma)
    throw ApiError::validation("Only select from a single table or index is supported.");
  if (parse_wrapped_select()) return;
  skip_alias();
  s.where = where();
  if (accept_keyword("ORDER")) {
    expect_keyword("BY");
    do {
      OrderBy order;
      order.pos = peek().pos;
      if (!is_name(peek())) throw not_well_formed("Expected path");
      std::string unused;
      order.path = path(unused);
      if (accept_keyword("DESC")) {
        order.descending = true;
      } else {
        accept_keyword("ASC");
      }
      s.order_by.push_back(std::move(order));
    } while (accept(TokenKind::Comma));
  }
}

Insert Parser::insert_rest() {
  Insert ins;
  expect_keyword("INTO");
  ins.into = table_ref();
  if (!accept_keyword("VALUE")) {
    // PartiQL's own INSERT INTO t <value> (a struct or a bag) parses, and is refused.
    const TokenKind next = peek().kind;
    if (next == TokenKind::LeftBrace || next == TokenKind::BagOpen) {
      throw ApiError::validation("Unsupported operation: InsertOp");
    }
    throw not_well_formed("Unexpected token after expression");
  }
  ins.value = expression();
  ins.returning = returning();
  return ins;
}

// One or more SET / REMOVE clauses, in any order.
void Parser::update_clauses(std::vector<UpdateAction>& actions) {
  for (;;) {
    if (accept_keyword("SET")) {
      do {
        UpdateAction a;
        a.path = path_node(/*target=*/true);
        expect(TokenKind::Eq, "EQ");
        a.value = additive();
        actions.push_back(a);
      } while (accept(TokenKind::Comma));
    } else if (accept_keyword("REMOVE")) {
      // One path a REMOVE (PartiQL's grammar); SET takes a list.
      actions.push_back(UpdateAction{path_node(/*target=*/true), std::nullopt});
    } else {
      break;
    }
  }
  if (actions.empty()) throw not_well_formed("Expected SET or REMOVE");
}

Update Parser::update_rest() {
  Update u;
  u.table = table_ref();
  skip_alias();
  update_clauses(u.actions);
  u.where = where();
  u.returning = returning();
  return u;
}

Update Parser::from_first_rest() {
  Update u;
  u.table = table_ref();
  skip_alias();
  u.where = where();
  update_clauses(u.actions);
  u.returning = returning();
  return u;
}

Delete Parser::delete_rest() {
  Delete d;
  expect_keyword("FROM");
  d.from = table_ref();
  skip_alias();
  d.where = where();
  d.returning = returning();
  return d;
}

}  // namespace dynamod::partiql::detail
