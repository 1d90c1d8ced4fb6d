#include "server/dynamo_client.h"

#include <simdjson.h>
#include <boost/beast/http.hpp>

#include <chrono>

namespace dynamod {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;

}  // namespace

DynamoClient::DynamoClient(ServerEndpoint endpoint)
    : endpoint_(std::move(endpoint)),
      credentials_(ClientCredentials::from_environment().value_or(ClientCredentials::placeholder())) {}

void DynamoClient::connect() {
  boost::asio::ip::tcp::resolver resolver(io_);
  stream_.emplace(io_);
  stream_->expires_after(std::chrono::seconds(30));
  stream_->connect(resolver.resolve(endpoint_.host, endpoint_.port));
}

std::string DynamoClient::Answer::error_code() const {
  if (status == 200) return "";
  simdjson::dom::parser parser;
  std::string_view type;
  if (parser.parse(body).get_object()["__type"].get(type) != simdjson::SUCCESS) return "HTTP " + std::to_string(status);
  const std::size_t hash = type.rfind('#');
  return std::string(hash == std::string_view::npos ? type : type.substr(hash + 1));
}

DynamoClient::Answer DynamoClient::call(const std::string& operation, const std::string& body) {
  http::request<http::string_body> request(http::verb::post, "/", 11);
  request.set(http::field::host, endpoint_.host + ":" + endpoint_.port);
  request.set(http::field::content_type, "application/x-amz-json-1.0");
  request.set("X-Amz-Target", "DynamoDB_20120810." + operation);
  request.keep_alive(true);
  request.body() = body;
  request.prepare_payload();
  sign_request(request, credentials_, std::chrono::system_clock::now());
  // One retry on a fresh connection: the server may have closed an idle one.
  for (int attempt = 0;; ++attempt) {
    try {
      if (!stream_) connect();
      stream_->expires_after(std::chrono::seconds(60));
      http::write(*stream_, request);
      beast::flat_buffer buffer;
      http::response<http::string_body> response;
      http::read(*stream_, buffer, response);
      if (!response.keep_alive()) stream_.reset();
      return {response.result_int(), std::move(response.body())};
    } catch (const boost::system::system_error&) {
      stream_.reset();
      if (attempt > 0) throw;
    }
  }
}

}  // namespace dynamod
