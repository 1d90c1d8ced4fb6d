#pragma once
// Lengths of UTF-8 text as DynamoDB's length constraints count them.

#include <cstddef>
#include <string_view>

namespace dynamod {

// Unicode code points in valid UTF-8: every byte that is not a continuation byte.
inline std::size_t code_points(std::string_view utf8) {
  std::size_t n = 0;
  for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace dynamod
