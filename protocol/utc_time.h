#pragma once
// UTC times as the service prints them inside texts (stream labels, error
// messages); the JSON members are epoch seconds instead.

#include <cstdint>
#include <string>

namespace dynamod {

// "2026-12-01T13:20:05.123": ISO 8601 with milliseconds, no zone letter.
std::string iso8601_millis(std::int64_t epoch_ms);

}  // namespace dynamod
