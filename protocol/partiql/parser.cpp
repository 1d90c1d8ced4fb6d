#include "protocol/partiql/parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <iterator>

namespace dynamod::partiql {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// Words the grammar (or PartiQL's, which DynamoDB's parser follows) reserves:
// bare, they are never attribute or table names.
constexpr std::string_view kReserved[] = {
    "all",   "and",    "as",      "asc",      "at",      "between",   "by",     "case",      "cast",   "create",
    "cross", "delete", "desc",    "distinct", "drop",    "else",      "end",    "except",    "exists", "false",
    "from",  "full",   "group",   "having",   "in",      "inner",     "insert", "intersect", "into",   "is",
    "join",  "left",   "like",    "limit",    "missing", "natural",   "not",    "null",      "offset", "on",
    "or",    "order",  "outer",   "pivot",    "remove",  "returning", "right",  "select",    "set",    "then",
    "true",  "union",  "unpivot", "update",   "using",   "value",     "values", "when",      "where",  "with",
};

bool is_reserved(std::string_view word) {
  return std::any_of(std::begin(kReserved), std::end(kReserved), [&](std::string_view r) { return iequals(r, word); });
}

constexpr std::string_view kValueOrPivot = "Select projection doesn't support value or pivot keywords";

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens) : text_(text), tokens_(std::move(tokens)) {}

  Statement run() {
    const Token& first = peek();
    if (first.kind == TokenKind::End) throw not_well_formed("");
    if (keyword("SELECT")) {
      take();
      Select select = select_rest();
      if (out_.wrapped_select) {
        out_.body = Exists{std::move(select)};
      } else {
        out_.body = std::move(select);
      }
    } else if (keyword("PIVOT")) {
      take();
      out_.body = pivot_rest();
    } else if (keyword("INSERT")) {
      take();
      out_.body = insert_rest();
    } else if (keyword("UPDATE")) {
      take();
      out_.body = update_rest();
    } else if (keyword("FROM")) {
      take();
      out_.body = from_first_rest();
    } else if (keyword("DELETE")) {
      take();
      out_.body = delete_rest();
    } else if (keyword("EXISTS")) {
      take();
      expect(TokenKind::LeftParen, "LEFT_PAREN");
      if (!keyword("SELECT")) throw not_well_formed("Expected SELECT");
      take();
      Exists exists{select_rest()};
      expect(TokenKind::RightParen, "RIGHT_PAREN");
      out_.body = std::move(exists);
    } else if (keyword("CREATE") || keyword("DROP")) {
      const std::string verb = keyword("CREATE") ? "Create" : "Drop";
      take();
      throw ApiError::validation("Unsupported operation: " + verb + (keyword("INDEX") ? "Index" : "Table"));
    } else {
      throw not_well_formed("Expected data manipulation");
    }
    if (peek().kind != TokenKind::End) throw not_well_formed("Unexpected token after expression");
    if (aliased_) refuse("Aliasing is not supported");
    if (select_refusal_) refuse(std::move(*select_refusal_));
    return std::move(out_);
  }

 private:
  const Token& peek(std::size_t ahead = 0) const { return tokens_[std::min(next_ + ahead, tokens_.size() - 1)]; }
  const Token& take() {
    const Token& t = tokens_[next_];
    if (next_ + 1 < tokens_.size()) ++next_;
    return t;
  }
  bool keyword(std::string_view word, std::size_t ahead = 0) const {
    const Token& t = peek(ahead);
    return t.kind == TokenKind::Identifier && iequals(t.value, word);
  }
  bool accept_keyword(std::string_view word) {
    if (!keyword(word)) return false;
    take();
    return true;
  }
  void expect_keyword(std::string_view word) {
    if (!accept_keyword(word)) throw not_well_formed("Expected " + upper(word));
  }
  const Token& expect(TokenKind kind, std::string_view name) {
    if (peek().kind != kind) throw not_well_formed("Expected " + std::string(name));
    return take();
  }
  bool accept(TokenKind kind) {
    if (peek().kind != kind) return false;
    take();
    return true;
  }
  // A token that may start or continue a name: bare (not reserved) or quoted.
  static bool is_name(const Token& t) {
    return t.kind == TokenKind::QuotedIdentifier || (t.kind == TokenKind::Identifier && !is_reserved(t.value));
  }

  NodeId add(Node node) {
    out_.nodes.push_back(std::move(node));
    return static_cast<NodeId>(out_.nodes.size() - 1);
  }
  Node make(NodeKind kind, const Position& pos) {
    Node n;
    n.kind = kind;
    n.pos = pos;
    return n;
  }

  // --- clauses ---

  TableRef table_ref() {
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
  void skip_alias() {
    if (accept_keyword("AS")) {
      if (!is_name(peek())) throw ApiError::validation("Aliasing is not supported");
    } else if (!is_name(peek())) {
      return;
    }
    take();
    aliased_ = true;
  }

  std::optional<NodeId> where() {
    if (!accept_keyword("WHERE")) return std::nullopt;
    return expression();
  }

  std::optional<Returning> returning() {
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
  SelectItem select_item() {
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

  static const Position& operator_position(const Node& n) {
    switch (n.kind) {
      case NodeKind::Compare:
      case NodeKind::Between:
      case NodeKind::In:
      case NodeKind::Like: return n.op_pos;
      default: return n.pos;
    }
  }

  void refuse_select_item(std::string message) {
    if (!select_refusal_) select_refusal_ = std::move(message);
  }

  Select select_rest() {
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
  bool continues_expression(std::size_t ahead) const {
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
               (keyword("NOT", ahead) && (keyword("IN", ahead + 1) || keyword("BETWEEN", ahead + 1) ||
                                          keyword("LIKE", ahead + 1)));
    }
  }

  // A FROM clause followed by an expression where WHERE was meant: with an
  // alias (`FROM t x = 1`), PartiQL reads an expression around the SELECT;
  // without one (`FROM t = 1`), a source it does not take (DynamoDB Local's
  // answers). The rest is parsed for its grammar.
  bool parse_wrapped_select() {
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
  Select pivot_rest() {
    expression();
    expect_keyword("AT");
    expression();
    refuse(std::string(kValueOrPivot));
    Select s;
    from_rest(s);
    return s;
  }

  // A SELECT's FROM clause onwards.
  void from_rest(Select& s) {
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

  Insert insert_rest() {
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
  void update_clauses(std::vector<UpdateAction>& actions) {
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

  Update update_rest() {
    Update u;
    u.table = table_ref();
    skip_alias();
    update_clauses(u.actions);
    u.where = where();
    u.returning = returning();
    return u;
  }

  Update from_first_rest() {
    Update u;
    u.table = table_ref();
    skip_alias();
    u.where = where();
    update_clauses(u.actions);
    u.returning = returning();
    return u;
  }

  Delete delete_rest() {
    Delete d;
    expect_keyword("FROM");
    d.from = table_ref();
    skip_alias();
    d.where = where();
    d.returning = returning();
    return d;
  }

  // --- paths ---

  // A document path starting at the next token (a name). `name` receives the
  // path from its last name component on, as a select list reports it.
  expr::Path path(std::string& name, bool target = false) {
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

  static bool list_index(const std::string& text, std::uint32_t& index) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
    return ec == std::errc() && end == text.data() + text.size();
  }

  // What else a path's brackets hold parses as an expression and is refused
  // once the statement has (DynamoDB Local): a negative index by its range,
  // anything else at its operator or first token. An UPDATE's SET target
  // takes literals there only; another path is no index.
  void refuse_index(bool target) {
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
    const bool literal = (t.kind == TokenKind::Number || keyword("TRUE") || keyword("FALSE") || keyword("NULL") ||
                          keyword("MISSING")) &&
                         peek(1).kind == TokenKind::RightBracket;
    if ((target && !literal) || is_name(t)) throw not_well_formed("Invalid path component");
    const NodeId index = additive();
    refuse("Unexpected path component" + operator_position(out_.nodes[index]).suffix());
  }

  NodeId path_node(bool target = false) {
    if (!is_name(peek())) throw not_well_formed("Expected path");
    const Position pos = peek().pos;
    std::string name;
    expr::Path p = path(name, target);
    const NodeId id = add_node(NodeKind::Path, pos, {}, std::move(name));
    out_.nodes[id].path = std::move(p);
    return id;
  }

  // --- expressions, loosest first ---

  // Nodes are made by add_node, not in these functions: they recurse once per
  // nesting level, and a Node in their frames would make kMaxDepth levels
  // overflow the stack of a sanitizer build.
  [[gnu::noinline]] NodeId add_node(NodeKind kind, const Position& pos, std::vector<NodeId> children = {},
                                    std::string text = {}) {
    Node n = make(kind, pos);
    n.children = std::move(children);
    n.text = std::move(text);
    return add(std::move(n));
  }

  NodeId expression() {
    const DepthGuard guard(*this);
    NodeId left = conjunction();
    while (keyword("OR")) {
      const Position pos = take().pos;
      const NodeId right = conjunction();
      left = add_node(NodeKind::Or, pos, {left, right});
    }
    return left;
  }

  NodeId conjunction() {
    NodeId left = negation();
    while (keyword("AND")) {
      const Position pos = take().pos;
      const NodeId right = negation();
      left = add_node(NodeKind::And, pos, {left, right});
    }
    return left;
  }

  NodeId negation() {
    if (!keyword("NOT")) return predicate();
    const DepthGuard guard(*this);
    const Position pos = take().pos;
    const NodeId inner = negation();
    return add_node(NodeKind::Not, pos, {inner});
  }

  static std::optional<expr::CompareOp> comparison(TokenKind k) {
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
  NodeId comparisons(NodeId left, Position pos) {
    while (auto op = comparison(peek().kind)) {
      const Position op_pos = take().pos;
      const NodeId rhs = additive();
      left = add_node(NodeKind::Compare, pos, {left, rhs});
      out_.nodes[left].op = *op;
      out_.nodes[left].op_pos = op_pos;
    }
    return left;
  }

  NodeId predicate() {
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
  std::string type_name() {
    struct TypeWord {
      std::string_view word;
      std::string_view canonical;
      int max_parameters;
    };
    static constexpr TypeWord kTypes[] = {
        {"MISSING", "MISSING", 0},     {"NULL", "NULL", 0},         {"BOOL", "BOOLEAN", 0},
        {"BOOLEAN", "BOOLEAN", 0},     {"SMALLINT", "SMALLINT", 0}, {"INT", "INTEGER", 0},
        {"INTEGER", "INTEGER", 0},     {"FLOAT", "FLOAT", 1},       {"REAL", "REAL", 1},
        {"DECIMAL", "DECIMAL", 2},     {"DEC", "DECIMAL", 2},       {"NUMERIC", "NUMERIC", 2},
        {"TIMESTAMP", "TIMESTAMP", 0}, {"CHAR", "CHARACTER", 1},    {"CHARACTER", "CHARACTER", 1},
        {"VARCHAR", "CHARACTER_VARYING", 1}, {"STRING", "STRING", 0}, {"SYMBOL", "SYMBOL", 0},
        {"CLOB", "CLOB", 0},           {"BLOB", "BLOB", 0},         {"STRUCT", "STRUCT", 0},
        {"TUPLE", "TUPLE", 0},         {"LIST", "LIST", 0},         {"SEXP", "SEXP", 0},
        {"DATE", "DATE", 0},           {"TIME", "TIME", 1},         {"BAG", "BAG", 0},
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
  NodeId additive(int min_level = 0) {
    NodeId left = primary();
    for (int level = binary_level(peek().kind); level >= min_level; level = binary_level(peek().kind)) {
      const Token& op = take();
      const NodeId right = additive(level + 1);
      left = add_node(NodeKind::Arithmetic, op.pos, {left, right},
                      std::string(text_.substr(op.begin, op.end - op.begin)));
      out_.nodes[left].flag = op.kind == TokenKind::Minus;
    }
    return left;
  }

  static int binary_level(TokenKind k) {
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
  NodeId signed_value() {
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

  NodeId primary() {
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
  NodeId word() {
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

  NodeId sequence(NodeKind kind, TokenKind close, std::string_view close_name) {
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

  NodeId structure() {
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

  std::string_view text_;
  std::vector<Token> tokens_;
  std::size_t next_ = 0;
  Statement out_;
  bool aliased_ = false;
  std::optional<std::string> select_refusal_;
  int depth_ = 0;

  // Nesting (parentheses, lists, bags, structs, NOT chains) deeper than
  // kMaxDepth is refused before the recursion can exhaust the stack: an
  // 8 KB statement of '(' would otherwise crash the server. DynamoDB Local
  // answers 1,000 levels and fails at 4,000 (500); the service's limit and
  // words are not known, so this is dynamod's own.
  static constexpr int kMaxDepth = 1000;
  struct DepthGuard {
    explicit DepthGuard(Parser& p) : parser(p) {
      if (++parser.depth_ > kMaxDepth) {
        --parser.depth_;
        throw not_well_formed("Expression nested more than " + std::to_string(kMaxDepth) + " levels deep");
      }
    }
    ~DepthGuard() { --parser.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    Parser& parser;
  };

  // A refusal the service names once the statement has parsed: the first is kept.
  void refuse(std::string message) {
    if (!out_.refusal) out_.refusal = std::move(message);
  }
};

}  // namespace

Statement parse(std::string_view statement) { return Parser(statement, tokenize(statement)).run(); }

}  // namespace dynamod::partiql
