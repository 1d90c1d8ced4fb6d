#include "server/auth.h"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "server/sigv4.h"

namespace dynamod {
namespace {

ApiError incomplete(std::string message) { return {ErrorCode::IncompleteSignatureException, std::move(message)}; }
ApiError invalid_signature(std::string message) { return {ErrorCode::InvalidSignatureException, std::move(message)}; }

// "20150830T123600Z" -> seconds since the epoch.
std::optional<std::time_t> parse_amz_date(std::string_view text) {
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z') return std::nullopt;
  auto digits = [&](std::size_t pos, std::size_t n) -> int {
    int v = 0;
    for (std::size_t i = pos; i < pos + n; ++i) {
      if (text[i] < '0' || text[i] > '9') return -1;
      v = v * 10 + (text[i] - '0');
    }
    return v;
  };
  std::tm tm{};
  tm.tm_year = digits(0, 4) - 1900;
  tm.tm_mon = digits(4, 2) - 1;
  tm.tm_mday = digits(6, 2);
  tm.tm_hour = digits(9, 2);
  tm.tm_min = digits(11, 2);
  tm.tm_sec = digits(13, 2);
  if (tm.tm_year < 0 || tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour < 0 ||
      tm.tm_hour > 23 || tm.tm_min < 0 || tm.tm_min > 59 || tm.tm_sec < 0 || tm.tm_sec > 60) {
    return std::nullopt;
  }
  return timegm(&tm);
}

std::string format_amz_date(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[17];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

bool valid_region(std::string_view region) {
  if (region.empty()) return false;
  for (char c : region) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

}  // namespace

CredentialStore CredentialStore::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read credentials file " + path);
  CredentialStore store;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream fields(line);
    std::string key;
    Credential credential;
    if (!(fields >> key) || key[0] == '#') continue;
    std::string token;
    std::string extra;
    if (!(fields >> credential.secret) || ((fields >> token) && (fields >> extra))) {
      throw std::runtime_error(path + ":" + std::to_string(line_no) +
                               ": expected 'ACCESS_KEY_ID SECRET_ACCESS_KEY [SESSION_TOKEN]'");
    }
    if (!token.empty()) credential.session_token = std::move(token);
    store.add(std::move(key), std::move(credential));
  }
  if (store.size() == 0) throw std::runtime_error("credentials file " + path + " lists no keys");
  return store;
}

const Credential* CredentialStore::find(std::string_view access_key) const {
  auto it = credentials_.find(std::string(access_key));
  return it == credentials_.end() ? nullptr : &it->second;
}

// The checks run in the service's order (see tests/integration/test_auth.py).
std::variant<AuthResult, ApiError> Authenticator::authenticate(const HttpRequest& request,
                                                               std::chrono::system_clock::time_point now) const {
  auto header_it = request.find(http::field::authorization);
  std::string_view header = header_it == request.end() ? std::string_view() : std::string_view(header_it->value());
  if (header.rfind("AWS4-", 0) != 0) {
    return ApiError(ErrorCode::MissingAuthenticationTokenException, "Request is missing Authentication Token");
  }
  sigv4::ParsedAuthorization parsed = sigv4::parse_authorization(header);
  if (parsed.bad_token) {
    std::string message(1, '\'');
    message.append(*parsed.bad_token)
        .append("' not a valid key=value pair (missing equal-sign) in Authorization header: '")
        .append(header)
        .append("'.");
    return incomplete(std::move(message));
  }
  std::string_view amz_date;
  if (auto it = request.find("x-amz-date"); it != request.end()) {
    amz_date = std::string_view(it->value());
  } else if (auto date = request.find(http::field::date); date != request.end()) {
    amz_date = std::string_view(date->value());
  }
  std::string missing;
  if (!parsed.credential) missing += "Authorization header requires 'Credential' parameter. ";
  if (!parsed.signature) missing += "Authorization header requires 'Signature' parameter. ";
  if (!parsed.signed_headers) missing += "Authorization header requires 'SignedHeaders' parameter. ";
  if (amz_date.empty())
    missing += "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ";
  if (!missing.empty()) return incomplete(missing + "Authorization=" + std::string(header));

  std::optional<std::time_t> request_time;
  std::vector<std::string> signed_headers = sigv4::split_signed_headers(*parsed.signed_headers);
  if (verifies()) {
    request_time = parse_amz_date(amz_date);
    if (!request_time) {
      return incomplete("Date must be in ISO-8601 'basic format'. Got '" + std::string(amz_date) +
                        "'. See http://en.wikipedia.org/wiki/ISO_8601");
    }
    std::time_t server_time = std::chrono::system_clock::to_time_t(now);
    constexpr std::time_t kSkew = 15 * 60;
    if (*request_time < server_time - kSkew) {
      return invalid_signature("Signature expired: " + std::string(amz_date) + " is now earlier than " +
                               format_amz_date(server_time - kSkew) + " (" + format_amz_date(server_time) +
                               " - 15 min.)");
    }
    if (*request_time > server_time + kSkew) {
      return invalid_signature("Signature not yet current: " + std::string(amz_date) + " is still later than " +
                               format_amz_date(server_time + kSkew) + " (" + format_amz_date(server_time) +
                               " + 15 min.)");
    }
    if (std::find(signed_headers.begin(), signed_headers.end(), "host") == signed_headers.end()) {
      return invalid_signature("'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
    }
  }
  if (parsed.algorithm != sigv4::kAlgorithm) {
    return incomplete("Unsupported AWS 'algorithm': '" + std::string(parsed.algorithm) + "'.");
  }
  std::vector<std::string_view> scope = sigv4::split_credential(*parsed.credential);
  if (scope.size() != 5) {
    return incomplete(
        "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '" +
        std::string(*parsed.credential) + "'");
  }
  AuthResult result{std::string(scope[0]), std::string(scope[2])};
  if (!verifies()) return result;

  std::string scope_errors;
  if (!valid_region(scope[2])) {
    scope_errors += "Credential should be scoped to a valid region, not '" + std::string(scope[2]) + "'. ";
  }
  if (scope[3] != "dynamodb") scope_errors += "Credential should be scoped to correct service: 'dynamodb'. ";
  if (scope[4] != "aws4_request") {
    scope_errors +=
        "Credential should be scoped with a valid terminator: 'aws4_request', not '" + std::string(scope[4]) + "'. ";
  }
  if (scope[1] != amz_date.substr(0, 8)) {
    scope_errors += "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '" +
                    std::string(scope[1]) + "' != '" + std::string(amz_date.substr(0, 8)) + "', from '" +
                    std::string(amz_date) + "'.";
  }
  if (!scope_errors.empty()) {
    while (!scope_errors.empty() && scope_errors.back() == ' ') scope_errors.pop_back();
    return invalid_signature(std::move(scope_errors));
  }
  // An unknown key, a token on a key that has none, a missing or another
  // token on one that has: each is a token the service does not recognise.
  const Credential* credential = credentials_->find(scope[0]);
  auto token = request.find("x-amz-security-token");
  const bool token_matches =
      credential && (credential->session_token
                         ? token != request.end() &&
                               sigv4::constant_time_equal(*credential->session_token, std::string_view(token->value()))
                         : token == request.end());
  if (!token_matches) {
    return ApiError(ErrorCode::UnrecognizedClientException, "The security token included in the request is invalid.");
  }
  sigv4::RequestParts parts;
  parts.method = std::string_view(request.method_string());
  parts.target = std::string_view(request.target());
  for (const auto& field : request)
    parts.headers.emplace_back(std::string_view(field.name_string()), std::string_view(field.value()));
  std::string payload_hash = sigv4::sha256_hex(request.body());
  parts.payload_hash = payload_hash;
  std::string canonical = sigv4::canonical_request(parts, signed_headers);
  std::string scope_text =
      std::string(scope[1]) + "/" + std::string(scope[2]) + "/" + std::string(scope[3]) + "/" + std::string(scope[4]);
  std::string key = sigv4::signing_key(credential->secret, scope[1], scope[2], scope[3]);
  std::string expected = sigv4::signature(key, sigv4::string_to_sign(amz_date, scope_text, canonical));
  if (!sigv4::constant_time_equal(expected, *parsed.signature)) {
    return invalid_signature(
        "The request signature we calculated does not match the signature you provided. Check your AWS Secret "
        "Access Key and signing method. Consult the service documentation for details.");
  }
  return result;
}

}  // namespace dynamod
