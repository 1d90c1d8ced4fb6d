#include "protocol/partiql/lexer.h"

#include <cstdint>
#include <limits>

namespace dynamod::partiql {
namespace {

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
// Bytes of non-ASCII characters count as letters: names may be in any script.
bool is_identifier_start(char c) {
  auto u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || u >= 0x80;
}
bool is_identifier_part(char c) { return is_identifier_start(c) || is_digit(c); }

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    for (;;) {
      skip_blanks();
      Token t;
      t.begin = static_cast<std::uint32_t>(at_);
      t.pos.line = line_;
      t.pos.column = column_;
      if (at_ >= text_.size()) {
        tokens.push_back(std::move(t));
        return tokens;
      }
      read_token(t);
      t.end = static_cast<std::uint32_t>(at_);
      t.pos.length = characters(t.begin, t.end);
      tokens.push_back(std::move(t));
    }
  }

 private:
  // The service's lexer errors say nothing after the envelope.
  [[noreturn]] static void fail() { throw not_well_formed(""); }

  char peek(std::size_t ahead = 0) const { return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0'; }

  void advance(std::size_t n = 1) {
    for (std::size_t i = 0; i < n && at_ < text_.size(); ++i, ++at_) {
      const char c = text_[at_];
      if (c == '\n') {
        ++line_;
        column_ = 1;
      } else if (!is_continuation(static_cast<unsigned char>(c))) {
        ++column_;
      }
    }
  }

  std::uint32_t characters(std::size_t begin, std::size_t end) const {
    std::uint32_t n = 0;
    for (std::size_t i = begin; i < end; ++i) {
      if (!is_continuation(static_cast<unsigned char>(text_[i]))) ++n;
    }
    return n;
  }

  void skip_blanks() {
    for (;;) {
      const char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '-' && peek(1) == '-') {
        while (at_ < text_.size() && peek() != '\n') advance();
      } else if (c == '/' && peek(1) == '*') {
        advance(2);
        while (!(peek() == '*' && peek(1) == '/')) {
          if (at_ >= text_.size()) fail();
          advance();
        }
        advance(2);
      } else {
        return;
      }
    }
  }

  // 'text' or "name": the quote is doubled to escape it.
  std::string quoted(char quote) {
    std::string value;
    advance();
    for (;;) {
      if (at_ >= text_.size()) fail();
      const char c = peek();
      if (c == quote) {
        if (peek(1) != quote) break;
        advance();
      }
      value.push_back(c);
      advance();
    }
    advance();
    return value;
  }

  void number(Token& t) {
    const std::size_t start = at_;
    std::int64_t fraction_digits = 0;
    while (is_digit(peek())) advance();
    if (peek() == '.') {
      advance();
      while (is_digit(peek())) {
        advance();
        ++fraction_digits;
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      advance();
      bool negative = false;
      if (peek() == '+' || peek() == '-') {
        negative = peek() == '-';
        advance();
      }
      if (!is_digit(peek())) fail();
      // The service keeps numbers as Java BigDecimals: the exponent and the
      // resulting scale must both fit an int.
      std::int64_t exponent = 0;
      while (is_digit(peek())) {
        if (exponent <= std::numeric_limits<std::int32_t>::max()) exponent = exponent * 10 + (peek() - '0');
        advance();
      }
      if (negative) exponent = -exponent;
      if (exponent > std::numeric_limits<std::int32_t>::max() || exponent < std::numeric_limits<std::int32_t>::min()) {
        fail();
      }
      const std::int64_t scale = fraction_digits - exponent;
      if (scale > std::numeric_limits<std::int32_t>::max() || scale < std::numeric_limits<std::int32_t>::min()) fail();
    }
    if (is_identifier_part(peek())) fail();  // 1abc, 1e5x
    t.kind = TokenKind::Number;
    t.value = std::string(text_.substr(start, at_ - start));
  }

  void punctuation(Token& t, TokenKind kind, std::size_t length) {
    t.kind = kind;
    advance(length);
  }

  void read_token(Token& t) {
    const char c = peek();
    if (is_identifier_start(c)) {
      const std::size_t start = at_;
      while (is_identifier_part(peek())) advance();
      t.kind = TokenKind::Identifier;
      t.value = std::string(text_.substr(start, at_ - start));
      return;
    }
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number(t);
    switch (c) {
      case '\'':
        t.kind = TokenKind::String;
        t.value = quoted('\'');
        return;
      case '"':
        t.kind = TokenKind::QuotedIdentifier;
        t.value = quoted('"');
        return;
      case '?': return punctuation(t, TokenKind::Parameter, 1);
      case '*': return punctuation(t, TokenKind::Star, 1);
      case ',': return punctuation(t, TokenKind::Comma, 1);
      case '.': return punctuation(t, TokenKind::Dot, 1);
      case ':': return punctuation(t, TokenKind::Colon, 1);
      case ';': return punctuation(t, TokenKind::Semicolon, 1);
      case '(': return punctuation(t, TokenKind::LeftParen, 1);
      case ')': return punctuation(t, TokenKind::RightParen, 1);
      case '[': return punctuation(t, TokenKind::LeftBracket, 1);
      case ']': return punctuation(t, TokenKind::RightBracket, 1);
      case '{': return punctuation(t, TokenKind::LeftBrace, 1);
      case '}': return punctuation(t, TokenKind::RightBrace, 1);
      case '+': return punctuation(t, TokenKind::Plus, 1);
      case '-': return punctuation(t, TokenKind::Minus, 1);
      case '/': return punctuation(t, TokenKind::Slash, 1);  // (`/*` starts a comment)
      case '%': return punctuation(t, TokenKind::Percent, 1);
      case '|':
        if (peek(1) == '|') return punctuation(t, TokenKind::Concat, 2);
        fail();
      case '=': return punctuation(t, TokenKind::Eq, 1);
      case '!':
        if (peek(1) == '=') return punctuation(t, TokenKind::Ne, 2);
        fail();
      case '<':
        if (peek(1) == '<') return punctuation(t, TokenKind::BagOpen, 2);
        if (peek(1) == '>') return punctuation(t, TokenKind::Ne, 2);
        if (peek(1) == '=') return punctuation(t, TokenKind::Le, 2);
        return punctuation(t, TokenKind::Lt, 1);
      case '>':
        if (peek(1) == '>') return punctuation(t, TokenKind::BagClose, 2);
        if (peek(1) == '=') return punctuation(t, TokenKind::Ge, 2);
        return punctuation(t, TokenKind::Gt, 1);
      default: fail();  // '#' is not a comment in PartiQL
    }
  }

  std::string_view text_;
  std::size_t at_ = 0;
  std::uint32_t line_ = 1;
  std::uint32_t column_ = 1;
};

}  // namespace

std::string Position::suffix() const {
  return " at " + std::to_string(line) + ":" + std::to_string(column) + ":" + std::to_string(length);
}

ApiError not_well_formed(std::string_view detail) {
  std::string message(kNotWellFormed);
  message += detail;
  return ApiError::validation(std::move(message));
}

std::vector<Token> tokenize(std::string_view statement) { return Lexer(statement).run(); }

}  // namespace dynamod::partiql
