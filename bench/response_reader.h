#pragma once
// An HTTP/1.1 response parser on Beast's basic_parser that keeps only what the
// load generator looks at: the status and the body, appended to a string the
// caller reuses across responses (so a response costs no allocation once the
// string has grown). Headers are parsed and dropped. One reader per message,
// as Beast requires; it is a small object meant to live on the stack.

#include <boost/beast/http/basic_parser.hpp>

#include <string>

namespace dynamod::bench {

class ResponseReader : public boost::beast::http::basic_parser<false> {
 public:
  explicit ResponseReader(std::string& body) : body_(body) {
    body_.clear();
    body_limit(std::uint64_t{64} << 20);
    header_limit(64 * 1024);
  }
  int status() const { return status_; }

 private:
  using error_code = boost::beast::error_code;
  using string_view = boost::beast::string_view;

  void on_request_impl(boost::beast::http::verb, string_view, string_view, int, error_code&) override {}
  void on_response_impl(int code, string_view, int, error_code&) override { status_ = code; }
  void on_field_impl(boost::beast::http::field, string_view, string_view, error_code&) override {}
  void on_header_impl(error_code&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>& length, error_code&) override {
    if (length) body_.reserve(static_cast<std::size_t>(*length));
  }
  std::size_t on_body_impl(string_view data, error_code&) override {
    body_.append(data.data(), data.size());
    return data.size();
  }
  void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, string_view data, error_code&) override {
    body_.append(data.data(), data.size());
    return data.size();
  }
  void on_finish_impl(error_code&) override {}

  std::string& body_;
  int status_ = 0;
};

}  // namespace dynamod::bench
