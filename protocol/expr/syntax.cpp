#include "protocol/expr/syntax.h"

#include <algorithm>

namespace dynamod::expr::syntax {
namespace {

// Deeper nesting than this (parentheses, NOT chains) is refused as a syntax
// error to bound recursion; 4 KB expressions cannot reach the service's own
// limits otherwise.
constexpr int kMaxRecursion = 1200;

bool is_comparator(TokenKind k) {
  return k == TokenKind::Eq || k == TokenKind::Ne || k == TokenKind::Lt || k == TokenKind::Le || k == TokenKind::Gt ||
         k == TokenKind::Ge;
}

// A backtracking recursive-descent parser with memoised operands and
// conditions (packrat), so ambiguous '(' costs linear time. The error
// position is the furthest token any alternative failed at: the first token
// after the longest prefix that could still become a valid expression, which
// is where the service's ANTLR parser reports its syntax errors.
class Parser {
 public:
  explicit Parser(Tree& tree) : t_(tree), toks_(tree.tokens) {
    memo_operand_.assign(toks_.size(), Memo{});
    memo_condition_.assign(toks_.size(), Memo{});
  }

  std::size_t furthest() const { return furthest_; }
  bool redundant_completed() const { return redundant_completed_; }

  bool parse_condition_top() {
    std::size_t pos = 0;
    std::uint32_t n = condition(pos);
    if (n == kNone) return false;
    if (!at_end(pos)) return false;
    t_.root = n;
    return true;
  }

  bool parse_projection_top() {
    std::size_t pos = 0;
    std::uint32_t p = path(pos);
    if (p == kNone) return false;
    t_.paths.push_back(p);
    while (peek(pos) == TokenKind::Comma) {
      std::size_t save = pos++;
      std::uint32_t q = path(pos);
      if (q == kNone) {
        pos = save;
        break;
      }
      t_.paths.push_back(q);
    }
    return at_end(pos);
  }

  bool parse_update_top() {
    std::size_t pos = 0;
    if (!section(pos)) return false;
    while (true) {
      std::size_t save = pos;
      std::size_t actions = t_.actions.size();
      if (!section(pos)) {
        pos = save;
        t_.actions.resize(actions);
        break;
      }
    }
    return at_end(pos);
  }

 private:
  struct Memo {
    bool done = false;
    std::uint32_t node = kNone;
    std::size_t end = 0;
  };

  TokenKind peek(std::size_t pos) const { return toks_[pos].kind; }
  void fail(std::size_t pos) { furthest_ = std::max(furthest_, pos); }
  bool accept(std::size_t& pos, TokenKind k) {
    if (peek(pos) == k) {
      ++pos;
      return true;
    }
    fail(pos);
    return false;
  }
  bool at_end(std::size_t pos) {
    if (peek(pos) == TokenKind::Eof) return true;
    fail(pos);
    return false;
  }

  static bool is_paren(Kind k) { return k == Kind::Paren || k == Kind::Group || k == Kind::ArithParen; }

  std::uint32_t add(Node n) {
    for (std::uint32_t child : {n.a, n.b, n.c}) {
      if (child == kNone) continue;
      const Node& c = t_.nodes[child];
      n.redundant = n.redundant || c.redundant || (is_paren(n.kind) && is_paren(c.kind));
    }
    t_.nodes.push_back(n);
    return static_cast<std::uint32_t>(t_.nodes.size() - 1);
  }
  std::uint32_t add_list(Node n, const std::vector<std::uint32_t>& items) {
    n.list_begin = static_cast<std::uint32_t>(t_.lists.size());
    n.list_size = static_cast<std::uint32_t>(items.size());
    if (n.kind != Kind::Path) {
      for (auto i : items) n.redundant = n.redundant || t_.nodes[i].redundant;
    }
    t_.lists.insert(t_.lists.end(), items.begin(), items.end());
    return add(n);
  }

  struct DepthGuard {
    explicit DepthGuard(int& d) : d_(d) { ++d_; }
    ~DepthGuard() { --d_; }
    int& d_;
  };

  // path := (Id | NameRef) ( '.' (Id | NameRef) | '[' Index ']' )*
  std::uint32_t path(std::size_t& pos) {
    TokenKind k = peek(pos);
    if (k != TokenKind::Id && k != TokenKind::NameRef) {
      fail(pos);
      return kNone;
    }
    std::vector<std::uint32_t> elements{static_cast<std::uint32_t>(pos)};
    ++pos;
    while (true) {
      std::size_t p = pos;
      if (peek(p) == TokenKind::Dot) {
        ++p;
        if (peek(p) != TokenKind::Id && peek(p) != TokenKind::NameRef) {
          fail(p);
          break;
        }
        elements.push_back(static_cast<std::uint32_t>(p));
        pos = p + 1;
      } else if (peek(p) == TokenKind::LBracket) {
        ++p;
        if (peek(p) != TokenKind::Index) {
          fail(p);
          break;
        }
        std::size_t index_token = p++;
        if (peek(p) != TokenKind::RBracket) {
          fail(p);
          break;
        }
        elements.push_back(static_cast<std::uint32_t>(index_token));
        pos = p + 1;
      } else {
        fail(p);  // any continuation would have been valid here
        break;
      }
    }
    return add_list(Node{Kind::Path}, elements);
  }

  // call := Id '(' operand (',' operand)* ')'
  std::uint32_t call(std::size_t& pos) {
    std::size_t p = pos;
    if (peek(p) != TokenKind::Id) {
      fail(p);
      return kNone;
    }
    std::uint32_t name = static_cast<std::uint32_t>(p++);
    if (!accept(p, TokenKind::LParen)) return kNone;
    std::vector<std::uint32_t> args;
    std::uint32_t a = operand(p);
    if (a == kNone) return kNone;
    args.push_back(a);
    while (peek(p) == TokenKind::Comma) {
      ++p;
      a = operand(p);
      if (a == kNone) return kNone;
      args.push_back(a);
    }
    if (!accept(p, TokenKind::RParen)) return kNone;
    pos = p;
    Node n{Kind::Call};
    n.token = name;
    return add_list(n, args);
  }

  // operand := '(' operand ')' | call | path | ValueRef
  std::uint32_t operand(std::size_t& pos) {
    Memo& m = memo_operand_[pos];
    if (m.done) {
      if (m.node != kNone) pos = m.end;
      return m.node;
    }
    std::size_t start = pos;
    std::uint32_t result = operand_uncached(pos);
    Memo& m2 = memo_operand_[start];  // the vector is not resized, but be explicit
    m2.done = true;
    m2.node = result;
    m2.end = pos;
    return result;
  }

  std::uint32_t operand_uncached(std::size_t& pos) {
    DepthGuard guard(depth_);
    if (depth_ > kMaxRecursion) {
      fail(pos);
      return kNone;
    }
    switch (peek(pos)) {
      case TokenKind::LParen: {
        std::size_t p = pos + 1;
        std::uint32_t inner = operand(p);
        if (inner == kNone) return kNone;
        if (!accept(p, TokenKind::RParen)) return kNone;
        pos = p;
        Node n{Kind::Paren};
        n.a = inner;
        return add(n);
      }
      case TokenKind::Id: {
        if (peek(pos + 1) == TokenKind::LParen) {
          std::uint32_t c = call(pos);
          if (c != kNone) return c;
        }
        return path(pos);
      }
      case TokenKind::NameRef: return path(pos);
      case TokenKind::ValueRef: {
        Node n{Kind::ValueRef};
        n.token = static_cast<std::uint32_t>(pos++);
        return add(n);
      }
      default: fail(pos); return kNone;
    }
  }

  // condition := and (OR and)*
  std::uint32_t condition(std::size_t& pos) {
    Memo& m = memo_condition_[pos];
    if (m.done) {
      if (m.node != kNone) pos = m.end;
      return m.node;
    }
    std::size_t start = pos;
    std::uint32_t result = kNone;
    {
      DepthGuard guard(depth_);
      if (depth_ > kMaxRecursion) {
        fail(pos);
      } else {
        result = binary_chain(pos, TokenKind::Or);
      }
    }
    Memo& m2 = memo_condition_[start];
    m2.done = true;
    m2.node = result;
    m2.end = pos;
    return result;
  }

  // OR chains of AND chains of unary conditions; both left-associative.
  std::uint32_t binary_chain(std::size_t& pos, TokenKind op) {
    auto sub = [&](std::size_t& p) { return op == TokenKind::Or ? binary_chain(p, TokenKind::And) : unary(p); };
    std::uint32_t left = sub(pos);
    if (left == kNone) return kNone;
    while (true) {
      if (peek(pos) != op) {
        fail(pos);
        return left;
      }
      std::size_t p = pos + 1;
      std::uint32_t right = sub(p);
      if (right == kNone) return left;
      Node n{op == TokenKind::Or ? Kind::Or : Kind::And};
      n.a = left;
      n.b = right;
      left = add(n);
      pos = p;
    }
  }

  // unary := NOT unary | primary
  std::uint32_t unary(std::size_t& pos) {
    DepthGuard guard(depth_);
    if (depth_ > kMaxRecursion) {
      fail(pos);
      return kNone;
    }
    if (peek(pos) == TokenKind::Not) {
      std::size_t p = pos + 1;
      std::uint32_t child = unary(p);
      if (child == kNone) return kNone;
      pos = p;
      Node n{Kind::Not};
      n.a = child;
      return add(n);
    }
    return primary(pos);
  }

  // primary := operand comparator operand
  //          | operand BETWEEN operand AND operand
  //          | operand IN '(' operand (',' operand)* ')'
  //          | '(' condition ')'
  //          | call
  std::uint32_t primary(std::size_t& pos) {
    std::uint32_t r = primary_uncounted(pos);
    if (r != kNone && t_.nodes[r].redundant) redundant_completed_ = true;
    return r;
  }

  std::uint32_t primary_uncounted(std::size_t& pos) {
    {
      std::size_t p = pos;
      std::uint32_t lhs = operand(p);
      if (lhs != kNone) {
        std::uint32_t r = operand_condition(p, lhs);
        if (r != kNone) {
          pos = p;
          return r;
        }
      }
    }
    if (peek(pos) == TokenKind::LParen) {
      std::size_t p = pos + 1;
      std::uint32_t inner = condition(p);
      if (inner != kNone && accept(p, TokenKind::RParen)) {
        pos = p;
        Node n{Kind::Group};
        n.a = inner;
        return add(n);
      }
    }
    std::size_t p = pos;
    std::uint32_t c = call(p);
    if (c == kNone) return kNone;
    pos = p;
    Node n{Kind::FuncCond};
    n.a = c;
    return add(n);
  }

  // Once the token after the first operand has chosen the alternative, the
  // service's parser is committed to it, and every operand it completes from
  // then on has its parentheses checked (even if a syntax error follows).
  std::uint32_t committed_operand(std::size_t& p) {
    std::uint32_t o = operand(p);
    if (o != kNone && t_.nodes[o].redundant) redundant_completed_ = true;
    return o;
  }

  std::uint32_t operand_condition(std::size_t& p, std::uint32_t lhs) {
    TokenKind k = peek(p);
    if ((is_comparator(k) || k == TokenKind::Between || k == TokenKind::In) && t_.nodes[lhs].redundant) {
      redundant_completed_ = true;
    }
    if (is_comparator(k)) {
      ++p;
      std::uint32_t rhs = committed_operand(p);
      if (rhs == kNone) return kNone;
      Node n{Kind::Compare};
      n.op = static_cast<std::uint8_t>(k);
      n.a = lhs;
      n.b = rhs;
      return add(n);
    }
    if (k == TokenKind::Between) {
      ++p;
      std::uint32_t lo = committed_operand(p);
      if (lo == kNone || !accept(p, TokenKind::And)) return kNone;
      std::uint32_t hi = committed_operand(p);
      if (hi == kNone) return kNone;
      Node n{Kind::Between};
      n.a = lhs;
      n.b = lo;
      n.c = hi;
      return add(n);
    }
    if (k == TokenKind::In) {
      ++p;
      if (!accept(p, TokenKind::LParen)) return kNone;
      std::vector<std::uint32_t> items;
      std::uint32_t item = committed_operand(p);
      if (item == kNone) return kNone;
      items.push_back(item);
      while (peek(p) == TokenKind::Comma) {
        ++p;
        item = committed_operand(p);
        if (item == kNone) return kNone;
        items.push_back(item);
      }
      if (!accept(p, TokenKind::RParen)) return kNone;
      Node n{Kind::In};
      n.a = lhs;
      return add_list(n, items);
    }
    fail(p);
    return kNone;
  }

  // set_value := operand [('+' | '-') operand] | '(' set_value ')'
  std::uint32_t set_value(std::size_t& pos) {
    DepthGuard guard(depth_);
    if (depth_ > kMaxRecursion) {
      fail(pos);
      return kNone;
    }
    {
      std::size_t p = pos;
      std::uint32_t lhs = operand(p);
      if (lhs != kNone) {
        TokenKind k = peek(p);
        if (k == TokenKind::Plus || k == TokenKind::Minus) {
          std::size_t q = p + 1;
          std::uint32_t rhs = operand(q);
          if (rhs != kNone) {
            pos = q;
            Node n{Kind::Arith};
            n.op = static_cast<std::uint8_t>(k);
            n.a = lhs;
            n.b = rhs;
            return add(n);
          }
        } else {
          fail(p);
        }
        pos = p;
        return lhs;
      }
    }
    if (peek(pos) != TokenKind::LParen) {
      fail(pos);
      return kNone;
    }
    std::size_t p = pos + 1;
    std::uint32_t inner = set_value(p);
    if (inner == kNone || !accept(p, TokenKind::RParen)) return kNone;
    pos = p;
    Node n{Kind::ArithParen};
    n.a = inner;
    return add(n);
  }

  // One section: SET a = v, ... | REMOVE a, ... | ADD a :v, ... | DELETE a :v, ...
  bool section(std::size_t& pos) {
    TokenKind k = peek(pos);
    if (k != TokenKind::Set && k != TokenKind::Remove && k != TokenKind::Add && k != TokenKind::Delete) {
      fail(pos);
      return false;
    }
    std::size_t p = pos + 1;
    if (!action(p, k)) return false;
    t_.actions.back().starts_section = true;
    while (peek(p) == TokenKind::Comma) {
      std::size_t q = p + 1;
      std::size_t count = t_.actions.size();
      if (!action(q, k)) {
        t_.actions.resize(count);
        break;
      }
      p = q;
    }
    if (peek(p) != TokenKind::Comma) fail(p);
    pos = p;
    return true;
  }

  bool action(std::size_t& pos, TokenKind section) {
    std::size_t p = pos;
    std::uint32_t target = path(p);
    if (target == kNone) return false;
    UpdateAction a{section, target};
    if (section == TokenKind::Set) {
      if (!accept(p, TokenKind::Eq)) return false;
      a.value = set_value(p);
      if (a.value == kNone) return false;
    } else if (section == TokenKind::Add || section == TokenKind::Delete) {
      if (peek(p) != TokenKind::ValueRef) {
        fail(p);
        return false;
      }
      Node n{Kind::ValueRef};
      n.token = static_cast<std::uint32_t>(p++);
      a.value = add(n);
    }
    if (a.value != kNone && t_.nodes[a.value].redundant) redundant_completed_ = true;
    t_.actions.push_back(a);
    pos = p;
    return true;
  }

  Tree& t_;
  const std::vector<Token>& toks_;
  std::size_t furthest_ = 0;
  bool redundant_completed_ = false;
  int depth_ = 0;
  std::vector<Memo> memo_operand_;
  std::vector<Memo> memo_condition_;
};

std::string near_text(const Tree& t, std::size_t at) {
  const auto& toks = t.tokens;
  std::size_t begin = at > 0 ? toks[at - 1].begin : 0;
  std::size_t end = t.text.size();
  if (toks[at].kind != TokenKind::Eof && at + 1 < toks.size() && toks[at + 1].kind != TokenKind::Eof) {
    end = toks[at + 1].end;
  }
  return std::string(t.text.substr(begin, end - begin));
}

}  // namespace

std::optional<Tree> parse(std::string_view text, Grammar grammar, SyntaxError& error) {
  Tree tree;
  tree.text = text;
  tree.tokens = tokenize(text);
  tree.nodes.reserve(tree.tokens.size() * 2);
  bool ok = false;
  std::size_t furthest = 0;
  {
    Parser parser(tree);
    switch (grammar) {
      case Grammar::Condition: ok = parser.parse_condition_top(); break;
      case Grammar::Update: ok = parser.parse_update_top(); break;
      case Grammar::Projection: ok = parser.parse_projection_top(); break;
    }
    furthest = parser.furthest();
    error.redundant_parentheses = !ok && parser.redundant_completed();
  }
  if (ok) return tree;
  furthest = std::min(furthest, tree.tokens.size() - 1);
  const Token& tok = tree.tokens[furthest];
  std::string token_text =
      tok.kind == TokenKind::Eof ? "<EOF>" : std::string(tree.token_text(static_cast<std::uint32_t>(furthest)));
  error.message = "Syntax error; token: \"" + token_text + "\", near: \"" + near_text(tree, furthest) + "\"";
  return std::nullopt;
}

}  // namespace dynamod::expr::syntax
