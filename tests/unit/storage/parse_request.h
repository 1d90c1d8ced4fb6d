#pragma once
// Engine tests build requests from JSON text, as the server would decode them.

#include <simdjson.h>

#include <string>

namespace dynamod::test {

template <typename Request, typename Decode>
Request parse_request(Decode fn, const std::string& text) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string json(text);
  simdjson::ondemand::document doc = parser.iterate(json);
  return fn(doc.get_object());
}

}  // namespace dynamod::test
