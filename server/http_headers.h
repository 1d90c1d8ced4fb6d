#pragma once
// The headers of the service's answers and the request headers that decide how a request is
// read, as pure functions (no Beast): what `Service` sets on every answer and checks first.

#include <ctime>
#include <mutex>
#include <string>
#include <string_view>

namespace dynamod {

// The Server header's value on every answer: the service sends "Server".
inline constexpr std::string_view kServerHeader = "Server";

// `t` as an HTTP date (RFC 9110 IMF-fixdate): "Sun, 06 Nov 1994 08:49:37 GMT".
std::string http_date(std::time_t t);

// The Date of the current second for every answer, formatted once a second: formatting took
// 0.7 us a call on the shared 2-core machine, a cached copy a few tens of ns.
class DateHeader {
 public:
  std::string now();

 private:
  std::mutex mutex_;
  std::time_t second_ = -1;
  std::string text_;
};

// Whether a Content-Type names the JSON protocol: application/x-amz-json-1.0 or
// application/json (the media type; case-insensitive, parameters such as charset ignored).
// The service answers a POST whose body has any other type, or none, with a 404 as for
// an unknown path (dynalite's connection tests, recorded from DynamoDB).
bool is_json_protocol(std::string_view content_type);

}  // namespace dynamod
