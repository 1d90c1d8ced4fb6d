// CSV import objects: RFC 4180 records, typed by the table's key attributes.

#include "protocol/attribute_json.h"
#include "protocol/base64.h"
#include "protocol/import_data.h"

namespace dynamod::imports {
namespace {

// One record's fields, or why the object cannot be read on from here.
struct Record {
  std::vector<std::string> fields;
  std::size_t line = 0;   // where it starts
  std::size_t bytes = 0;  // its bytes in the object, line break included
  bool blank = false;     // an empty line
};

class CsvScanner {
 public:
  CsvScanner(std::string_view text, char delimiter) : text_(text), delimiter_(delimiter) {}

  bool done() const { return pos_ >= text_.size(); }

  // Reads the next record. Returns false (with `why`) when a quoted field is
  // never closed or a quote sits inside an unquoted field: the object is
  // unreadable past that point.
  bool next(Record& record, std::string& why) {
    record = Record{};
    record.line = line_;
    const std::size_t start = pos_;
    std::string field;
    bool quoted = false;  // the current field started with a quote
    bool closed = false;  // ... and its closing quote was seen
    for (;;) {
      if (pos_ >= text_.size()) {
        if (quoted && !closed) {
          why = "A quoted field that starts on line " + std::to_string(record.line) + " is never closed";
          return false;
        }
        break;
      }
      const char c = text_[pos_++];
      if (quoted && !closed) {
        if (c == '"') {
          if (pos_ < text_.size() && text_[pos_] == '"') {
            field.push_back('"');
            ++pos_;
          } else {
            closed = true;
          }
        } else {
          if (c == '\n') ++line_;
          field.push_back(c);
        }
        continue;
      }
      if (c == delimiter_) {
        record.fields.push_back(std::move(field));
        field.clear();
        quoted = closed = false;
        continue;
      }
      if (c == '\n' || (c == '\r' && pos_ < text_.size() && text_[pos_] == '\n')) {
        if (c == '\r') ++pos_;
        ++line_;
        break;
      }
      if (c == '"') {
        if (field.empty() && !quoted) {
          quoted = true;
          continue;
        }
        why = "Line " + std::to_string(line_) + " has a quote inside a field that is not quoted (escape it as \"\")";
        return false;
      }
      if (closed) {
        why = "Line " + std::to_string(line_) + " has characters after the closing quote of a field";
        return false;
      }
      field.push_back(c);
    }
    record.blank = record.fields.empty() && field.empty() && !quoted;
    record.fields.push_back(std::move(field));
    record.bytes = pos_ - start;
    return true;
  }

 private:
  std::string_view text_;
  char delimiter_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

const AttributeDefinition* find_key(const std::vector<AttributeDefinition>& keys, const std::string& name) {
  for (const auto& k : keys) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

AttributeValue typed_value(std::string text, const AttributeDefinition* key) {
  if (key == nullptr || key->type == ScalarType::S) return AttributeValue::string(std::move(text));
  if (key->type == ScalarType::N) return AttributeValue::number(parse_number_or_throw(text));
  std::optional<std::string> bytes = base64_decode(text);
  if (!bytes) throw ApiError::validation("The value of " + key->name + " is not base64 (its type is B)");
  return AttributeValue::binary(std::move(*bytes));
}

}  // namespace

void read_csv(std::string_view text, const CsvOptions& options, const std::vector<AttributeDefinition>& key_attributes,
              ItemSink& sink) {
  CsvScanner scanner(text, options.delimiter);
  std::vector<std::string> header;
  if (options.header_list) header = *options.header_list;
  Record record;
  std::string why;
  while (!scanner.done()) {
    if (!scanner.next(record, why)) {
      sink.error(record.line, why);
      return;
    }
    if (record.blank) continue;
    if (header.empty()) {
      header = std::move(record.fields);
      continue;
    }
    if (record.fields.size() != header.size()) {
      sink.error(record.line, "Line " + std::to_string(record.line) + " has " + std::to_string(record.fields.size()) +
                                  " fields where the header has " + std::to_string(header.size()));
      continue;
    }
    try {
      Item item;
      for (std::size_t i = 0; i < header.size(); ++i) {
        if (record.fields[i].empty()) continue;
        item.set(header[i], typed_value(std::move(record.fields[i]), find_key(key_attributes, header[i])));
      }
      sink.item(std::move(item), record.line, record.bytes);
    } catch (const ApiError& e) {
      sink.error(record.line, e.message());
    }
  }
}

}  // namespace dynamod::imports
