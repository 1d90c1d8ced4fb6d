#pragma once
// What the table requests' files share besides table_requests.h: reading
// optional members, and the constraints of a key schema. For
// table_requests.cpp, create_table_request.cpp and update_table_request.cpp
// only.

#include <optional>
#include <string>
#include <vector>

#include "protocol/table_requests.h"

namespace dynamod {

std::optional<std::string> read_optional_string(json::value& v);
std::optional<bool> read_optional_bool(json::value& v);

template <typename T, typename Decode>
std::optional<std::vector<T>> read_optional_list(json::value& v, Decode decode) {
  if (json::is_null(v)) return std::nullopt;
  std::vector<T> out;
  for (auto element : json::read_array(v)) {
    json::value e = element.value();
    out.push_back(decode(e));
  }
  return out;
}

RawKeyElement decode_key_element(json::value& v);
std::string render_list(const std::vector<std::string>& values);
void check_key_schema_constraints(const std::optional<std::vector<RawKeyElement>>& key_schema, const std::string& path,
                                  ConstraintErrors& errors, bool global = false);

}  // namespace dynamod
