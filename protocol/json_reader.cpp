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

}  // namespace

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
