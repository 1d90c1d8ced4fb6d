#pragma once
// Reading the JSON records dynamod stores for itself (exports', imports'):
// members that are missing or of another type read as empty, zero or
// nullopt, so a record written before a member existed still reads.

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "protocol/json_writer.h"

namespace dynamod::stored_json {

// The record's object (valid while `parser` lives); a runtime_error saying
// "stored <what>: not a JSON object" otherwise.
inline simdjson::dom::object parse_object(simdjson::dom::parser& parser, std::string_view json, std::string_view what) {
  simdjson::dom::object o;
  if (parser.parse(json.data(), json.size()).get(o) != simdjson::SUCCESS) {
    throw std::runtime_error("stored " + std::string(what) + ": not a JSON object");
  }
  return o;
}

inline std::string text(simdjson::dom::object o, std::string_view name) {
  std::string_view v;
  if (o[name].get(v) != simdjson::SUCCESS) return {};
  return std::string(v);
}

inline std::optional<std::string> optional_text(simdjson::dom::object o, std::string_view name) {
  std::string_view v;
  if (o[name].get(v) != simdjson::SUCCESS) return std::nullopt;
  return std::string(v);
}

inline double number(simdjson::dom::object o, std::string_view name) {
  double v = 0;
  if (o[name].get(v) != simdjson::SUCCESS) return 0;
  return v;
}

inline std::int64_t integer(simdjson::dom::object o, std::string_view name) {
  std::int64_t v = 0;
  if (o[name].get(v) != simdjson::SUCCESS) return 0;
  return v;
}

// Writes `name: value` only when there is a value.
inline void optional_member(JsonWriter& out, std::string_view name, const std::optional<std::string>& value) {
  if (!value) return;
  out.key(name);
  out.string(*value);
}

}  // namespace dynamod::stored_json
