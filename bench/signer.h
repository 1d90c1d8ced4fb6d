#pragma once
// SigV4 signing for the load generator, done the way an SDK does it (every
// request signed with the current X-Amz-Date) but without allocating: a
// request's wire bytes, canonical request and string to sign are built once,
// and signing rewrites the date, payload hash and signature in place. The
// signing key is derived once per day; HMAC pads are precomputed from it.
// check_signature() verifies a request with the server's own SigV4 code
// (server/sigv4.h), so the fast path is tested against the reference.

#ifndef OPENSSL_SUPPRESS_DEPRECATED
#define OPENSSL_SUPPRESS_DEPRECATED  // SHA256_CTX: a plain struct we can copy; no allocation per digest
#endif
#include <openssl/sha.h>

#include <cstddef>
#include <ctime>
#include <string>
#include <string_view>

namespace dynamod::bench {

class Signer {
 public:
  Signer(std::string access_key, std::string secret_key, std::string region);

  // Reads the wall clock (cheap: vDSO); on a new second rewrites the date
  // strings, on a new day re-derives the signing key.
  void tick();
  void set_time(std::time_t now);  // for tests: a fixed clock

  std::string_view amz_date() const { return {amz_date_, 16}; }  // 20260101T000000Z
  std::string_view day() const { return {amz_date_, 8}; }        // 20260101
  const std::string& access_key() const { return access_key_; }
  const std::string& secret_key() const { return secret_key_; }
  const std::string& region() const { return region_; }

  // 64 lowercase hex characters written to out.
  static void sha256_hex(std::string_view data, char* out);
  void hmac_hex(std::string_view data, char* out) const;  // HMAC-SHA256 with the signing key

 private:
  std::string access_key_;
  std::string secret_key_;
  std::string region_;
  std::time_t now_ = -1;
  char amz_date_[17] = {};
  char key_day_[9] = {};
  SHA256_CTX inner_{};  // after hashing key ^ ipad
  SHA256_CTX outer_{};  // after hashing key ^ opad
};

// One HTTP request: "POST /" with the DynamoDB JSON headers, signed with
// SignedHeaders=content-type;host;x-amz-date;x-amz-target. The body may be
// patched in place (same length) before each sign().
class SignedRequest {
 public:
  SignedRequest(const Signer& signer, std::string_view host, std::string_view target, std::string_view body);
  // An unsigned "GET /" (the health check; also nginx's static answer).
  static SignedRequest raw_get(std::string_view host);

  void sign(const Signer& signer);
  std::string_view wire() const { return wire_; }
  char* body() { return wire_.data() + body_at_; }
  std::size_t body_size() const { return wire_.size() - body_at_; }
  std::size_t body_offset() const { return body_at_; }

 private:
  SignedRequest() = default;
  bool signed_ = false;
  std::string wire_;
  std::string canonical_;
  std::string to_sign_;
  std::size_t body_at_ = 0;
  std::size_t wire_date_ = 0, wire_day_ = 0, wire_signature_ = 0;
  std::size_t canonical_date_ = 0, canonical_payload_ = 0;
  std::size_t sts_date_ = 0, sts_day_ = 0, sts_hash_ = 0;
};

// Verifies the Authorization header of a complete request (wire bytes) with
// the server's SigV4 implementation. Empty when valid, else why not.
std::string check_signature(std::string_view wire, std::string_view secret_key);

}  // namespace dynamod::bench
