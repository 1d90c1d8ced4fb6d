#pragma once
// Request authentication: parses the SigV4 Authorization header (always: its
// region selects the table namespace) and, when credentials are configured,
// verifies the signature, the scope and the request time as the service does.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>

#include "protocol/api_error.h"
#include "server/http_server.h"

namespace dynamod {

struct AuthResult {
  std::string access_key;
  std::string region;
};

// What a listed access key signs with: its secret and, for temporary
// credentials, the session token its requests must carry.
struct Credential {
  std::string secret;
  std::optional<std::string> session_token;
};

// access key id -> credential, from a file of "KEY SECRET [SESSION_TOKEN]" lines.
class CredentialStore {
 public:
  static CredentialStore load(const std::string& path);
  const Credential* find(std::string_view access_key) const;
  std::size_t size() const { return credentials_.size(); }
  void add(std::string access_key, Credential credential) {
    credentials_[std::move(access_key)] = std::move(credential);
  }

 private:
  std::unordered_map<std::string, Credential> credentials_;
};

class Authenticator {
 public:
  // Without credentials any well-formed Authorization header is accepted, as
  // DynamoDB Local does; with them, every request is verified.
  explicit Authenticator(std::optional<CredentialStore> credentials) : credentials_(std::move(credentials)) {}

  std::variant<AuthResult, ApiError> authenticate(const HttpRequest& request,
                                                  std::chrono::system_clock::time_point now) const;
  bool verifies() const { return credentials_.has_value(); }

 private:
  std::optional<CredentialStore> credentials_;
};

}  // namespace dynamod
