#pragma once
// A DynamoDB JSON-protocol client for dynamod's command-line helpers (`dynamod
// import`): one keep-alive connection, each call signed with SigV4 (the
// credentials of AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, else placeholder
// ones, which a server without --credentials takes; the region of AWS_REGION,
// else us-east-1: the region is the namespace of the tables).

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>

#include <optional>
#include <string>

#include "server/report_client.h"
#include "server/request_signer.h"

namespace dynamod {

class DynamoClient {
 public:
  explicit DynamoClient(ServerEndpoint endpoint);

  struct Answer {
    unsigned status = 0;
    std::string body;
    std::string error_code() const;  // the __type after '#', or "" for a 200
  };
  // POST / with X-Amz-Target: DynamoDB_20120810.<operation>.
  Answer call(const std::string& operation, const std::string& body);

 private:
  void connect();

  ServerEndpoint endpoint_;
  ClientCredentials credentials_;
  boost::asio::io_context io_;
  std::optional<boost::beast::tcp_stream> stream_;
};

}  // namespace dynamod
