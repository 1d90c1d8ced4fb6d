#include "server/http_server.h"

#include <spdlog/spdlog.h>

#include <optional>

namespace dynamod {

namespace beast = boost::beast;
using asio::use_awaitable;
using asio::ip::tcp;
constexpr auto kTuple = asio::as_tuple(use_awaitable);

class HttpServer::Connection {
 public:
  explicit Connection(tcp::socket socket) : stream(std::move(socket)) {}
  beast::tcp_stream stream;
  bool idle = true;  // waiting for the next request; touched only on the connection's thread
};

namespace {

// The response as it goes on the wire, in one buffer the connection reuses:
// Beast's serializer walks a chain of buffer views on every write, which
// costs a GetItem more than its LMDB lookup does.
void serialize(const HttpResponse& response, std::string& wire) {
  wire.clear();
  wire.append(response.version() == 10 ? "HTTP/1.0 " : "HTTP/1.1 ");
  wire.append(std::to_string(response.result_int()));
  wire.push_back(' ');
  wire.append(response.reason());
  wire.append("\r\n");
  for (const auto& field : response) {
    wire.append(field.name_string()).append(": ").append(field.value()).append("\r\n");
  }
  wire.append("\r\n");
  wire.append(response.body());
}

}  // namespace

HttpServer::HttpServer(std::vector<asio::io_context*> contexts, HeavyLane& lane, const tcp::endpoint& endpoint,
                       HttpLimits limits, RequestHandler handler, TooLargeHandler too_large)
    : contexts_(std::move(contexts)),
      lane_(lane),
      acceptor_(*contexts_.front()),
      limits_(limits),
      handler_(std::move(handler)),
      too_large_(std::move(too_large)) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(asio::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(asio::socket_base::max_listen_connections);
  port_ = acceptor_.local_endpoint().port();
}

void HttpServer::start() { asio::co_spawn(acceptor_.get_executor(), accept_loop(), asio::detached); }

void HttpServer::stop() {
  stopping_ = true;
  asio::post(acceptor_.get_executor(), [this] {
    beast::error_code ignored;
    acceptor_.close(ignored);
  });
  std::lock_guard lock(connections_mutex_);
  for (auto& [raw, weak] : connections_) {
    if (auto connection = weak.lock()) {
      asio::post(connection->stream.get_executor(), [connection] {
        // A connection between requests closes now; one serving a request
        // closes after sending its response.
        if (connection->idle) connection->stream.cancel();
      });
    }
  }
}

asio::awaitable<void> HttpServer::accept_loop() {
  while (!stopping_) {
    asio::io_context& home = *contexts_[next_context_];
    next_context_ = (next_context_ + 1) % contexts_.size();
    auto [ec, socket] = co_await acceptor_.async_accept(home, kTuple);
    if (ec) {
      if (!acceptor_.is_open() || stopping_) co_return;
      spdlog::warn("accept failed: {}", ec.message());
      continue;
    }
    beast::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    auto connection = std::make_shared<Connection>(std::move(socket));
    {
      std::lock_guard lock(connections_mutex_);
      connections_.emplace(connection.get(), connection);
    }
    asio::co_spawn(connection->stream.get_executor(), serve(connection), asio::detached);
  }
}

asio::awaitable<void> HttpServer::serve(std::shared_ptr<Connection> connection) {
  beast::tcp_stream& stream = connection->stream;
  beast::flat_buffer buffer;
  std::string wire;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(limits_.body_limit);
    parser.header_limit(limits_.header_limit);
    // A request usually arrives whole: parse its body in the same pass as its header.
    parser.eager(true);

    connection->idle = true;
    if (stopping_) break;
    stream.expires_after(limits_.idle_timeout);
    // Returns once the header is complete, with whatever of the body came along.
    auto [ec, n] = co_await http::async_read_some(stream, buffer, parser, kTuple);
    if (!ec && !parser.is_header_done())
      std::tie(ec, n) = co_await http::async_read_header(stream, buffer, parser, kTuple);
    connection->idle = false;
    bool too_large = ec == http::error::body_limit;
    if (ec && !too_large) break;

    // A big body waits for a lane slot before it is read (server/heavy_lane).
    std::optional<std::uint64_t> content_length;
    if (parser.content_length()) content_length = *parser.content_length();
    std::optional<HeavyLane::Slot> slot;
    if (!too_large && is_heavy_request(content_length, parser.chunked(), parser.get()[http::field::content_encoding])) {
      slot.emplace(co_await lane_.acquire());
    }

    if (!too_large && !parser.is_done()) {
      if (beast::iequals(parser.get()[http::field::expect], "100-continue")) {
        http::response<http::empty_body> go_on{http::status::continue_, parser.get().version()};
        stream.expires_after(limits_.io_timeout);
        auto [wec, wn] = co_await http::async_write(stream, go_on, kTuple);
        if (wec) break;
      }
      stream.expires_after(limits_.io_timeout);
      auto [rec, rn] = co_await http::async_read(stream, buffer, parser, kTuple);
      too_large = rec == http::error::body_limit;
      if (rec && !too_large) break;
    }

    HttpRequest& request = parser.get();
    // A big request's answer may be big too: its buffer goes with it.
    std::string heavy_wire;
    std::string& out = slot ? heavy_wire : wire;
    std::optional<bool> keep_alive;  // nullopt: close without an answer
    if (too_large) {
      HttpResponse response = too_large_(request);
      response.keep_alive(false);
      response.prepare_payload();
      serialize(response, out);
      keep_alive = false;
    } else if (slot) {
      // Inflated, decoded and handled on a lane thread; this one goes back to
      // its other connections meanwhile.
      keep_alive = co_await asio::co_spawn(lane_.next_executor(), answer(request, out), use_awaitable);
    } else {
      keep_alive = co_await answer(request, out);
    }
    if (!keep_alive.has_value()) break;
    stream.expires_after(limits_.io_timeout);
    auto [wec, wn] = co_await asio::async_write(stream, asio::buffer(out), kTuple);
    if (wec || !*keep_alive) break;
  }
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  stream.close();
  std::lock_guard lock(connections_mutex_);
  connections_.erase(connection.get());
}

asio::awaitable<std::optional<bool>> HttpServer::answer(HttpRequest& request, std::string& wire) {
  HttpResponse response;
  bool dropped = false;
  try {
    response = co_await handler_(request);
  } catch (const DropConnection&) {
    dropped = true;
  } catch (const std::exception& e) {
    spdlog::error("request handler failed: {}", e.what());
    response = HttpResponse(http::status::internal_server_error, request.version());
  }
  if (dropped) co_return std::nullopt;
  response.keep_alive(request.keep_alive() && !stopping_);
  response.prepare_payload();
  serialize(response, wire);
  co_return response.keep_alive();
}

}  // namespace dynamod
