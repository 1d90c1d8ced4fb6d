#include "server/http_headers.h"

#include <array>
#include <cctype>
#include <cstdio>

namespace dynamod {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string http_date(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::array<char, 32> out{};
  // strftime's %a and %b follow the locale; the date's names are fixed English ones.
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  int n = std::snprintf(out.data(), out.size(), "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[tm.tm_wday], tm.tm_mday,
                        kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return std::string(out.data(), n > 0 ? static_cast<std::size_t>(n) : 0);
}

std::string DateHeader::now() {
  const std::time_t t = std::time(nullptr);
  std::lock_guard lock(mutex_);
  if (t != second_) {
    text_ = http_date(t);
    second_ = t;
  }
  return text_;
}

bool is_json_protocol(std::string_view content_type) {
  std::string_view media = trim(content_type.substr(0, content_type.find(';')));
  return iequals(media, "application/x-amz-json-1.0") || iequals(media, "application/json");
}

}  // namespace dynamod
