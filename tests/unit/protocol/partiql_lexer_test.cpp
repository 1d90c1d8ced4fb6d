// The PartiQL lexer: the dialect's tokens, comments as whitespace, the
// positions the service's messages report (line:column:length in
// characters), and the inputs it refuses with an empty detail after the
// "not well formed" envelope (see /work/notes/errors-partiql-tags-misc.md).
#include <doctest/doctest.h>

#include "protocol/partiql/lexer.h"

namespace dynamod::partiql {
namespace {

std::vector<TokenKind> kinds(std::string_view text) {
  std::vector<TokenKind> out;
  for (const auto& t : tokenize(text)) out.push_back(t.kind);
  return out;
}

// The message of the ApiError tokenize throws, or "" if it does not throw.
std::string lex_error(std::string_view text) {
  try {
    tokenize(text);
  } catch (const ApiError& e) {
    return e.message();
  }
  return "";
}

}  // namespace

TEST_CASE("partiql lexer: names, quoted names, strings and operators") {
  auto tokens = tokenize(R"(SELECT * FROM "my""t" WHERE a <> 'it''s' AND b != ? AND c <= 1 OR s = <<'x'>>)");
  using K = TokenKind;
  CHECK(kinds(R"(SELECT * FROM "my""t" WHERE a <> 'it''s')") ==
        std::vector<K>{K::Identifier, K::Star, K::Identifier, K::QuotedIdentifier, K::Identifier, K::Identifier, K::Ne,
                       K::String, K::End});
  CHECK(tokens[3].value == "my\"t");
  CHECK(tokens[7].value == "it's");
  CHECK(tokens[10].kind == K::Ne);
  CHECK(tokens[11].kind == K::Parameter);
  CHECK(kinds("<< >> < <= > >= = + - [ ] { } : ; . ,") ==
        std::vector<K>{K::BagOpen, K::BagClose, K::Lt, K::Le, K::Gt, K::Ge, K::Eq, K::Plus, K::Minus, K::LeftBracket,
                       K::RightBracket, K::LeftBrace, K::RightBrace, K::Colon, K::Semicolon, K::Dot, K::Comma, K::End});
}

TEST_CASE("partiql lexer: numbers as written") {
  for (const char* n : {"1", "1.50", "7.31e6", "7.31E+6", ".73e1", "731e-4", "5."}) {
    CAPTURE(n);
    auto tokens = tokenize(n);
    REQUIRE(tokens.size() == 2);
    CHECK(tokens[0].kind == TokenKind::Number);
    CHECK(tokens[0].value == n);
  }
  // A sign is its own token; the parser folds it into a literal.
  CHECK(kinds("-7") == std::vector<TokenKind>{TokenKind::Minus, TokenKind::Number, TokenKind::End});
  // "1 e5" is two tokens (the parser then finds one left over).
  CHECK(kinds("1 e5") == std::vector<TokenKind>{TokenKind::Number, TokenKind::Identifier, TokenKind::End});
}

TEST_CASE("partiql lexer: comments are whitespace") {
  CHECK(kinds("-- note\nSELECT /* a\nb */ x -- end") ==
        std::vector<TokenKind>{TokenKind::Identifier, TokenKind::Identifier, TokenKind::End});
}

TEST_CASE("partiql lexer: positions are line, column and length in characters") {
  auto tokens = tokenize("SELECT attribute_exists(ss)\n  FROM 'é' x");
  CHECK(tokens[1].pos.line == 1);
  CHECK(tokens[1].pos.column == 8);
  CHECK(tokens[1].pos.length == 16);
  CHECK(tokens[1].pos.suffix() == " at 1:8:16");
  const Token& from = tokens[5];
  CHECK(from.value == "FROM");
  CHECK(from.pos.line == 2);
  CHECK(from.pos.column == 3);
  // 'é' is three characters, whatever its bytes.
  CHECK(tokens[6].pos.length == 3);
  CHECK(tokens[7].pos.column == 12);
}

TEST_CASE("partiql lexer: refused input says nothing after the envelope") {
  const std::string envelope(kNotWellFormed);
  for (const char* text : {"a # comment", "a /* open", "'open", "\"open", "1e2147483648", "1e99999999999",
                           "1.5e-2147483647", "1e", "1abc", "a ! b", "a | b"}) {
    CAPTURE(text);
    CHECK(lex_error(text) == envelope);
  }
  // PartiQL's operators tokenize (DynamoDB refuses them later, by name).
  for (const char* text : {"a % b", "a / b", "a || b", "a*b"}) {
    CAPTURE(text);
    CHECK(lex_error(text) == "");
  }
  const std::vector<Token> concat = tokenize("a || b");
  CHECK(concat[1].kind == TokenKind::Concat);
  CHECK(concat[1].pos.column == 3);
  CHECK(concat[1].pos.length == 2);
  // Exponents inside Java's int range are the number parser's business.
  CHECK(lex_error("1e2147483647") == "");
}

}  // namespace dynamod::partiql
