#include "protocol/partiql/parser.h"

#include <algorithm>
#include <cctype>
#include <iterator>

#include "protocol/partiql/parser_internal.h"

namespace dynamod::partiql {
namespace detail {

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

namespace {

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

}  // namespace

bool is_reserved(std::string_view word) {
  return std::any_of(std::begin(kReserved), std::end(kReserved), [&](std::string_view r) { return iequals(r, word); });
}

Statement Parser::run() {
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

}  // namespace detail

Statement parse(std::string_view statement) { return detail::Parser(statement, tokenize(statement)).run(); }

}  // namespace dynamod::partiql
