#include "protocol/expr/number_arithmetic.h"

#include <algorithm>
#include <string>

#include "protocol/api_error.h"

namespace dynamod::expr {
namespace {

// value = digits (an integer) x 10^scale
struct Scaled {
  bool negative;
  std::string digits;  // most significant first, no sign
  int scale;
};

Scaled to_scaled(const Number& n) {
  const int len = static_cast<int>(n.digits().size());
  return Scaled{n.negative(), n.digits(), n.exponent() - len};
}

// |a| >= |b| for digit strings of equal length.
bool magnitude_less(const std::string& a, const std::string& b) { return a < b; }

std::string add_magnitudes(const std::string& a, const std::string& b) {
  std::string out(a.size() + 1, '0');
  int carry = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::size_t k = a.size() - 1 - i;
    int d = (a[k] - '0') + (b[k] - '0') + carry;
    carry = d / 10;
    out[out.size() - 1 - i] = static_cast<char>('0' + d % 10);
  }
  out[0] = static_cast<char>('0' + carry);
  return out;
}

// a - b with |a| >= |b|, equal lengths.
std::string subtract_magnitudes(const std::string& a, const std::string& b) {
  std::string out(a.size(), '0');
  int borrow = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::size_t k = a.size() - 1 - i;
    int d = (a[k] - '0') - (b[k] - '0') - borrow;
    borrow = d < 0 ? 1 : 0;
    if (d < 0) d += 10;
    out[k] = static_cast<char>('0' + d);
  }
  return out;
}

Number combine(const Number& x, const Number& y, bool subtract) {
  if (y.is_zero()) return x;
  Scaled a = to_scaled(x);
  Scaled b = to_scaled(y);
  if (subtract) b.negative = !b.negative;
  if (x.is_zero()) {
    a = Scaled{b.negative, "0", b.scale};
  }
  // Align both to the smaller scale, then pad to equal length.
  const int scale = std::min(a.scale, b.scale);
  a.digits.append(static_cast<std::size_t>(a.scale - scale), '0');
  b.digits.append(static_cast<std::size_t>(b.scale - scale), '0');
  const std::size_t width = std::max(a.digits.size(), b.digits.size());
  a.digits.insert(0, width - a.digits.size(), '0');
  b.digits.insert(0, width - b.digits.size(), '0');

  bool negative;
  std::string digits;
  if (a.negative == b.negative) {
    negative = a.negative;
    digits = add_magnitudes(a.digits, b.digits);
  } else if (magnitude_less(a.digits, b.digits)) {
    negative = b.negative;
    digits = subtract_magnitudes(b.digits, a.digits);
  } else {
    negative = a.negative;
    digits = subtract_magnitudes(a.digits, b.digits);
  }
  std::string text;
  text.reserve(digits.size() + 16);
  if (negative) text.push_back('-');
  text += digits;
  text += 'E';
  text += std::to_string(scale);
  auto parsed = Number::parse(text);
  if (parsed.number) return std::move(*parsed.number);
  if (parsed.error == Number::ParseError::Underflow) {
    throw ApiError::validation(
        "Number underflow. Attempting to store a number with magnitude smaller than supported range");
  }
  // More than 38 significant digits or too large: the service says overflow
  // for both (test_update_expression_plus_imprecise in ScyllaDB's suite).
  throw ApiError::validation(
      "Number overflow. Attempting to store a number with magnitude larger than supported range");
}

}  // namespace

Number add_numbers(const Number& a, const Number& b) { return combine(a, b, false); }
Number subtract_numbers(const Number& a, const Number& b) { return combine(a, b, true); }

}  // namespace dynamod::expr
