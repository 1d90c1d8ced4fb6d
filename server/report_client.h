#pragma once
// `dynamod cost` and `dynamod patterns`: fetch a running server's report
// (GET /dynamod/cost or /dynamod/patterns) and print it as a terminal table,
// or as the JSON itself with --json. `--reset` starts the ledger over.

#include <boost/beast/http/verb.hpp>

#include <optional>
#include <string>

#include "server/request_signer.h"

namespace dynamod {

// A running dynamod's address, from "http://host:port".
struct ServerEndpoint {
  std::string host;
  std::string port;
};
ServerEndpoint parse_endpoint(const std::string& url);
// One HTTP request (a JSON body when not empty), signed with `credentials`
// when given (a server with --credentials takes changes from its control
// endpoints only signed); the answer's body, or a runtime_error naming the
// status unless it is 200.
std::string fetch(const ServerEndpoint& endpoint, const std::optional<ClientCredentials>& credentials,
                  boost::beast::http::verb method, const std::string& target, const std::string& body = "");

// argv[1] is "cost" or "patterns". Returns the process exit code.
int run_report_command(int argc, char** argv);

}  // namespace dynamod
