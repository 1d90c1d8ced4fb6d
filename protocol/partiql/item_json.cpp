#include "protocol/partiql/item_json.h"

#include <simdjson.h>

#include "protocol/attribute_json.h"

namespace dynamod::partiql {

std::optional<Item> parse_item_json(std::string_view json) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(json);
  try {
    simdjson::ondemand::document doc;
    simdjson::ondemand::value root;
    if (parser.iterate(padded).get(doc) != simdjson::SUCCESS || doc.get_value().get(root) != simdjson::SUCCESS) {
      return std::nullopt;
    }
    return decode_item(root);
  } catch (const ApiError&) {
    return std::nullopt;  // the caller reports the text as invalid in its own words
  } catch (const simdjson::simdjson_error&) {
    return std::nullopt;
  }
}

}  // namespace dynamod::partiql
