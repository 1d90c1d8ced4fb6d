#include "bench/signer.h"

#include <cstring>
#include <vector>

#include "server/sigv4.h"

namespace dynamod::bench {
namespace {

constexpr std::string_view kSignedHeaders = "content-type;host;x-amz-date;x-amz-target";
constexpr std::string_view kContentType = "application/x-amz-json-1.0";
constexpr std::string_view kScopeTail = "/dynamodb/aws4_request";
constexpr char kHex[] = "0123456789abcdef";

void to_hex(const unsigned char* data, std::size_t n, char* out) {
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = kHex[data[i] >> 4];
    out[2 * i + 1] = kHex[data[i] & 15];
  }
}

// Appends text and returns where it starts.
std::size_t append(std::string& out, std::string_view text) {
  std::size_t at = out.size();
  out += text;
  return at;
}

}  // namespace

Signer::Signer(std::string access_key, std::string secret_key, std::string region)
    : access_key_(std::move(access_key)), secret_key_(std::move(secret_key)), region_(std::move(region)) {
  tick();
}

void Signer::tick() { set_time(std::time(nullptr)); }

void Signer::set_time(std::time_t now) {
  if (now == now_) return;
  now_ = now;
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(amz_date_, sizeof amz_date_, "%Y%m%dT%H%M%SZ", &tm);
  if (std::memcmp(key_day_, amz_date_, 8) == 0) return;
  std::memcpy(key_day_, amz_date_, 8);
  const std::string key = sigv4::signing_key(secret_key_, day(), region_, "dynamodb");
  unsigned char ipad[SHA256_CBLOCK];
  unsigned char opad[SHA256_CBLOCK];
  std::memset(ipad, 0x36, sizeof ipad);
  std::memset(opad, 0x5c, sizeof opad);
  for (std::size_t i = 0; i < key.size(); ++i) {  // 32 bytes, shorter than a block
    ipad[i] ^= static_cast<unsigned char>(key[i]);
    opad[i] ^= static_cast<unsigned char>(key[i]);
  }
  SHA256_Init(&inner_);
  SHA256_Update(&inner_, ipad, sizeof ipad);
  SHA256_Init(&outer_);
  SHA256_Update(&outer_, opad, sizeof opad);
}

void Signer::sha256_hex(std::string_view data, char* out) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  to_hex(digest, sizeof digest, out);
}

void Signer::hmac_hex(std::string_view data, char* out) const {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256_CTX ctx = inner_;
  SHA256_Update(&ctx, data.data(), data.size());
  SHA256_Final(digest, &ctx);
  ctx = outer_;
  SHA256_Update(&ctx, digest, sizeof digest);
  SHA256_Final(digest, &ctx);
  to_hex(digest, sizeof digest, out);
}

SignedRequest::SignedRequest(const Signer& signer, std::string_view host, std::string_view target,
                             std::string_view body) {
  signed_ = true;
  const std::string placeholder64(64, '0');
  wire_.reserve(512 + body.size());
  wire_ += "POST / HTTP/1.1\r\nHost: ";
  wire_ += host;
  wire_ += "\r\nContent-Type: ";
  wire_ += kContentType;
  wire_ += "\r\nX-Amz-Date: ";
  wire_date_ = append(wire_, signer.amz_date());
  wire_ += "\r\nX-Amz-Target: ";
  wire_ += target;
  wire_ += "\r\nAuthorization: AWS4-HMAC-SHA256 Credential=";
  wire_ += signer.access_key();
  wire_ += '/';
  wire_day_ = append(wire_, signer.day());
  wire_ += '/';
  wire_ += signer.region();
  wire_ += kScopeTail;
  wire_ += ", SignedHeaders=";
  wire_ += kSignedHeaders;
  wire_ += ", Signature=";
  wire_signature_ = append(wire_, placeholder64);
  wire_ += "\r\nContent-Length: ";
  wire_ += std::to_string(body.size());
  wire_ += "\r\n\r\n";
  body_at_ = append(wire_, body);

  canonical_ += "POST\n/\n\ncontent-type:";
  canonical_ += kContentType;
  canonical_ += "\nhost:";
  canonical_ += host;
  canonical_ += "\nx-amz-date:";
  canonical_date_ = append(canonical_, signer.amz_date());
  canonical_ += "\nx-amz-target:";
  canonical_ += target;
  canonical_ += "\n\n";
  canonical_ += kSignedHeaders;
  canonical_ += '\n';
  canonical_payload_ = append(canonical_, placeholder64);

  to_sign_ += sigv4::kAlgorithm;
  to_sign_ += '\n';
  sts_date_ = append(to_sign_, signer.amz_date());
  to_sign_ += '\n';
  sts_day_ = append(to_sign_, signer.day());
  to_sign_ += '/';
  to_sign_ += signer.region();
  to_sign_ += kScopeTail;
  to_sign_ += '\n';
  sts_hash_ = append(to_sign_, placeholder64);
  sign(signer);
}

SignedRequest SignedRequest::raw_get(std::string_view host) {
  SignedRequest request;
  request.wire_ = "GET / HTTP/1.1\r\nHost: " + std::string(host) + "\r\n\r\n";
  request.body_at_ = request.wire_.size();
  return request;
}

void SignedRequest::sign(const Signer& signer) {
  if (!signed_) return;
  const std::string_view date = signer.amz_date();
  const std::string_view day = signer.day();
  std::memcpy(wire_.data() + wire_date_, date.data(), date.size());
  std::memcpy(wire_.data() + wire_day_, day.data(), day.size());
  std::memcpy(canonical_.data() + canonical_date_, date.data(), date.size());
  std::memcpy(to_sign_.data() + sts_date_, date.data(), date.size());
  std::memcpy(to_sign_.data() + sts_day_, day.data(), day.size());
  Signer::sha256_hex(std::string_view(wire_).substr(body_at_), canonical_.data() + canonical_payload_);
  Signer::sha256_hex(canonical_, to_sign_.data() + sts_hash_);
  signer.hmac_hex(to_sign_, wire_.data() + wire_signature_);
}

std::string check_signature(std::string_view wire, std::string_view secret_key) {
  const std::size_t head_end = wire.find("\r\n\r\n");
  if (head_end == std::string_view::npos) return "no end of headers";
  std::string_view head = wire.substr(0, head_end);
  const std::string_view body = wire.substr(head_end + 4);
  std::size_t eol = head.find("\r\n");
  const std::string_view request_line = head.substr(0, eol);
  head.remove_prefix(eol == std::string_view::npos ? head.size() : eol + 2);

  sigv4::RequestParts parts;
  const std::size_t sp1 = request_line.find(' ');
  const std::size_t sp2 = request_line.find(' ', sp1 + 1);
  parts.method = request_line.substr(0, sp1);
  parts.target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
  std::string_view authorization;
  std::string_view amz_date;
  while (!head.empty()) {
    eol = head.find("\r\n");
    std::string_view line = head.substr(0, eol);
    head.remove_prefix(eol == std::string_view::npos ? head.size() : eol + 2);
    const std::size_t colon = line.find(':');
    std::string_view name = line.substr(0, colon);
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    parts.headers.emplace_back(name, value);
    if (name == "Authorization") authorization = value;
    if (name == "X-Amz-Date") amz_date = value;
  }
  const std::string payload_hash = sigv4::sha256_hex(body);
  parts.payload_hash = payload_hash;

  const auto parsed = sigv4::parse_authorization(authorization);
  if (parsed.algorithm != sigv4::kAlgorithm) return "algorithm";
  if (!parsed.credential || !parsed.signed_headers || !parsed.signature) return "incomplete Authorization";
  const auto credential = sigv4::split_credential(*parsed.credential);
  if (credential.size() != 5) return "credential has " + std::to_string(credential.size()) + " parts";
  if (amz_date.substr(0, 8) != credential[1]) return "date does not match the credential scope";
  const std::string scope = std::string(credential[1]) + "/" + std::string(credential[2]) + "/" +
                            std::string(credential[3]) + "/" + std::string(credential[4]);
  const auto signed_headers = sigv4::split_signed_headers(*parsed.signed_headers);
  const std::string canonical = sigv4::canonical_request(parts, signed_headers);
  const std::string to_sign = sigv4::string_to_sign(amz_date, scope, canonical);
  const std::string key = sigv4::signing_key(secret_key, credential[1], credential[2], credential[3]);
  const std::string expected = sigv4::signature(key, to_sign);
  if (!sigv4::constant_time_equal(expected, *parsed.signature)) {
    return "signature mismatch: expected " + expected + " got " + std::string(*parsed.signature);
  }
  return {};
}

}  // namespace dynamod::bench
