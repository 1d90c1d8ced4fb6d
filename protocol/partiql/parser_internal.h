#pragma once
// The PartiQL parser's class, shared by its files: parser.cpp (the statement's
// first keyword, parse()), parse_statements.cpp (the clauses of each kind of
// statement) and parse_expressions.cpp (paths, and expressions level by level,
// loosest first). Only those files include this; the API is parser.h.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/partiql/parser.h"

namespace dynamod::partiql::detail {

bool iequals(std::string_view a, std::string_view b);
std::string lower(std::string_view s);
std::string upper(std::string_view s);
// Words the grammar (or PartiQL's, which DynamoDB's parser follows) reserves:
// bare, they are never attribute or table names.
bool is_reserved(std::string_view word);

constexpr std::string_view kValueOrPivot = "Select projection doesn't support value or pivot keywords";

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens) : text_(text), tokens_(std::move(tokens)) {}

  Statement run();

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

  // --- clauses (parse_statements.cpp) ---

  TableRef table_ref();
  void skip_alias();
  std::optional<NodeId> where();
  std::optional<Returning> returning();
  SelectItem select_item();
  static const Position& operator_position(const Node& n);
  void refuse_select_item(std::string message);
  Select select_rest();
  bool continues_expression(std::size_t ahead) const;
  bool parse_wrapped_select();
  Select pivot_rest();
  void from_rest(Select& s);
  Insert insert_rest();
  void update_clauses(std::vector<UpdateAction>& actions);
  Update update_rest();
  Update from_first_rest();
  Delete delete_rest();

  // --- paths and expressions (parse_expressions.cpp) ---

  expr::Path path(std::string& name, bool target = false);
  static bool list_index(const std::string& text, std::uint32_t& index);
  void refuse_index(bool target);
  NodeId path_node(bool target = false);

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

  NodeId expression();
  NodeId conjunction();
  NodeId negation();
  static std::optional<expr::CompareOp> comparison(TokenKind k);
  NodeId comparisons(NodeId left, Position pos);
  NodeId predicate();
  std::string type_name();
  NodeId additive(int min_level = 0);
  static int binary_level(TokenKind k);
  NodeId signed_value();
  NodeId primary();
  NodeId word();
  NodeId sequence(NodeKind kind, TokenKind close, std::string_view close_name);
  NodeId structure();

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

}  // namespace dynamod::partiql::detail
