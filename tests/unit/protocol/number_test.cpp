// Numbers are parsed once, normalised (so equal values have one text and one
// key), and ordered numerically; these are the foundation of keys and metering.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <cmath>
#include <random>

#include "protocol/number.h"
#include "storage/key_codec.h"
#include "test_data.h"

using dynamod::AttributeValue;
using dynamod::Number;

namespace {

Number parse(std::string_view text) {
  auto r = Number::parse(text);
  REQUIRE_MESSAGE(r.number.has_value(), text);
  return *r.number;
}

std::string sortable(const Number& n) {
  std::string out;
  dynamod::keys::append_sortable(out, AttributeValue::number(n));
  return out;
}

}  // namespace

TEST_CASE("number: normalised text matches what DynamoDB returns") {
  // Every case DynamoDB Local answered for a PutItem/GetItem round trip.
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.load(dynamod::test::data_path("dynamodb-local/number_format.json"));
  int checked = 0;
  for (simdjson::dom::element c : root["cases"].get_array()) {
    std::string_view in = c["in"];
    std::string_view out;
    if (c["out"].get(out) != simdjson::SUCCESS) continue;
    // Non-ASCII digits are a DynamoDB Local quirk (Java's Character.isDigit), not the service's.
    if (static_cast<unsigned char>(in.front()) >= 0x80) continue;
    auto r = Number::parse(in);
    REQUIRE_MESSAGE(r.number.has_value(), in);
    CHECK_MESSAGE(r.number->to_string() == out, in);
    ++checked;
  }
  CHECK(checked > 50);
}

TEST_CASE("number: invalid input is classified as the service does") {
  using E = Number::ParseError;
  struct Case {
    const char* text;
    E error;
  };
  for (Case c : {Case{"", E::NotANumber},
                 {"abc", E::NotANumber},
                 {"NaN", E::NotANumber},
                 {"Infinity", E::NotANumber},
                 {"1e", E::NotANumber},
                 {"1e+", E::NotANumber},
                 {"e5", E::NotANumber},
                 {" 1", E::NotANumber},
                 {"1 ", E::NotANumber},
                 {"0x10", E::NotANumber},
                 {"1.2.3", E::NotANumber},
                 {"--1", E::NotANumber},
                 {"1e2147483648", E::NotANumber},
                 {".", E::NotANumber},
                 {"1234567890123456789012345678901234567890", E::TooManyDigits},
                 {"-1.23456789012345678901234567890123456789", E::TooManyDigits},
                 {"1e126", E::Overflow},
                 {"-10E+125", E::Overflow},
                 {"1.5e300", E::Overflow},
                 {"1e-131", E::Underflow},
                 {"0.9E-130", E::Underflow}}) {
    auto r = Number::parse(c.text);
    CHECK_MESSAGE(!r.number.has_value(), c.text);
    CHECK_MESSAGE(r.error == c.error, c.text);
  }
  // The limits themselves are fine, as are zeros with any exponent and trailing zeros.
  for (const char* ok :
       {"9.9999999999999999999999999999999999999E+125", "1E-130", "0e1000", "-0E-1000",
        "12345678901234567890123456789012345678.0000", "1000000000000000000000000000000000000000000"}) {
    CHECK_MESSAGE(Number::parse(ok).number.has_value(), ok);
  }
}

TEST_CASE("number: equal values are one value, one text and one key") {
  for (auto [a, b] :
       {std::pair{"1000", "1e3"}, {"1.5", "1.50"}, {"0", "-0.000"}, {"-12", "-1.2E1"}, {"0.001", "1e-3"}}) {
    Number x = parse(a);
    Number y = parse(b);
    CHECK(x == y);
    CHECK(x.to_string() == y.to_string());
    CHECK(sortable(x) == sortable(y));
  }
}

TEST_CASE("number: key byte order equals numeric order (random pairs)") {
  std::mt19937_64 rng(20261130);
  auto random_number = [&] {
    std::uniform_int_distribution<int> digits_count(1, 38);
    std::uniform_int_distribution<int> digit(0, 9);
    std::uniform_int_distribution<int> exponent(-125, 120);
    std::uniform_int_distribution<int> coin(0, 3);
    std::string text;
    if (coin(rng) == 0) text += '-';
    int n = digits_count(rng);
    // Often share prefixes, to exercise "0.12 < 0.123" style comparisons.
    for (int i = 0; i < n; ++i) text += static_cast<char>('0' + (coin(rng) == 0 ? 1 : digit(rng)));
    text += 'e' + std::to_string(coin(rng) == 0 ? 0 : exponent(rng));
    auto r = Number::parse(text);
    return r.number ? *r.number : Number();
  };
  for (int i = 0; i < 20000; ++i) {
    Number a = random_number();
    Number b = random_number();
    auto by_value = a <=> b;
    auto by_key = sortable(a).compare(sortable(b)) <=> 0;
    REQUIRE_MESSAGE(by_value == by_key, a.to_string() << " vs " << b.to_string());
    // And the value order agrees with long double arithmetic where that is exact enough.
    long double da = std::stold(a.to_string());
    long double db = std::stold(b.to_string());
    if (fabsl(da - db) > 1e-3L * fmaxl(fabsl(da), fabsl(db))) CHECK((by_value < 0) == (da < db));
  }
}

TEST_CASE("number: ordering of edge values") {
  std::vector<const char*> ascending = {"-9.9999999999999999999999999999999999999E+125",
                                        "-1e100",
                                        "-10",
                                        "-2",
                                        "-1.5",
                                        "-1",
                                        "-0.1",
                                        "-1e-130",
                                        "0",
                                        "1e-130",
                                        "0.1",
                                        "0.12",
                                        "0.123",
                                        "1",
                                        "1.5",
                                        "2",
                                        "10",
                                        "100",
                                        "1e100",
                                        "9.9999999999999999999999999999999999999E+125"};
  for (std::size_t i = 1; i < ascending.size(); ++i) {
    CHECK_MESSAGE(parse(ascending[i - 1]) < parse(ascending[i]), ascending[i - 1] << " < " << ascending[i]);
    CHECK_MESSAGE(sortable(parse(ascending[i - 1])) < sortable(parse(ascending[i])), ascending[i]);
  }
}
