#include "server/dynamo_client.h"

#include <simdjson.h>
#include <boost/beast/http.hpp>

#include <chrono>
#include <cstdlib>
#include <ctime>

#include "server/sigv4.h"

namespace dynamod {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

}  // namespace

DynamoClient::DynamoClient(ServerEndpoint endpoint)
    : endpoint_(std::move(endpoint)),
      key_(env_or("AWS_ACCESS_KEY_ID", "dynamod")),
      secret_(env_or("AWS_SECRET_ACCESS_KEY", "dynamod")),
      token_(env_or("AWS_SESSION_TOKEN", "")),
      region_(env_or("AWS_REGION", env_or("AWS_DEFAULT_REGION", "us-east-1").c_str())) {}

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
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char amz_date[17];
  std::strftime(amz_date, sizeof amz_date, "%Y%m%dT%H%M%SZ", &utc);
  const std::string date(amz_date, 8);
  const std::string host = endpoint_.host + ":" + endpoint_.port;
  const std::string target = "DynamoDB_20120810." + operation;
  const std::string payload_hash = sigv4::sha256_hex(body);
  sigv4::RequestParts parts{"POST", "/", {}, payload_hash};
  parts.headers = {{"content-type", "application/x-amz-json-1.0"},
                   {"host", host},
                   {"x-amz-date", amz_date},
                   {"x-amz-target", target}};
  std::vector<std::string> signed_headers{"content-type", "host", "x-amz-date", "x-amz-target"};
  if (!token_.empty()) {
    parts.headers.emplace_back("x-amz-security-token", token_);
    signed_headers.emplace_back("x-amz-security-token");
  }
  const std::string scope = date + "/" + region_ + "/dynamodb/aws4_request";
  const std::string to_sign = sigv4::string_to_sign(amz_date, scope, sigv4::canonical_request(parts, signed_headers));
  const std::string signature = sigv4::signature(sigv4::signing_key(secret_, date, region_, "dynamodb"), to_sign);
  std::string header_list;
  for (const auto& h : signed_headers) header_list += (header_list.empty() ? "" : ";") + h;

  http::request<http::string_body> request(http::verb::post, "/", 11);
  request.set(http::field::host, host);
  request.set(http::field::content_type, "application/x-amz-json-1.0");
  request.set("X-Amz-Date", amz_date);
  request.set("X-Amz-Target", target);
  if (!token_.empty()) request.set("X-Amz-Security-Token", token_);
  request.set(http::field::authorization, std::string(sigv4::kAlgorithm) + " Credential=" + key_ + "/" + scope +
                                              ", SignedHeaders=" + header_list + ", Signature=" + signature);
  request.keep_alive(true);
  request.body() = body;
  request.prepare_payload();
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
