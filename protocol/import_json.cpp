// DYNAMODB_JSON import objects (one {"Item":{...}} per line) and the JSON
// arrays of items `--seed` takes. Each record is parsed on its own, with the
// request parser's checks (protocol/json_reader: depth bounded at 1,000 levels)
// and the attribute decoder's (32 levels of nesting, the service's messages).

#include <simdjson.h>

#include "protocol/attribute_json.h"
#include "protocol/import_data.h"
#include "protocol/json_reader.h"

namespace dynamod::imports {
namespace {

// The message of a record that is no item: the ApiError's message, or for a
// SerializationException without one (malformed JSON), a plain one.
std::string describe(const ApiError& e, std::string_view what) {
  if (!e.message().empty()) return e.message();
  return std::string(what) + " is not valid JSON";
}

// {"Item": {...}}: the item; SerializationException-free errors name what is wrong.
Item decode_item_record(json::object record) {
  std::optional<Item> item;
  for (auto field : record) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key != "Item") throw ApiError::validation("Unexpected member " + std::string(key) + " in the record");
    if (item) throw ApiError::validation("The record has two Item members");
    item = decode_item(value);
  }
  if (!item) throw ApiError::validation("The record has no Item member");
  return std::move(*item);
}

}  // namespace

void read_dynamodb_json(std::string_view text, ItemSink& sink) {
  simdjson::ondemand::parser parser;
  std::string line;
  std::size_t number = 0;
  while (!text.empty()) {
    ++number;
    const std::size_t end = text.find('\n');
    std::string_view raw = text.substr(0, end);
    const std::size_t bytes = end == std::string_view::npos ? raw.size() : raw.size() + 1;
    text.remove_prefix(bytes);
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    if (raw.find_first_not_of(" \t") == std::string_view::npos) continue;
    line.assign(raw);
    try {
      simdjson::ondemand::document doc;
      json::object record = json::request_object(parser, line, doc);
      sink.item(decode_item_record(record), number, bytes);
    } catch (const ApiError& e) {
      sink.error(number, describe(e, "The line"));
    }
  }
}

void read_item_array(std::string_view text, ItemSink& sink) {
  std::string body(text);
  body.reserve(body.size() + simdjson::SIMDJSON_PADDING);
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  simdjson::ondemand::array items;
  if (parser.iterate(simdjson::padded_string_view(body.data(), body.size(), body.capacity())).get(doc) !=
          simdjson::SUCCESS ||
      doc.get_array().get(items) != simdjson::SUCCESS) {
    sink.error(0, "The file is not a JSON array of items");
    return;
  }
  // The line each element starts on, counted as the walk goes, for the error log.
  std::size_t line = 1;
  std::size_t counted = 0;
  auto line_at = [&](std::string_view raw) {
    const auto offset = static_cast<std::size_t>(raw.data() - body.data());
    for (; counted < offset; ++counted) line += body[counted] == '\n';
    return line;
  };
  simdjson::ondemand::parser element_parser;
  for (auto element : items) {
    simdjson::ondemand::object o;
    std::string_view raw;
    if (element.get_object().get(o) != simdjson::SUCCESS || o.raw_json().get(raw) != simdjson::SUCCESS) {
      sink.error(0, "The file is not a JSON array of items");  // the rest cannot be walked
      return;
    }
    const std::size_t at = line_at(raw);
    std::string record(raw);
    try {
      simdjson::ondemand::document element_doc;
      json::object fields = json::request_object(element_parser, record, element_doc);
      // {"Item": {...}} as in DYNAMODB_JSON, or the item itself: the first member tells.
      bool wrapped = false;
      for (auto field : fields) {
        wrapped = field.unescaped_key().value() == "Item";
        break;
      }
      element_doc.rewind();
      json::value whole = element_doc.get_value().value();
      sink.item(wrapped ? decode_item_record(json::read_object(whole)) : decode_item(whole), at, raw.size());
    } catch (const ApiError& e) {
      sink.error(at, describe(e, "The element"));
    }
  }
}

}  // namespace dynamod::imports
