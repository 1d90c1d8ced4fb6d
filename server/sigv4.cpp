#include "server/sigv4.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <map>

namespace dynamod::sigv4 {
namespace {

constexpr char kHex[] = "0123456789abcdef";

std::string to_hex(const unsigned char* data, std::size_t n) {
  std::string out(n * 2, '0');
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = kHex[data[i] >> 4];
    out[2 * i + 1] = kHex[data[i] & 15];
  }
  return out;
}

std::string hmac(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), out, &len);
  return std::string(reinterpret_cast<char*>(out), len);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
         c == '.' || c == '~';
}

void uri_encode_append(std::string& out, std::string_view s) {
  for (unsigned char c : s) {
    if (is_unreserved(c)) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back("0123456789ABCDEF"[c >> 4]);
      out.push_back("0123456789ABCDEF"[c & 15]);
    }
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string uri_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      int hi = hex_value(s[i + 1]);
      int lo = hex_value(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

// The canonical URI: dot segments removed, empty segments collapsed, each
// segment URI-encoded (services other than S3 sign the encoded path).
std::string canonical_uri(std::string_view path) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view segment = path.substr(start, end - start);
    if (segment == "..") {
      if (!segments.empty()) segments.pop_back();
    } else if (!segment.empty() && segment != ".") {
      segments.push_back(uri_decode(segment));
    }
    start = end + 1;
  }
  std::string out = "/";
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (i > 0) out.push_back('/');
    uri_encode_append(out, segments[i]);
  }
  // A trailing slash survives normalisation, except on the root.
  if (!segments.empty() && path.size() > 1 && path.back() == '/') out.push_back('/');
  return out;
}

std::string canonical_query(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> params;
  std::size_t start = 0;
  while (start < query.size()) {
    std::size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    std::string_view pair = query.substr(start, end - start);
    if (!pair.empty()) {
      std::size_t eq = pair.find('=');
      std::string name;
      std::string value;
      uri_encode_append(name, uri_decode(pair.substr(0, eq)));
      if (eq != std::string_view::npos) uri_encode_append(value, uri_decode(pair.substr(eq + 1)));
      params.emplace_back(std::move(name), std::move(value));
    }
    start = end + 1;
  }
  std::sort(params.begin(), params.end());
  std::string out;
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (i > 0) out.push_back('&');
    out += params[i].first;
    out.push_back('=');
    out += params[i].second;
  }
  return out;
}

// Header values are trimmed and inner runs of spaces collapse to one.
std::string canonical_header_value(std::string_view value) {
  value = trim(value);
  std::string out;
  out.reserve(value.size());
  bool in_space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t') {
      in_space = true;
      continue;
    }
    if (in_space && !out.empty()) out.push_back(' ');
    in_space = false;
    out.push_back(c);
  }
  return out;
}

}  // namespace

ParsedAuthorization parse_authorization(std::string_view header) {
  ParsedAuthorization parsed;
  std::size_t space = header.find(' ');
  parsed.algorithm = header.substr(0, space);
  std::string_view rest = space == std::string_view::npos ? std::string_view() : header.substr(space + 1);
  std::size_t start = 0;
  while (start < rest.size()) {
    std::size_t end = rest.find_first_of(", ", start);
    if (end == std::string_view::npos) end = rest.size();
    std::string_view token = rest.substr(start, end - start);
    start = end + 1;
    if (token.empty()) continue;
    std::size_t eq = token.find('=');
    if (eq == std::string_view::npos) {
      if (!parsed.bad_token) parsed.bad_token = token;
      continue;
    }
    std::string_view name = token.substr(0, eq);
    std::string_view value = token.substr(eq + 1);
    if (name == "Credential") parsed.credential = value;
    else if (name == "SignedHeaders") parsed.signed_headers = value;
    else if (name == "Signature") parsed.signature = value;
  }
  return parsed;
}

std::vector<std::string_view> split_credential(std::string_view credential) {
  while (!credential.empty() && credential.back() == '/') credential.remove_suffix(1);
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    std::size_t end = credential.find('/', start);
    parts.push_back(credential.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

std::vector<std::string> split_signed_headers(std::string_view signed_headers) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < signed_headers.size()) {
    std::size_t end = signed_headers.find(';', start);
    if (end == std::string_view::npos) end = signed_headers.size();
    if (end > start) out.push_back(lowercase(signed_headers.substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

std::string canonical_request(const RequestParts& request, const std::vector<std::string>& signed_headers) {
  std::string_view target = request.target;
  std::size_t q = target.find('?');
  std::string_view path = target.substr(0, q);
  std::string_view query = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);

  std::string out;
  out.reserve(256);
  out += request.method;
  out.push_back('\n');
  out += canonical_uri(path);
  out.push_back('\n');
  out += canonical_query(query);
  out.push_back('\n');

  // Gather the signed headers' values in order of appearance.
  std::map<std::string, std::string> values;
  for (const auto& [name, value] : request.headers) {
    std::string lower = lowercase(name);
    if (std::find(signed_headers.begin(), signed_headers.end(), lower) == signed_headers.end()) continue;
    std::string& v = values[lower];
    if (!v.empty()) v.push_back(',');
    v += canonical_header_value(value);
  }
  std::vector<std::string> sorted = signed_headers;
  std::sort(sorted.begin(), sorted.end());
  for (const auto& name : sorted) {
    out += name;
    out.push_back(':');
    auto it = values.find(name);
    if (it != values.end()) out += it->second;
    out.push_back('\n');
  }
  out.push_back('\n');
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (i > 0) out.push_back(';');
    out += sorted[i];
  }
  out.push_back('\n');
  out += request.payload_hash;
  return out;
}

std::string string_to_sign(std::string_view amz_date, std::string_view scope, std::string_view canonical) {
  std::string out(kAlgorithm);
  out.push_back('\n');
  out += amz_date;
  out.push_back('\n');
  out += scope;
  out.push_back('\n');
  out += sha256_hex(canonical);
  return out;
}

std::string signing_key(std::string_view secret, std::string_view date, std::string_view region,
                        std::string_view service) {
  std::string k = hmac("AWS4" + std::string(secret), date);
  k = hmac(k, region);
  k = hmac(k, service);
  return hmac(k, "aws4_request");
}

std::string signature(std::string_view signing_key, std::string_view string_to_sign) {
  std::string mac = hmac(signing_key, string_to_sign);
  return to_hex(reinterpret_cast<const unsigned char*>(mac.data()), mac.size());
}

std::string sha256_hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return to_hex(digest, sizeof digest);
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace dynamod::sigv4
