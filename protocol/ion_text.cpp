#include "protocol/ion_text.h"

#include <cstdint>

#include "protocol/api_error.h"
#include "protocol/base64.h"

namespace dynamod::ion {
namespace {

bool identifier_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
bool identifier_char(char c) { return identifier_start(c) || (c >= '0' && c <= '9'); }

// Words that would read back as something else if written bare.
bool reserved(std::string_view s) {
  return s == "null" || s == "true" || s == "false" || s == "nan" || s == "+inf" || s == "-inf" ||
         s.rfind("null.", 0) == 0;
}

void append_hex_escape(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out.push_back(kHex[c >> 4]);
  out.push_back(kHex[c & 15]);
}

// Ion text is UTF-8: bytes at or above 0x80 pass through, control characters are escaped.
void write_quoted(std::string& out, std::string_view s, char quote) {
  out.push_back(quote);
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == quote || ch == '\\') {
      out.push_back('\\');
      out.push_back(ch);
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      append_hex_escape(out, c);
    } else {
      out.push_back(ch);
    }
  }
  out.push_back(quote);
}

void write_blob(std::string& out, std::string_view bytes) {
  out += "{{";
  base64_encode_append(out, bytes);
  out += "}}";
}

template <typename Values, typename WriteOne>
void write_set(std::string& out, std::string_view annotation, const Values& values, WriteOne write_one) {
  out += annotation;
  out += "::[";
  bool first = true;
  for (const auto& v : values) {
    if (!first) out.push_back(',');
    first = false;
    write_one(v);
  }
  out.push_back(']');
}

}  // namespace

void write_symbol(std::string& out, std::string_view name) {
  bool bare = !name.empty() && identifier_start(name.front()) && !reserved(name);
  for (char c : name) bare = bare && identifier_char(c);
  if (bare) {
    out += name;
  } else {
    write_quoted(out, name, '\'');
  }
}

void write_decimal(std::string& out, const Number& number) {
  if (number.is_zero()) {
    out += "0.";
    return;
  }
  if (number.negative()) out.push_back('-');
  const std::string& digits = number.digits();
  // value = 0.digits x 10^exponent = digits x 10^scale
  const int scale = number.exponent() - static_cast<int>(digits.size());
  if (scale == 0) {
    out += digits;
    out.push_back('.');
  } else if (scale > 0) {
    out += digits;
    out += "d" + std::to_string(scale);
  } else if (number.exponent() > 0) {  // a point inside the digits: 1.5
    out.append(digits, 0, static_cast<std::size_t>(number.exponent()));
    out.push_back('.');
    out.append(digits, static_cast<std::size_t>(number.exponent()));
  } else if (number.exponent() > -6) {  // a small fraction: 0.001
    out += "0.";
    out.append(static_cast<std::size_t>(-number.exponent()), '0');
    out += digits;
  } else {
    out += digits;
    out += "d" + std::to_string(scale);
  }
}

void write_value(std::string& out, const AttributeValue& value) {
  switch (value.type()) {
    case AttributeType::S: write_quoted(out, value.as_string(), '"'); return;
    case AttributeType::N: write_decimal(out, value.as_number()); return;
    case AttributeType::B: write_blob(out, value.as_binary()); return;
    case AttributeType::BOOL: out += value.as_bool() ? "true" : "false"; return;
    case AttributeType::NUL: out += "null"; return;
    case AttributeType::SS:
      write_set(out, "$dynamodb_SS", value.as_string_set().values,
                [&](const std::string& s) { write_quoted(out, s, '"'); });
      return;
    case AttributeType::NS:
      write_set(out, "$dynamodb_NS", value.as_number_set().values, [&](const Number& n) { write_decimal(out, n); });
      return;
    case AttributeType::BS:
      write_set(out, "$dynamodb_BS", value.as_binary_set().values, [&](const std::string& b) { write_blob(out, b); });
      return;
    case AttributeType::L: {
      out.push_back('[');
      bool first = true;
      for (const AttributeValue& v : value.as_list().values) {
        if (!first) out.push_back(',');
        first = false;
        write_value(out, v);
      }
      out.push_back(']');
      return;
    }
    case AttributeType::M: write_item(out, value.as_map()); return;
  }
}

void write_item(std::string& out, const Item& item) {
  out.push_back('{');
  bool first = true;
  for (const auto& [name, v] : item) {
    if (!first) out.push_back(',');
    first = false;
    write_symbol(out, name);
    out.push_back(':');
    write_value(out, v);
  }
  out.push_back('}');
}

std::string item_text(const Item& item) {
  std::string out;
  write_item(out, item);
  return out;
}

const Value* Value::field(std::string_view name) const {
  for (const auto& [n, v] : fields) {
    if (n == name) return &v;
  }
  return nullptr;
}

namespace {

// A recursive-descent reader over the text, one value at a time.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool at_end() {
    skip_space();
    return pos_ >= text_.size();
  }

  Value value(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    skip_space();
    std::vector<std::string> annotations;
    // Annotations: symbol:: before the value.
    for (;;) {
      const std::size_t start = pos_;
      std::optional<std::string> symbol = try_symbol();
      if (!symbol) break;
      skip_space();
      if (text_.substr(pos_, 2) == "::") {
        pos_ += 2;
        skip_space();
        annotations.push_back(std::move(*symbol));
        continue;
      }
      pos_ = start;
      break;
    }
    Value v = bare_value(depth);
    v.annotations = std::move(annotations);
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ApiError::validation("Invalid Ion text at offset " + std::to_string(pos_) + ": " + what);
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void skip_space() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (text_.substr(pos_, 2) == "//") {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (text_.substr(pos_, 2) == "/*") {
        const std::size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) fail("unterminated comment");
        pos_ = end + 2;
      } else {
        return;
      }
    }
  }

  void expect(char c) {
    skip_space();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }

  // An identifier or a 'quoted symbol', or nullopt (nothing consumed).
  std::optional<std::string> try_symbol() {
    if (peek() == '\'' && text_.substr(pos_, 3) != "'''") {
      ++pos_;
      return quoted('\'');
    }
    if (!identifier_start(peek())) return std::nullopt;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && identifier_char(text_[pos_])) ++pos_;
    std::string word(text_.substr(start, pos_ - start));
    if (reserved(word)) {
      pos_ = start;
      return std::nullopt;
    }
    return word;
  }

  void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) fail("invalid code point in an escape");
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  std::uint32_t hex_digits(int count) {
    std::uint32_t v = 0;
    for (int i = 0; i < count; ++i) {
      const char c = peek();
      int d = -1;
      if (c >= '0' && c <= '9') d = c - '0';
      else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
      if (d < 0) fail("bad hex digit in an escape");
      v = v * 16 + static_cast<std::uint32_t>(d);
      ++pos_;
    }
    return v;
  }

  // The rest of a string whose opening quote was consumed; stops after the closing one.
  std::string quoted(char quote, bool long_string = false) {
    std::string out;
    for (;;) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_];
      if (long_string && text_.substr(pos_, 3) == "'''") {
        pos_ += 3;
        return out;
      }
      if (!long_string && c == quote) {
        ++pos_;
        return out;
      }
      if (!long_string && (c == '\n' || c == '\r')) fail("newline in a string");
      ++pos_;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      const char e = peek();
      ++pos_;
      switch (e) {
        case 'n': out.push_back('\n'); break;
        case 't': out.push_back('\t'); break;
        case 'r': out.push_back('\r'); break;
        case '0': out.push_back('\0'); break;
        case 'a': out.push_back('\a'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'v': out.push_back('\v'); break;
        case '"':
        case '\'':
        case '\\':
        case '/':
        case '?': out.push_back(e); break;
        case 'x': append_utf8(out, hex_digits(2)); break;
        case 'u': append_utf8(out, hex_digits(4)); break;
        case 'U': append_utf8(out, hex_digits(8)); break;
        case '\n': break;  // an escaped newline continues the string
        default: fail("unknown escape");
      }
    }
  }

  Value number() {
    const std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (text_.substr(pos_, 2) == "0x" || text_.substr(pos_, 2) == "0X" || text_.substr(pos_, 2) == "0b" ||
        text_.substr(pos_, 2) == "0B") {
      fail("hexadecimal and binary ints are not supported");
    }
    Value v;
    v.kind = Value::Kind::Int;
    bool digit_seen = false;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c >= '0' && c <= '9') {
        digit_seen = true;
        v.text.push_back(c);
      } else if (c == '_') {
      } else if (c == '.') {
        if (v.kind != Value::Kind::Int) fail("a second decimal point");
        v.kind = Value::Kind::Decimal;
        v.text.push_back(c);
      } else if (c == 'd' || c == 'D' || c == 'e' || c == 'E') {
        if (v.kind == Value::Kind::Float) fail("a second exponent");
        const bool decimal = c == 'd' || c == 'D';
        if (v.text.find('e') != std::string::npos) fail("a second exponent");
        v.kind = decimal ? Value::Kind::Decimal : Value::Kind::Float;
        v.text.push_back('e');
        if (pos_ + 1 < text_.size() && (text_[pos_ + 1] == '+' || text_[pos_ + 1] == '-')) {
          v.text.push_back(text_[++pos_]);
        }
      } else {
        break;
      }
      ++pos_;
    }
    if (!digit_seen) fail("not a number");
    if (text_[start] == '-') v.text.insert(v.text.begin(), '-');
    if (pos_ < text_.size() && identifier_char(text_[pos_])) fail("unexpected character after a number");
    return v;
  }

  Value blob() {
    // After "{{": base64 with whitespace, then "}}".
    std::string base64;
    for (;;) {
      if (pos_ >= text_.size()) fail("unterminated blob");
      const char c = text_[pos_];
      if (c == '}') break;
      if (c == '"' || c == '\'') fail("clobs are not supported");
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') base64.push_back(c);
      ++pos_;
    }
    if (text_.substr(pos_, 2) != "}}") fail("expected '}}'");
    pos_ += 2;
    std::optional<std::string> bytes = base64_decode(base64);
    if (!bytes) fail("a blob that is not base64");
    Value v;
    v.kind = Value::Kind::Blob;
    v.text = std::move(*bytes);
    return v;
  }

  Value container_list(int depth) {
    Value v;
    v.kind = Value::Kind::List;
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return v;
    }
    for (;;) {
      v.items.push_back(value(depth + 1));
      skip_space();
      if (peek() == ',') {
        ++pos_;
        skip_space();
        if (peek() == ']') {  // a trailing comma
          ++pos_;
          return v;
        }
        continue;
      }
      expect(']');
      return v;
    }
  }

  Value container_struct(int depth) {
    Value v;
    v.kind = Value::Kind::Struct;
    for (;;) {
      skip_space();
      if (peek() == '}') {
        ++pos_;
        return v;
      }
      std::string name;
      if (peek() == '"') {
        ++pos_;
        name = quoted('"');
      } else if (text_.substr(pos_, 3) == "'''") {
        pos_ += 3;
        name = quoted('\'', true);
      } else if (std::optional<std::string> symbol = try_symbol()) {
        name = std::move(*symbol);
      } else {
        fail("expected a field name");
      }
      expect(':');
      v.fields.push_back(Field{std::move(name), value(depth + 1)});
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('}');
      return v;
    }
  }

  Value bare_value(int depth) {
    const char c = peek();
    if (c == '{') {
      if (text_.substr(pos_, 2) == "{{") {
        pos_ += 2;
        return blob();
      }
      ++pos_;
      return container_struct(depth);
    }
    if (c == '[') {
      ++pos_;
      return container_list(depth);
    }
    if (c == '(') fail("s-expressions are not supported");
    if (c == '"') {
      ++pos_;
      Value v;
      v.kind = Value::Kind::String;
      v.text = quoted('"');
      return v;
    }
    if (text_.substr(pos_, 3) == "'''") {
      // Long strings: adjacent '''...''' pieces make one string.
      Value v;
      v.kind = Value::Kind::String;
      while (text_.substr(pos_, 3) == "'''") {
        pos_ += 3;
        v.text += quoted('\'', true);
        skip_space();
      }
      return v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      // A timestamp starts with four digits and a '-' or 'T'.
      if (pos_ + 4 < text_.size() && (text_[pos_ + 4] == '-' || text_[pos_ + 4] == 'T') && c != '-') {
        fail("timestamps are not supported");
      }
      return number();
    }
    if (identifier_start(c)) {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && (identifier_char(text_[pos_]) || text_[pos_] == '.')) ++pos_;
      std::string_view word = text_.substr(start, pos_ - start);
      Value v;
      if (word == "true" || word == "false") {
        v.kind = Value::Kind::Bool;
        v.boolean = word == "true";
        return v;
      }
      if (word == "null" || word.rfind("null.", 0) == 0) return v;  // every typed null is DynamoDB's NULL
      if (word == "nan") fail("nan is not a DynamoDB number");
      if (word.find('.') != std::string_view::npos) fail("unexpected '.'");
      v.kind = Value::Kind::Symbol;
      v.text = std::string(word);
      return v;
    }
    if (c == '\'') {
      ++pos_;
      Value v;
      v.kind = Value::Kind::Symbol;
      v.text = quoted('\'');
      return v;
    }
    if (c == '+') fail("+inf is not a DynamoDB number");
    fail(pos_ >= text_.size() ? "unexpected end of text" : "unexpected character");
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

Number number_of(const Value& value) {
  Number::ParseResult parsed = Number::parse(value.text);
  if (!parsed.number) throw ApiError::validation("Invalid Ion text: " + value.text + " is not a DynamoDB number");
  return *parsed.number;
}

AttributeValue to_value(const Value& value, int depth);

AttributeValue set_of(const Value& value, std::string_view annotation) {
  if (value.kind != Value::Kind::List) {
    throw ApiError::validation("Invalid Ion text: " + std::string(annotation) + " annotates a value that is no list");
  }
  if (value.items.empty()) throw ApiError::validation("Invalid Ion text: an empty " + std::string(annotation));
  auto refuse_duplicates = [&](bool unique) {
    if (!unique) throw ApiError::validation("Invalid Ion text: duplicate members in a " + std::string(annotation));
  };
  if (annotation == "$dynamodb_NS") {
    NumberSet set;
    for (const Value& item : value.items) {
      if (item.kind != Value::Kind::Int && item.kind != Value::Kind::Decimal && item.kind != Value::Kind::Float) {
        throw ApiError::validation("Invalid Ion text: a $dynamodb_NS member that is no number");
      }
      set.values.push_back(number_of(item));
    }
    refuse_duplicates(normalize_set(set.values));
    return AttributeValue::number_set(std::move(set));
  }
  const Value::Kind kind = annotation == "$dynamodb_SS" ? Value::Kind::String : Value::Kind::Blob;
  std::vector<std::string> members;
  for (const Value& item : value.items) {
    if (item.kind != kind) {
      throw ApiError::validation("Invalid Ion text: a " + std::string(annotation) + " member of another type");
    }
    members.push_back(item.text);
  }
  refuse_duplicates(normalize_set(members));
  if (kind == Value::Kind::String) return AttributeValue::string_set(StringSet{std::move(members)});
  return AttributeValue::binary_set(BinarySet{std::move(members)});
}

Item item_of(const Value& value, int depth) {
  if (value.kind != Value::Kind::Struct) throw ApiError::validation("Invalid Ion text: an item must be a struct");
  Item item;
  item.reserve(value.fields.size());
  for (const auto& [name, v] : value.fields) {
    if (!item.insert_new(name, to_value(v, depth + 1))) {
      throw ApiError::validation("Invalid Ion text: the field " + name + " appears twice");
    }
  }
  return item;
}

AttributeValue to_value(const Value& value, int depth) {
  if (depth > kMaxDepth) throw ApiError::validation("Invalid Ion text: nesting too deep");
  for (const std::string& annotation : value.annotations) {
    if (annotation == "$dynamodb_SS" || annotation == "$dynamodb_NS" || annotation == "$dynamodb_BS") {
      return set_of(value, annotation);
    }
  }
  switch (value.kind) {
    case Value::Kind::Null: return AttributeValue::null();
    case Value::Kind::Bool: return AttributeValue::boolean(value.boolean);
    case Value::Kind::Int:
    case Value::Kind::Decimal:
    case Value::Kind::Float: return AttributeValue::number(number_of(value));
    case Value::Kind::String: return AttributeValue::string(value.text);
    case Value::Kind::Blob: return AttributeValue::binary(value.text);
    case Value::Kind::Symbol:
      throw ApiError::validation("Invalid Ion text: the symbol " + value.text + " is no attribute value");
    case Value::Kind::List: {
      List list;
      for (const Value& item : value.items) list.values.push_back(to_value(item, depth + 1));
      return AttributeValue::list(std::move(list));
    }
    case Value::Kind::Struct: return AttributeValue::map(item_of(value, depth));
  }
  throw ApiError::validation("Invalid Ion text");
}

}  // namespace

std::vector<Value> parse(std::string_view text) {
  Reader reader(text);
  std::vector<Value> values;
  while (!reader.at_end()) {
    Value v = reader.value(0);
    if (v.kind == Value::Kind::Symbol && v.annotations.empty() && v.text == "$ion_1_0") continue;
    values.push_back(std::move(v));
  }
  return values;
}

AttributeValue to_attribute_value(const Value& value) { return to_value(value, 0); }

Item to_item(const Value& value) { return item_of(value, 0); }

Item read_item(std::string_view text) {
  std::vector<Value> values = parse(text);
  if (values.size() != 1) throw ApiError::validation("Invalid Ion text: expected one struct");
  return to_item(values.front());
}

}  // namespace dynamod::ion
