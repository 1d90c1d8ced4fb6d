#include "protocol/json_writer.h"

#include <charconv>
#include <cmath>

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
  if (std::floor(v) == v && std::string_view(buf, static_cast<std::size_t>(end - buf)).find_first_of(".e") ==
                                 std::string_view::npos) {
    out_ += ".0";
  }
}

void JsonWriter::base64(std::string_view bytes) {
  value_prefix();
  out_.push_back('"');
  base64_encode_append(out_, bytes);
  out_.push_back('"');
}

void JsonWriter::append_escaped(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t run_start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run_start, i - run_start);
    run_start = i + 1;
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
