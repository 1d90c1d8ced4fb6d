// ION import objects: the records of an export in Ion text ({Item:{...}} per
// line after an $ion_1_0 marker), read with protocol/ion_text (depth bounded
// at ion::kMaxDepth).

#include "protocol/api_error.h"
#include "protocol/import_data.h"
#include "protocol/ion_text.h"

namespace dynamod::imports {
namespace {

// One record: {Item: {...}} (the item struct itself is refused, as a
// DYNAMODB_JSON record without Item is).
Item record_item(const ion::Value& record) {
  if (record.kind != ion::Value::Kind::Struct) throw ApiError::validation("The record is not an Ion struct");
  const ion::Value* item = record.field("Item");
  if (item == nullptr) throw ApiError::validation("The record has no Item member");
  return ion::to_item(*item);
}

void read_values(const std::vector<ion::Value>& values, std::size_t line, std::size_t bytes, ItemSink& sink) {
  for (const ion::Value& v : values) {
    try {
      sink.item(record_item(v), line, bytes);
    } catch (const ApiError& e) {
      sink.error(line, e.message());
    }
  }
}

}  // namespace

void read_ion(std::string_view text, ItemSink& sink) {
  // Records one per line, as exports write them, so that a bad line costs
  // only itself; a record spread over lines is read with the whole object
  // when the object reads as one stream.
  std::size_t number = 0;
  bool per_line_ok = true;
  std::vector<std::pair<std::size_t, std::string>> errors;
  std::string_view rest = text;
  struct Parsed {
    std::vector<ion::Value> values;
    std::size_t line, bytes;
  };
  std::vector<Parsed> lines;
  while (!rest.empty()) {
    ++number;
    const std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    const std::size_t bytes = end == std::string_view::npos ? line.size() : line.size() + 1;
    rest.remove_prefix(bytes);
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    try {
      lines.push_back({ion::parse(line), number, bytes});
    } catch (const ApiError& e) {
      per_line_ok = false;
      errors.emplace_back(number, e.message());
    }
  }
  if (!per_line_ok) {
    try {
      read_values(ion::parse(text), 0, text.size(), sink);
      return;
    } catch (const ApiError&) {
      // Not one stream either: the lines that read are items, the others errors.
    }
  }
  std::size_t next_error = 0;
  for (const Parsed& p : lines) {
    while (next_error < errors.size() && errors[next_error].first < p.line) {
      sink.error(errors[next_error].first, errors[next_error].second);
      ++next_error;
    }
    read_values(p.values, p.line, p.bytes, sink);
  }
  for (; next_error < errors.size(); ++next_error) sink.error(errors[next_error].first, errors[next_error].second);
}

}  // namespace dynamod::imports
