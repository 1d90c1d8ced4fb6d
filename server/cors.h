#pragma once
// CORS, as the service answers browsers: any origin is allowed (or, with
// --cors-origins, the ones listed: their own origin is echoed). A preflight
// (OPTIONS with Origin) needs no signature and gets the requested method and
// headers echoed with a Max-Age; every other answer to a request with Origin
// (successes and errors) gets Allow-Origin and Expose-Headers only; a request
// without Origin gets no Access-Control-* header at all.

#include <string>
#include <vector>

#include "server/http_server.h"

namespace dynamod {

// Which origins may call: any ("*"), or a list.
class CorsPolicy {
 public:
  // "*" or "https://a.example, http://localhost:3000".
  explicit CorsPolicy(const std::string& origins);
  // The Access-Control-Allow-Origin value for a request from `origin`, or
  // empty when that origin is not allowed.
  std::string allow_origin(std::string_view origin) const;

 private:
  bool any_ = true;
  std::vector<std::string> origins_;
};

// OPTIONS with an Origin header.
bool is_cors_preflight(const HttpRequest& request);

// Adds Access-Control-Allow-Origin and -Expose-Headers when the request has
// Origin, and for a preflight also -Allow-Methods, -Allow-Headers and -Max-Age.
void add_cors_headers(const CorsPolicy& policy, const HttpRequest& request, HttpResponse& response);

}  // namespace dynamod
