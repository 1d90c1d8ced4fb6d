#include <doctest/doctest.h>

#include <cstdio>
#include <map>
#include <random>
#include <string>

#include "protocol/json_writer.h"

namespace dynamod {
namespace {

// The escaping rules written the plain way, one byte at a time: RFC 8259's
// two-character escapes where it has one, \u00XX for other control characters.
std::string reference_escape(std::string_view s) {
  const std::map<unsigned char, std::string_view> short_forms = {
      {'"', "\\\""}, {'\\', "\\\\"}, {'\n', "\\n"}, {'\r', "\\r"}, {'\t', "\\t"}, {'\b', "\\b"}, {'\f', "\\f"}};
  std::string out;
  for (unsigned char c : s) {
    if (auto it = short_forms.find(c); it != short_forms.end()) {
      out += it->second;
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

std::string escaped(std::string_view s) {
  std::string out;
  JsonWriter::append_escaped(out, s);
  return out;
}

}  // namespace

TEST_CASE("JSON string escaping") {
  CHECK(escaped("") == "");
  CHECK(escaped("plain text of more than eight bytes") == "plain text of more than eight bytes");
  CHECK(escaped("a\"b\\c") == "a\\\"b\\\\c");
  CHECK(escaped("line\nfeed\ttab\x01\x1f end") == "line\\nfeed\\ttab\\u0001\\u001f end");
  CHECK(escaped(std::string("nul\0byte in a long string", 25)) == "nul\\u0000byte in a long string");
  // UTF-8 (bytes of 0x80 and above) and DEL pass through.
  CHECK(escaped("caf\xc3\xa9 \xe2\x82\xac 1\x7f") == "caf\xc3\xa9 \xe2\x82\xac 1\x7f");
  // Bytes just around the special ones, at every position of an 8-byte word.
  for (std::size_t at = 0; at < 20; ++at) {
    for (unsigned char c : {0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x00, 0x80, 0xff}) {
      std::string s(20, 'x');
      s[at] = static_cast<char>(c);
      CHECK(escaped(s) == reference_escape(s));
    }
  }
}

TEST_CASE("JSON string escaping matches the byte-by-byte rules on random strings") {
  std::mt19937_64 rng(7);
  // Mostly ordinary text with the occasional byte that needs escaping, and any byte at all.
  const std::string alphabet = "abcXYZ 019{}:,\"\\\n\t\x01\x1f\x7f\x80\xc3\xa9\xff";
  for (int round = 0; round < 5000; ++round) {
    std::string s(rng() % 40, ' ');
    for (char& c : s) {
      c = rng() % 4 == 0 ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()];
    }
    REQUIRE(escaped(s) == reference_escape(s));
  }
}

}  // namespace dynamod
