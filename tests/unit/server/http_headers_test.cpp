// The answer headers (Date, Server) and the Content-Type check of the JSON protocol.
#include <doctest/doctest.h>

#include "server/http_headers.h"

using namespace dynamod;

TEST_CASE("http_date is RFC 9110's IMF-fixdate in GMT") {
  CHECK(http_date(0) == "Thu, 01 Jan 1970 00:00:00 GMT");
  CHECK(http_date(784111777) == "Sun, 06 Nov 1994 08:49:37 GMT");  // RFC 9110's own example
  CHECK(http_date(1738997580) == "Sat, 08 Feb 2025 06:53:00 GMT");
  CHECK(http_date(1798761599) == "Thu, 31 Dec 2026 23:59:59 GMT");
}

TEST_CASE("is_json_protocol takes the two JSON media types, any case, with parameters") {
  CHECK(is_json_protocol("application/x-amz-json-1.0"));
  CHECK(is_json_protocol("application/json"));
  CHECK(is_json_protocol("Application/X-Amz-Json-1.0"));
  CHECK(is_json_protocol("application/x-amz-json-1.0; charset=utf-8"));
  CHECK(is_json_protocol(" application/json ;charset=UTF-8"));
  CHECK_FALSE(is_json_protocol(""));
  CHECK_FALSE(is_json_protocol("text/plain"));
  CHECK_FALSE(is_json_protocol("application/x-www-form-urlencoded"));
  CHECK_FALSE(is_json_protocol("application/x-amz-json-1.1"));
  CHECK_FALSE(is_json_protocol("application/x-amz-cbor-1.1"));
  CHECK_FALSE(is_json_protocol("application/jsonx"));
  CHECK_FALSE(is_json_protocol("whatever"));
}

TEST_CASE("DateHeader gives the current second's date") {
  DateHeader date;
  const std::time_t before = std::time(nullptr);
  const std::string first = date.now();
  const std::string second = date.now();
  const std::time_t after = std::time(nullptr);
  CHECK((first == http_date(before) || first == http_date(after)));
  CHECK((second == first || second == http_date(after)));
}
