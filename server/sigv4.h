#pragma once
// AWS Signature Version 4, as pure functions over values: parse the
// Authorization header, build the canonical request and the string to sign,
// derive the signing key and compute the signature. No I/O, no clock.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dynamod::sigv4 {

inline constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";

// The parts of an Authorization header, unvalidated. The service accepts
// parameters separated by commas and/or spaces.
struct ParsedAuthorization {
  std::string_view algorithm;
  std::optional<std::string_view> credential;
  std::optional<std::string_view> signed_headers;
  std::optional<std::string_view> signature;
  std::optional<std::string_view> bad_token;  // a parameter without '='
};
ParsedAuthorization parse_authorization(std::string_view header);

// Credential = access key / yyyymmdd / region / service / aws4_request.
std::vector<std::string_view> split_credential(std::string_view credential);
std::vector<std::string> split_signed_headers(std::string_view signed_headers);

// One request header as received (name in any case, raw value).
using Header = std::pair<std::string_view, std::string_view>;

struct RequestParts {
  std::string_view method;
  std::string_view target;  // path and query, as on the request line
  std::vector<Header> headers;
  std::string_view payload_hash;  // hex SHA-256 of the body
};

std::string canonical_request(const RequestParts& request, const std::vector<std::string>& signed_headers);
std::string string_to_sign(std::string_view amz_date, std::string_view scope, std::string_view canonical_request);
std::string signing_key(std::string_view secret, std::string_view date, std::string_view region,
                        std::string_view service);
std::string signature(std::string_view signing_key, std::string_view string_to_sign);

std::string sha256_hex(std::string_view data);
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace dynamod::sigv4
