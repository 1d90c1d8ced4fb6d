#include "server/cors.h"

#include <algorithm>

namespace dynamod {

bool is_cors_preflight(const HttpRequest& request) {
  return request.method() == http::verb::options && request.find(http::field::origin) != request.end();
}

CorsPolicy::CorsPolicy(const std::string& origins) {
  std::size_t start = 0;
  while (start <= origins.size()) {
    std::size_t comma = origins.find(',', start);
    std::string item = origins.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto first = item.find_first_not_of(" \t");
    const auto last = item.find_last_not_of(" \t");
    item = first == std::string::npos ? std::string() : item.substr(first, last - first + 1);
    if (!item.empty()) origins_.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  any_ = origins_.empty() || std::find(origins_.begin(), origins_.end(), "*") != origins_.end();
}

std::string CorsPolicy::allow_origin(std::string_view origin) const {
  if (any_) return "*";
  if (std::find(origins_.begin(), origins_.end(), origin) != origins_.end()) return std::string(origin);
  return {};
}

void add_cors_headers(const CorsPolicy& policy, const HttpRequest& request, HttpResponse& response) {
  auto origin = request.find(http::field::origin);
  if (origin == request.end()) return;
  std::string allowed = policy.allow_origin(origin->value());
  if (allowed.empty()) return;  // the browser then refuses the answer to its script
  if (allowed != "*") response.set(http::field::vary, "Origin");
  response.set(http::field::access_control_allow_origin, allowed);
  // The headers a browser script may read: the ones SDKs look at.
  response.set(http::field::access_control_expose_headers,
               "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,x-amz-crc32,Date");
  if (!is_cors_preflight(request)) return;
  // Echoed verbatim: every method and header the browser asks for is allowed.
  if (auto method = request.find(http::field::access_control_request_method); method != request.end()) {
    response.set(http::field::access_control_allow_methods, method->value());
  }
  if (auto headers = request.find(http::field::access_control_request_headers); headers != request.end()) {
    response.set(http::field::access_control_allow_headers, headers->value());
  }
  response.set(http::field::access_control_max_age, "172800");  // two days, as the service sent
}

}  // namespace dynamod
