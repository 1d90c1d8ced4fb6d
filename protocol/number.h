#pragma once
// Number: DynamoDB's exact decimal (up to 38 significant digits, magnitude
// 1E-130 to 9.99...E+125). Parsed once at the protocol boundary and normalised,
// so 1000, 1e3 and 1000.0 are the same value, the same text and the same key.

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dynamod {

class Number {
 public:
  static constexpr int kMaxDigits = 38;
  // value = 0.d1d2d3... x 10^exponent, so 1E-130 has exponent -129 and
  // 9.99...E+125 has exponent 126.
  static constexpr int kMinExponent = -129;
  static constexpr int kMaxExponent = 126;

  enum class ParseError : std::uint8_t { NotANumber, TooManyDigits, Overflow, Underflow };

  struct ParseResult;
  // Parses Java BigDecimal syntax ("-1.5e3", ".5", "5."), as the service does.
  static ParseResult parse(std::string_view text);
  // Parses text known to be canonical (written by to_string()); no checks.
  static Number from_canonical(std::string_view text);

  Number() = default;  // zero

  bool is_zero() const { return digits_.empty(); }
  bool negative() const { return negative_; }
  int exponent() const { return exponent_; }
  // Significant digits as ASCII, no leading or trailing zeros; empty for zero.
  const std::string& digits() const { return digits_; }

  // Plain decimal text without exponent, the form DynamoDB returns.
  std::string to_string() const;

  friend bool operator==(const Number&, const Number&) = default;
  friend std::strong_ordering operator<=>(const Number& a, const Number& b);

 private:
  Number(bool negative, int exponent, std::string digits)
      : negative_(negative), exponent_(exponent), digits_(std::move(digits)) {}

  bool negative_ = false;
  int exponent_ = 0;
  std::string digits_;
};

struct Number::ParseResult {
  std::optional<Number> number;
  ParseError error = ParseError::NotANumber;
};

}  // namespace dynamod
