#pragma once
// The load generator's keep-alive HTTP/1.1 connection, and a signed call of one
// DynamoDB operation over it (for loading and control requests; timed runs sign
// their own templates, bench/timed_run.cpp).

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>

#include <string>
#include <string_view>

#include "bench/loadgen.h"
#include "bench/response_reader.h"

namespace dynamod::bench {

namespace http = boost::beast::http;

// A keep-alive connection that sends one request at a time.
class Connection {
 public:
  Connection(asio::any_io_executor executor, tcp::endpoint endpoint)
      : socket_(std::move(executor)), endpoint_(endpoint) {}

  // Sends the request and reads the answer into body(); returns the HTTP
  // status, or 0 with error() set when the connection failed.
  asio::awaitable<int> exchange(std::string_view wire) {
    error_.clear();
    if (!socket_.is_open()) {
      auto [ec] = co_await socket_.async_connect(endpoint_, kTuple);
      if (ec) {
        fail("connect: " + ec.message());
        co_return 0;
      }
      boost::system::error_code ignored;
      socket_.set_option(tcp::no_delay(true), ignored);
    }
    auto [wec, wn] = co_await asio::async_write(socket_, asio::buffer(wire.data(), wire.size()), kTuple);
    if (wec) {
      fail("write: " + wec.message());
      co_return 0;
    }
    ResponseReader reader(body_);
    auto [rec, rn] = co_await http::async_read(socket_, buffer_, reader, kTuple);
    if (rec) {
      fail("read: " + rec.message());
      co_return 0;
    }
    if (!reader.keep_alive()) close();
    co_return reader.status();
  }

  void close() {
    boost::system::error_code ignored;
    socket_.close(ignored);
    buffer_.clear();
  }
  const std::string& body() const { return body_; }
  const std::string& error() const { return error_; }

 private:
  void fail(std::string why) {
    error_ = std::move(why);
    close();
  }

  tcp::socket socket_;
  tcp::endpoint endpoint_;
  boost::beast::flat_buffer buffer_;
  std::string body_;
  std::string error_;
};

tcp::endpoint resolve(const Options& o);

struct Call {
  int status = 0;
  std::string body;
  std::string error_type;  // empty on success
};

asio::awaitable<Call> call(Connection& c, Signer& signer, const Options& o, std::string_view operation,
                           std::string_view body);

}  // namespace dynamod::bench
