#include "protocol/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "protocol/base64.h"

namespace dynamod {

void JsonWriter::key(std::string_view name) {
  value_prefix();
  append_quoted(name);
  out_.push_back(':');
  after_key_ = true;
}

void JsonWriter::integer(std::int64_t v) {
  value_prefix();
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, end);
}

void JsonWriter::unsigned_integer(std::uint64_t v) {
  value_prefix();
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, end);
}

void JsonWriter::real(double v) {
  value_prefix();
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, end);
  // Integral values keep a ".0" so that clients see a floating-point number.
  if (std::floor(v) == v &&
      std::string_view(buf, static_cast<std::size_t>(end - buf)).find_first_of(".e") == std::string_view::npos) {
    out_ += ".0";
  }
}

void JsonWriter::base64(std::string_view bytes) {
  value_prefix();
  out_.push_back('"');
  base64_encode_append(out_, bytes);
  out_.push_back('"');
}

namespace {

// True when one of the eight bytes of `w` must be escaped in a JSON string: a
// control character (< 0x20), '"' or '\\'. Bit tricks on a whole word, since
// item text is long and almost never needs escaping; a borrow can only flag a
// byte above one that really matches, and the caller then looks byte by byte.
bool needs_escape(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull;
  constexpr std::uint64_t kHighs = 0x8080808080808080ull;
  auto has_zero_byte = [](std::uint64_t v) { return (v - kOnes) & ~v & kHighs; };
  return (((w - 0x20 * kOnes) & ~w & kHighs) | has_zero_byte(w ^ (0x22 * kOnes)) | has_zero_byte(w ^ (0x5C * kOnes))) !=
         0;
}

bool needs_escape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

}  // namespace

void JsonWriter::append_escaped(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t run_start = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 8 <= s.size()) {
      std::uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      if (!needs_escape(w)) {
        i += 8;
        continue;
      }
    }
    const unsigned char c = static_cast<unsigned char>(s[i++]);
    if (!needs_escape(c)) continue;
    out.append(s.data() + run_start, i - 1 - run_start);
    run_start = i;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        out += "\\u00";
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
    }
  }
  out.append(s.data() + run_start, s.size() - run_start);
}

}  // namespace dynamod
