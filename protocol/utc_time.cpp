#include "protocol/utc_time.h"

#include <cstdio>
#include <ctime>

namespace dynamod {

std::string iso8601_millis(std::int64_t epoch_ms) {
  std::time_t seconds = static_cast<std::time_t>(epoch_ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[40];
  std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof buf - n, ".%03d", static_cast<int>(epoch_ms % 1000));
  return buf;
}

}  // namespace dynamod
