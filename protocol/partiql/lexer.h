#pragma once
// PartiQL tokens as DynamoDB's dialect has them: bare and "quoted"
// identifiers, 'strings', numbers, ? parameters, << >> bags; -- and /* */
// comments are whitespace. Positions are what the service's messages report:
// line, column and length in characters, 1-based.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/api_error.h"

namespace dynamod::partiql {

struct Position {
  std::uint32_t line = 1;
  std::uint32_t column = 1;
  std::uint32_t length = 0;
  // " at 1:8:16", the suffix of the service's positioned messages.
  std::string suffix() const;
};

enum class TokenKind : std::uint8_t {
  Identifier,        // bare: a keyword or a name, as written
  QuotedIdentifier,  // "name", unescaped
  String,            // 'text', unescaped
  Number,            // as written
  Parameter,         // ?
  Star,
  Comma,
  Dot,
  Colon,
  Semicolon,
  LeftParen,
  RightParen,
  LeftBracket,
  RightBracket,
  LeftBrace,
  RightBrace,
  BagOpen,
  BagClose,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Plus,
  Minus,
  Slash,
  Percent,
  Concat,  // ||
  End,
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string value;  // identifier or number text, unescaped string or quoted identifier
  Position pos;
  std::uint32_t begin = 0;  // byte offsets into the statement
  std::uint32_t end = 0;
};

// "Statement wasn't well formed, can't be processed: " (two apostrophes, as the service spells it).
inline constexpr std::string_view kNotWellFormed = "Statement wasn't well formed, can't be processed: ";
ApiError not_well_formed(std::string_view detail);

// The statement's tokens, ending with End. A character the dialect does not
// know (`#` included), an unterminated quote or comment, or a number whose
// exponent does not fit the service's 32-bit scale is not well formed, with
// nothing after the colon (as the service answers).
std::vector<Token> tokenize(std::string_view statement);

}  // namespace dynamod::partiql
