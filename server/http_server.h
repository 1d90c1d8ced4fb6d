#pragma once
// HttpServer: Boost.Beast HTTP/1.1 with keep-alive. One io_context per I/O
// thread; each accepted connection goes to the next one in turn and lives
// there, one coroutine, all its handlers on that thread (no strand, no lock
// shared between the threads on the way of a request); a fresh parser per
// message with explicit body and header limits; a timeout before every read
// and write; graceful stop (stop accepting, let in-flight requests finish,
// close idle connections). A request with a big body waits for a slot of the
// heavy lane (server/heavy_lane) before its body is read, and is handled on
// the lane's thread; the connection still waits for its answer before it
// reads its next request.
//
// The request handler is independent of the connection: it takes a parsed
// request and produces a response.

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/heavy_lane.h"

namespace dynamod {

namespace http = boost::beast::http;
namespace asio = boost::asio;

using HttpRequest = http::request<http::string_body>;
using HttpResponse = http::response<http::string_body>;
// Thrown by a request handler: the connection closes without an answer (an
// injected fault, server/fault_rules).
struct DropConnection {};

using RequestHandler = std::function<asio::awaitable<HttpResponse>(HttpRequest&)>;
// Builds the response sent when a request body exceeds the limit.
using TooLargeHandler = std::function<HttpResponse(const HttpRequest&)>;

// DynamoDB accepts request bodies up to 16 MB; it is also the most a compressed
// body may inflate to.
inline constexpr std::uint64_t kMaxRequestBody = 16 * 1024 * 1024;

struct HttpLimits {
  std::uint64_t body_limit = kMaxRequestBody;
  std::uint32_t header_limit = 64 * 1024;
  std::chrono::seconds idle_timeout{300};  // between requests on a keep-alive connection
  std::chrono::seconds io_timeout{60};     // to read the rest of a request, or write a response
};

class HttpServer {
 public:
  // `contexts`: one per I/O thread, each run by one thread; the first also accepts.
  HttpServer(std::vector<asio::io_context*> contexts, HeavyLane& lane, const asio::ip::tcp::endpoint& endpoint,
             HttpLimits limits, RequestHandler handler, TooLargeHandler too_large);
  // The port actually bound (useful with port 0).
  std::uint16_t port() const { return port_; }
  void start();
  // Stops accepting and closes idle connections; requests in flight finish.
  void stop();

 private:
  class Connection;
  asio::awaitable<void> accept_loop();
  asio::awaitable<void> serve(std::shared_ptr<Connection> connection);
  // The handler's answer to a request whose body is read, serialised into
  // `wire`: whether to keep the connection, nullopt to close it unanswered.
  asio::awaitable<std::optional<bool>> answer(HttpRequest& request, std::string& wire);

  std::vector<asio::io_context*> contexts_;
  HeavyLane& lane_;
  std::size_t next_context_ = 0;  // where the next connection goes (the accept loop's only)
  asio::ip::tcp::acceptor acceptor_;
  std::uint16_t port_ = 0;
  HttpLimits limits_;
  RequestHandler handler_;
  TooLargeHandler too_large_;
  std::mutex connections_mutex_;
  std::unordered_map<Connection*, std::weak_ptr<Connection>> connections_;
  std::atomic<bool> stopping_{false};
};

}  // namespace dynamod
