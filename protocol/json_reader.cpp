#include "protocol/json_reader.h"

namespace dynamod::json {
namespace {

// The token names of the service's (Jackson-based) deserializer.
std::string_view scalar_token(simdjson::ondemand::json_type type, value& v) {
  using simdjson::ondemand::json_type;
  switch (type) {
    case json_type::number: return "NUMBER_VALUE";
    case json_type::string: return "STRING_VALUE";
    case json_type::boolean: {
      bool b = false;
      return v.get_bool().get(b) == simdjson::SUCCESS && b ? "TRUE_VALUE" : "FALSE_VALUE";
    }
    default: return "NULL_VALUE";
  }
}

[[noreturn]] void malformed() { throw ApiError::serialization(""); }

// How deeply objects and arrays may nest in a request body: the limit of the
// service's JSON parser (Jackson's StreamReadConstraints, 1,000 levels; DynamoDB
// Local fails at 1,001 too). A body nested deeper is unreadable to it, a
// SerializationException with no message. A valid request nests far less (an
// item's 32 levels are some 65 of JSON), and no walk over a body's tokens, this
// first one or any after it, goes deeper than this on a thread's stack.
constexpr int kMaxJsonDepth = 1000;

template <typename T>
T checked(simdjson::simdjson_result<T> result) {
  T out{};
  if (std::move(result).get(out) != simdjson::SUCCESS) malformed();
  return out;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// JSON's number grammar: simdjson's first pass takes any run of number
// characters as one token (01, 1., 1e, --1) and checks it only when read.
bool is_json_number(std::string_view token) {
  while (!token.empty() &&
         (token.back() == ' ' || token.back() == '\t' || token.back() == '\n' || token.back() == '\r')) {
    token.remove_suffix(1);  // the raw token runs up to the next token
  }
  std::size_t i = 0;
  const std::size_t n = token.size();
  auto digits = [&] {
    const std::size_t start = i;
    while (i < n && is_digit(token[i])) ++i;
    return i > start;
  };
  if (i < n && token[i] == '-') ++i;
  if (i < n && token[i] == '0') {
    ++i;
  } else if (i >= n || token[i] < '1' || token[i] > '9' || !digits()) {
    return false;
  }
  if (i < n && token[i] == '.' && (++i, !digits())) return false;
  if (i < n && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < n && (token[i] == '+' || token[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

// `depth` counts the objects and arrays `v` sits in (the root is 0), checked
// before descending.
void check_value(value& v, int depth) {
  using simdjson::ondemand::json_type;
  const json_type type = checked(v.type());
  if ((type == json_type::object || type == json_type::array) && depth >= kMaxJsonDepth) malformed();
  switch (type) {
    case json_type::object:
      for (auto member : checked(v.get_object())) {
        simdjson::ondemand::field field = checked(std::move(member));
        checked(field.unescaped_key());
        check_value(field.value(), depth + 1);
      }
      break;
    case json_type::array:
      for (auto element : checked(v.get_array())) {
        value child = checked(std::move(element));
        check_value(child, depth + 1);
      }
      break;
    case json_type::string: checked(v.get_string()); break;
    case json_type::number:
      if (!is_json_number(v.raw_json_token())) malformed();
      break;
    case json_type::boolean: checked(v.get_bool()); break;
    case json_type::null:
      if (!checked(v.is_null())) malformed();
      break;
  }
}

}  // namespace

object request_object(simdjson::ondemand::parser& parser, std::string& body, simdjson::ondemand::document& doc) {
  body.reserve(body.size() + simdjson::SIMDJSON_PADDING);
  doc = checked(parser.iterate(simdjson::padded_string_view(body.data(), body.size(), body.capacity())));
  // One walk over every token, then back to the start for the decoders. What
  // follows the root value is left as it was: DynamoDB Local (Jackson) ignores
  // it, and what the service does is not established.
  value root = checked(doc.get_value());
  check_value(root, 0);
  doc.rewind();
  return checked(doc.get_object());
}

ApiError type_mismatch(value& v, std::string_view expected) {
  using simdjson::ondemand::json_type;
  json_type type;
  if (v.type().get(type) != simdjson::SUCCESS) return ApiError::serialization("");
  if (type == json_type::object) return ApiError::serialization("Start of structure or map found where not expected");
  if (type == json_type::array) return ApiError::serialization("Start of list found where not expected");
  if (expected == "list") return ApiError::serialization("Expected list or null");
  if (expected == "map") return ApiError::serialization("Expected map or null");
  std::string message(scalar_token(type, v));
  message += " cannot be converted to ";
  message += expected;
  return ApiError::serialization(std::move(message));
}

bool is_null(value& v) { return v.is_null(); }

std::string_view read_string(value& v) {
  std::string_view s;
  if (v.get_string().get(s) != simdjson::SUCCESS) throw type_mismatch(v, "String");
  return s;
}

bool read_bool(value& v) {
  bool b = false;
  if (v.get_bool().get(b) != simdjson::SUCCESS) throw type_mismatch(v, "Boolean");
  return b;
}

std::int64_t read_integer(value& v) {
  std::int64_t i = 0;
  if (v.get_int64().get(i) != simdjson::SUCCESS) throw type_mismatch(v, "Long");
  return i;
}

object read_object(value& v) {
  object o;
  if (v.get_object().get(o) != simdjson::SUCCESS) throw type_mismatch(v, "map");
  return o;
}

array read_array(value& v) {
  array a;
  if (v.get_array().get(a) != simdjson::SUCCESS) throw type_mismatch(v, "list");
  return a;
}

}  // namespace dynamod::json
