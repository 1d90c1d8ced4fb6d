#pragma once
// SigV4 for dynamod's command-line clients (`dynamod import`, `faults`, `cost`,
// `patterns`): the signature server/sigv4 computes when the server verifies
// one, over the request as it will be sent.

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <chrono>
#include <optional>
#include <string>

namespace dynamod {

struct ClientCredentials {
  std::string key;
  std::string secret;
  std::string token;   // AWS_SESSION_TOKEN, empty without one
  std::string region;  // the namespace of the tables the server uses for the request

  // AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (nullopt unless both are
  // set), AWS_SESSION_TOKEN, and AWS_REGION, else AWS_DEFAULT_REGION, else
  // us-east-1.
  static std::optional<ClientCredentials> from_environment();
  // What a server without --credentials takes: placeholder keys, the
  // environment's region.
  static ClientCredentials placeholder();
};

// Adds X-Amz-Date, X-Amz-Security-Token (with a token) and the Authorization
// header for the dynamodb service, signing the method, target, body and the
// Host, Content-Type and X-Amz-Target headers present. Call after the body
// and every other header are set.
void sign_request(boost::beast::http::request<boost::beast::http::string_body>& request,
                  const ClientCredentials& credentials, std::chrono::system_clock::time_point now);

}  // namespace dynamod
