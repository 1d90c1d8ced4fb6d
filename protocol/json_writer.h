#pragma once
// JsonWriter: appends JSON to one string buffer. Callers emit keys and values
// in order; the writer inserts commas. No DOM, no allocation beyond the buffer.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dynamod {

class JsonWriter {
 public:
  JsonWriter() { out_.reserve(256); }

  void begin_object() {
    value_prefix();
    out_.push_back('{');
    first_.push_back(true);
  }
  void end_object() {
    out_.push_back('}');
    first_.pop_back();
  }
  void begin_array() {
    value_prefix();
    out_.push_back('[');
    first_.push_back(true);
  }
  void end_array() {
    out_.push_back(']');
    first_.pop_back();
  }

  // An object member name; the next call writes its value.
  void key(std::string_view name);

  void string(std::string_view s) {
    value_prefix();
    append_quoted(s);
  }
  void boolean(bool b) {
    value_prefix();
    out_ += b ? "true" : "false";
  }
  void null() {
    value_prefix();
    out_ += "null";
  }
  void integer(std::int64_t v);
  void unsigned_integer(std::uint64_t v);
  // A double as the service prints capacity units: 1.0, 0.5, 12.5.
  void real(double v);
  // Text that is already valid JSON.
  void raw(std::string_view json) {
    value_prefix();
    out_ += json;
  }
  // A string value given as its base64 encoding of bytes.
  void base64(std::string_view bytes);

  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

  static void append_escaped(std::string& out, std::string_view s);

 private:
  void value_prefix() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) out_.push_back(',');
      first_.back() = false;
    }
  }
  void append_quoted(std::string_view s) {
    out_.push_back('"');
    append_escaped(out_, s);
    out_.push_back('"');
  }

  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace dynamod
