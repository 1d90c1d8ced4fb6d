#include "protocol/expr/lexer.h"

#include <array>
#include <cctype>

namespace dynamod::expr {
namespace {

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_id_char(char c) { return is_letter(c) || is_digit(c) || c == '_'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  }
  return true;
}

TokenKind keyword_or_id(std::string_view word) {
  struct Keyword {
    std::string_view text;
    TokenKind kind;
  };
  static constexpr std::array<Keyword, 9> kKeywords{{{"in", TokenKind::In},
                                                     {"between", TokenKind::Between},
                                                     {"not", TokenKind::Not},
                                                     {"and", TokenKind::And},
                                                     {"or", TokenKind::Or},
                                                     {"set", TokenKind::Set},
                                                     {"add", TokenKind::Add},
                                                     {"delete", TokenKind::Delete},
                                                     {"remove", TokenKind::Remove}}};
  if (word.size() < 2 || word.size() > 7) return TokenKind::Id;
  for (const auto& k : kKeywords) {
    if (iequals(word, k.text)) return k.kind;
  }
  return TokenKind::Id;
}

// Length of the UTF-8 sequence starting with `lead` (1 for stray bytes).
std::size_t utf8_length(unsigned char lead) {
  if (lead >= 0xF0 && lead < 0xF8) return 4;
  if (lead >= 0xE0) return lead < 0xF0 ? 3 : 1;
  if (lead >= 0xC0) return 2;
  return 1;
}

}  // namespace

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> out;
  out.reserve(text.size() / 3 + 2);
  const std::size_t n = text.size();
  std::size_t i = 0;
  auto emit = [&](TokenKind kind, std::size_t begin, std::size_t end) {
    out.push_back(Token{kind, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end)});
  };
  while (i < n) {
    const char c = text[i];
    const std::size_t start = i;
    if (is_space(c)) {
      ++i;
      continue;
    }
    switch (c) {
      case ',':
        emit(TokenKind::Comma, i, i + 1);
        ++i;
        continue;
      case '(':
        emit(TokenKind::LParen, i, i + 1);
        ++i;
        continue;
      case ')':
        emit(TokenKind::RParen, i, i + 1);
        ++i;
        continue;
      case '.':
        emit(TokenKind::Dot, i, i + 1);
        ++i;
        continue;
      case '[':
        emit(TokenKind::LBracket, i, i + 1);
        ++i;
        continue;
      case ']':
        emit(TokenKind::RBracket, i, i + 1);
        ++i;
        continue;
      case '=':
        emit(TokenKind::Eq, i, i + 1);
        ++i;
        continue;
      case '+':
        emit(TokenKind::Plus, i, i + 1);
        ++i;
        continue;
      case '-':
        emit(TokenKind::Minus, i, i + 1);
        ++i;
        continue;
      case '<':
        if (i + 1 < n && text[i + 1] == '>') {
          emit(TokenKind::Ne, i, i + 2);
          i += 2;
        } else if (i + 1 < n && text[i + 1] == '=') {
          emit(TokenKind::Le, i, i + 2);
          i += 2;
        } else {
          emit(TokenKind::Lt, i, i + 1);
          ++i;
        }
        continue;
      case '>':
        if (i + 1 < n && text[i + 1] == '=') {
          emit(TokenKind::Ge, i, i + 2);
          i += 2;
        } else {
          emit(TokenKind::Gt, i, i + 1);
          ++i;
        }
        continue;
      default: break;
    }
    if (c == '#' || c == ':') {
      std::size_t j = i + 1;
      while (j < n && is_id_char(text[j])) ++j;
      if (j > i + 1) {
        emit(c == '#' ? TokenKind::NameRef : TokenKind::ValueRef, i, j);
        i = j;
      } else {
        emit(TokenKind::Unknown, i, i + 1);
        ++i;
      }
      continue;
    }
    if (is_digit(c)) {
      // A leading zero is an index on its own: "01" lexes as "0" "1".
      std::size_t j = i + 1;
      if (c != '0') {
        while (j < n && is_digit(text[j])) ++j;
      }
      emit(TokenKind::Index, i, j);
      i = j;
      continue;
    }
    if (is_letter(c)) {
      std::size_t j = i + 1;
      while (j < n && is_id_char(text[j])) ++j;
      emit(keyword_or_id(text.substr(i, j - i)), i, j);
      i = j;
      continue;
    }
    std::size_t len = utf8_length(static_cast<unsigned char>(c));
    if (start + len > n) len = n - start;
    emit(TokenKind::Unknown, start, start + len);
    i = start + len;
  }
  emit(TokenKind::Eof, n, n);
  return out;
}

bool is_single_token(std::string_view key, TokenKind kind) {
  auto tokens = tokenize(key);
  return tokens.size() == 2 && tokens[0].kind == kind;
}

}  // namespace dynamod::expr
