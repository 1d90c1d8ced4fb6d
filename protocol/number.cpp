#include "protocol/number.h"

#include <algorithm>

namespace dynamod {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

Number::ParseResult Number::parse(std::string_view text) {
  ParseResult result;
  std::size_t i = 0;
  const std::size_t n = text.size();
  bool negative = false;
  if (i < n && (text[i] == '+' || text[i] == '-')) {
    negative = text[i] == '-';
    ++i;
  }
  // Mantissa digits (integer and fraction part), remembering where the point is.
  std::string digits;
  long point_shift = 0;  // number of digits before the decimal point
  bool seen_digit = false;
  bool seen_point = false;
  for (; i < n; ++i) {
    char c = text[i];
    if (is_digit(c)) {
      seen_digit = true;
      if (digits.empty() && c == '0') {
        // A leading zero: before the point it moves nothing, after it shifts left.
        if (seen_point) --point_shift;
        continue;
      }
      digits.push_back(c);
      if (!seen_point) ++point_shift;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!seen_digit) return result;
  long exponent_part = 0;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) {
      exp_negative = text[i] == '-';
      ++i;
    }
    if (i >= n) return result;
    for (; i < n; ++i) {
      if (!is_digit(text[i])) return result;
      exponent_part = exponent_part * 10 + (text[i] - '0');
      // Like Java's BigDecimal, an exponent beyond 32 bits is not a number at all.
      if (exponent_part > 2147483648L) return result;
    }
    if (exp_negative) exponent_part = -exponent_part;
    if (exponent_part > 2147483647L) return result;
  }
  if (i != n) return result;

  // Trailing zeros carry no value.
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  if (digits.empty()) {
    result.number = Number();
    return result;
  }
  if (digits.size() > static_cast<std::size_t>(kMaxDigits)) {
    result.error = ParseError::TooManyDigits;
    return result;
  }
  long exponent = point_shift + exponent_part;
  if (exponent > kMaxExponent) {
    result.error = ParseError::Overflow;
    return result;
  }
  if (exponent < kMinExponent) {
    result.error = ParseError::Underflow;
    return result;
  }
  result.number = Number(negative, static_cast<int>(exponent), std::move(digits));
  return result;
}

Number Number::from_canonical(std::string_view text) {
  auto parsed = parse(text);
  return parsed.number ? std::move(*parsed.number) : Number();
}

std::string Number::to_string() const {
  if (digits_.empty()) return "0";
  std::string out;
  const int n = static_cast<int>(digits_.size());
  out.reserve(static_cast<std::size_t>(std::max(n, exponent_) + std::max(0, -exponent_) + 3));
  if (negative_) out.push_back('-');
  if (exponent_ <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-exponent_), '0');
    out += digits_;
  } else if (exponent_ >= n) {
    out += digits_;
    out.append(static_cast<std::size_t>(exponent_ - n), '0');
  } else {
    out.append(digits_, 0, static_cast<std::size_t>(exponent_));
    out.push_back('.');
    out.append(digits_, static_cast<std::size_t>(exponent_));
  }
  return out;
}

std::strong_ordering operator<=>(const Number& a, const Number& b) {
  auto sign = [](const Number& x) { return x.is_zero() ? 0 : (x.negative_ ? -1 : 1); };
  int sa = sign(a);
  int sb = sign(b);
  if (sa != sb) return sa <=> sb;
  if (sa == 0) return std::strong_ordering::equal;
  // Same sign: compare magnitudes, then flip for negatives.
  std::strong_ordering magnitude = a.exponent_ <=> b.exponent_;
  if (magnitude == std::strong_ordering::equal) magnitude = a.digits_.compare(b.digits_) <=> 0;
  if (sa > 0) return magnitude;
  return 0 <=> magnitude;
}

}  // namespace dynamod
