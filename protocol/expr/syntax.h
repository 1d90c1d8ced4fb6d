#pragma once
// Stage 1 of parsing: the grammar alone. Produces a syntax tree whose leaves
// still hold #names and :values as text, or reports the service's
// "Syntax error; token: ..., near: ..." message. Semantic checks (function
// names, reserved words, placeholders, types) are later passes over this tree,
// in the order the service makes them (see resolve.cpp).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/expr/lexer.h"

namespace dynamod::expr::syntax {

inline constexpr std::uint32_t kNone = UINT32_MAX;

enum class Kind : std::uint8_t {
  Path,      // elements = token indices (Id / NameRef / Index)
  ValueRef,  // token = the :value token
  Call,      // token = function name; elements = argument nodes
  Paren,     // '(' a ')' around an operand
  Compare,   // a op b
  Between,   // a BETWEEN b AND c
  In,        // a IN (elements)
  FuncCond,  // a = Call node used as a condition
  And,
  Or,          // a, b
  Not,         // a
  Group,       // '(' a ')' around a condition
  Arith,       // a (+|-) b in SET
  ArithParen,  // '(' a ')' around a SET value
};

struct Node {
  Kind kind;
  std::uint8_t op = 0;  // TokenKind of the comparator / '+' '-'
  std::uint32_t token = 0;
  std::uint32_t a = kNone, b = kNone, c = kNone;
  std::uint32_t list_begin = 0, list_size = 0;  // into Tree::lists
  bool redundant = false;                       // this subtree has '(' directly around '('
};

struct UpdateAction {
  TokenKind section;  // Set, Remove, Add, Delete
  std::uint32_t path;
  std::uint32_t value = kNone;  // SET value node, or the ValueRef node of ADD/DELETE
  bool starts_section = false;  // the first action after a SET/REMOVE/ADD/DELETE keyword
};

struct Tree {
  std::string_view text;
  std::vector<Token> tokens;
  std::vector<Node> nodes;
  std::vector<std::uint32_t> lists;
  std::uint32_t root = kNone;         // condition
  std::vector<std::uint32_t> paths;   // projection
  std::vector<UpdateAction> actions;  // update, in order of appearance

  std::string_view token_text(std::uint32_t t) const {
    return text.substr(tokens[t].begin, tokens[t].end - tokens[t].begin);
  }
  const std::uint32_t* list(const Node& n) const { return lists.data() + n.list_begin; }
};

struct SyntaxError {
  std::string message;  // "Syntax error; token: \"x\", near: \"...\""
  // The service's parser checks parentheses as it completes each condition
  // or SET action, so a redundant pair inside a part already parsed is
  // reported instead of a syntax error further on.
  bool redundant_parentheses = false;
};

enum class Grammar : std::uint8_t { Condition, Update, Projection };

// Returns the tree, or fills `error`.
std::optional<Tree> parse(std::string_view text, Grammar grammar, SyntaxError& error);

}  // namespace dynamod::expr::syntax
