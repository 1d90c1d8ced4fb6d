#pragma once
// Tokens of DynamoDB's expression language. Keywords are case-insensitive;
// everything the grammar does not know becomes a one-character Unknown token,
// so that syntax errors can name it as the service does.

#include <cstdint>
#include <string_view>
#include <vector>

namespace dynamod::expr {

enum class TokenKind : std::uint8_t {
  Comma,
  LParen,
  RParen,
  Dot,
  LBracket,
  RBracket,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Plus,
  Minus,
  In,
  Between,
  Not,
  And,
  Or,
  Set,
  Add,
  Delete,
  Remove,
  Index,     // 0 | [1-9][0-9]*
  Id,        // [A-Za-z][A-Za-z0-9_]*
  NameRef,   // #[A-Za-z0-9_]+
  ValueRef,  // :[A-Za-z0-9_]+
  Unknown,   // any other single character (UTF-8 sequence)
  Eof,
};

struct Token {
  TokenKind kind;
  std::uint32_t begin;  // byte offsets into the expression text
  std::uint32_t end;
};

// Always ends with one Eof token (begin == end == text.size()).
std::vector<Token> tokenize(std::string_view text);

// True if `key` is one NameRef (or ValueRef) token, possibly surrounded by
// whitespace: the service's rule for ExpressionAttributeNames/Values keys.
bool is_single_token(std::string_view key, TokenKind kind);

}  // namespace dynamod::expr
