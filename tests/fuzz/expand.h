#pragma once
// The fuzz targets' input format: bytes as they are, except that a run marker
// (0x01, then a count byte C, a length byte L and L bytes) stands for those L
// bytes repeated 2^(C % 21) times. A few bytes of input so reach the shapes
// that break parsers, a million '[' or '{"L":[', or a million members, which
// libFuzzer's byte mutations alone would never grow to under -max_len. The
// dictionaries hold such markers, so mutations splice them in anywhere.
// The expansion stops at 16 MB, the server's largest body.

#include <cstddef>
#include <cstdint>
#include <string>

namespace dynamod::fuzz {

inline constexpr std::uint8_t kRunMarker = 0x01;
inline constexpr std::size_t kMaxExpanded = 16 * 1024 * 1024;

inline std::string expand(const std::uint8_t* data, std::size_t size) {
  std::string out;
  std::size_t i = 0;
  while (i < size && out.size() < kMaxExpanded) {
    if (data[i] != kRunMarker || i + 2 >= size) {
      out.push_back(static_cast<char>(data[i++]));
      continue;
    }
    const std::size_t times = std::size_t{1} << (data[i + 1] % 21);
    const std::size_t length = data[i + 2];
    const std::size_t start = i + 3;
    const std::size_t available = size - start < length ? size - start : length;
    for (std::size_t n = 0; n < times && out.size() < kMaxExpanded; ++n) {
      out.append(reinterpret_cast<const char*>(data + start), available);
    }
    i = start + available;
  }
  if (out.size() > kMaxExpanded) out.resize(kMaxExpanded);
  return out;
}

}  // namespace dynamod::fuzz
