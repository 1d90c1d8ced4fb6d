#include "server/request_signer.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <string_view>
#include <vector>

#include "server/sigv4.h"

namespace dynamod {
namespace {

namespace http = boost::beast::http;

std::string env_or(const char* name, std::string fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::string(v) : std::move(fallback);
}

std::string region_from_environment() { return env_or("AWS_REGION", env_or("AWS_DEFAULT_REGION", "us-east-1")); }

}  // namespace

std::optional<ClientCredentials> ClientCredentials::from_environment() {
  std::string key = env_or("AWS_ACCESS_KEY_ID", "");
  std::string secret = env_or("AWS_SECRET_ACCESS_KEY", "");
  if (key.empty() || secret.empty()) return std::nullopt;
  return ClientCredentials{std::move(key), std::move(secret), env_or("AWS_SESSION_TOKEN", ""),
                           region_from_environment()};
}

ClientCredentials ClientCredentials::placeholder() { return {"dynamod", "dynamod", "", region_from_environment()}; }

void sign_request(http::request<http::string_body>& request, const ClientCredentials& credentials,
                  std::chrono::system_clock::time_point now) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char amz_date[17];
  std::strftime(amz_date, sizeof amz_date, "%Y%m%dT%H%M%SZ", &utc);
  const std::string date(amz_date, 8);
  request.set("X-Amz-Date", amz_date);
  if (!credentials.token.empty()) request.set("X-Amz-Security-Token", credentials.token);

  std::vector<std::string> signed_headers{"host", "x-amz-date"};
  for (const char* optional : {"content-type", "x-amz-target", "x-amz-security-token"}) {
    if (request.find(optional) != request.end()) signed_headers.emplace_back(optional);
  }
  std::sort(signed_headers.begin(), signed_headers.end());
  const std::string payload_hash = sigv4::sha256_hex(request.body());
  sigv4::RequestParts parts;
  parts.method = std::string_view(request.method_string());
  parts.target = std::string_view(request.target());
  for (const auto& field : request) {
    parts.headers.emplace_back(std::string_view(field.name_string()), std::string_view(field.value()));
  }
  parts.payload_hash = payload_hash;
  const std::string scope = date + "/" + credentials.region + "/dynamodb/aws4_request";
  const std::string to_sign = sigv4::string_to_sign(amz_date, scope, sigv4::canonical_request(parts, signed_headers));
  const std::string signature =
      sigv4::signature(sigv4::signing_key(credentials.secret, date, credentials.region, "dynamodb"), to_sign);
  std::string header_list;
  for (const auto& h : signed_headers) header_list += (header_list.empty() ? "" : ";") + h;
  request.set(http::field::authorization, std::string(sigv4::kAlgorithm) + " Credential=" + credentials.key + "/" +
                                              scope + ", SignedHeaders=" + header_list + ", Signature=" + signature);
}

}  // namespace dynamod
