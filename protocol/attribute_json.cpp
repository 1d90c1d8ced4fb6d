#include "protocol/attribute_json.h"

#include "protocol/base64.h"

#include <algorithm>

namespace dynamod {
namespace {

AttributeValue decode_value(json::value& v, int depth);

std::string decode_binary(json::value& v) {
  std::string_view text = json::read_string(v);
  auto bytes = base64_decode(text);
  if (!bytes) {
    throw ApiError::serialization("Base64 encoded length is expected a multiple of 4 bytes but found: " +
                                  std::to_string(text.size()));
  }
  return std::move(*bytes);
}

// Renders a set's members for the duplicates message: "[a, a]".
template <typename Range, typename Render>
std::string render_collection(const Range& values, Render render) {
  std::string out = "[";
  bool first = true;
  for (const auto& v : values) {
    if (!first) out += ", ";
    first = false;
    out += render(v);
  }
  out += "]";
  return out;
}

// The service words these three sets' messages differently (sic, all of them).
[[noreturn]] void throw_empty_set(AttributeType type) {
  switch (type) {
    case AttributeType::SS: throw ApiError::invalid_parameter("An string set  may not be empty");
    case AttributeType::NS: throw ApiError::invalid_parameter("An number set  may not be empty");
    default: throw ApiError::invalid_parameter("Binary sets should not be empty");
  }
}

StringSet decode_string_set(json::value& v) {
  StringSet set;
  for (auto element : json::read_array(v)) {
    json::value e = element.value();
    set.values.emplace_back(json::read_string(e));
  }
  if (set.values.empty()) throw_empty_set(AttributeType::SS);
  std::vector<std::string> original = set.values;
  if (!normalize_set(set.values)) {
    throw ApiError::invalid_parameter("Input collection " +
                                      render_collection(original, [](const std::string& s) { return s; }) +
                                      " contains duplicates.");
  }
  return set;
}

NumberSet decode_number_set(json::value& v) {
  NumberSet set;
  std::vector<std::string> texts;
  for (auto element : json::read_array(v)) {
    json::value e = element.value();
    texts.emplace_back(json::read_string(e));
  }
  if (texts.empty()) throw_empty_set(AttributeType::NS);
  set.values.reserve(texts.size());
  for (const auto& t : texts) set.values.push_back(parse_number_or_throw(t));
  if (!normalize_set(set.values)) throw ApiError::validation("Input collection contains duplicates");
  return set;
}

BinarySet decode_binary_set(json::value& v) {
  BinarySet set;
  for (auto element : json::read_array(v)) {
    json::value e = element.value();
    set.values.push_back(decode_binary(e));
  }
  if (set.values.empty()) throw_empty_set(AttributeType::BS);
  std::vector<std::string> original = set.values;
  if (!normalize_set(set.values)) {
    throw ApiError::invalid_parameter("Input collection " +
                                      render_collection(original,
                                                        [](const std::string& s) {
                                                          std::string b64;
                                                          base64_encode_append(b64, s);
                                                          return b64;
                                                        }) +
                                      "of type BS contains duplicates.");
  }
  return set;
}

// The members are sorted once, not inserted one by one into the sorted map:
// each insertion moves the entries behind it, quadratic for a wide map whose
// members come in reverse order (600,000 of them fit in a 16 MB body).
Map decode_map(json::value& v, int depth) {
  std::vector<Map::Entry> entries;
  for (auto field : json::read_object(v)) {
    std::string name(field.unescaped_key().value());
    json::value value = field.value();
    entries.emplace_back(std::move(name), decode_value(value, depth + 1));
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Map::Entry& a, const Map::Entry& b) { return a.first < b.first; });
  Map map;
  map.reserve(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    // A repeated JSON member replaces the earlier one, as in Jackson: the last of a run wins.
    if (i + 1 < entries.size() && entries[i + 1].first == entries[i].first) continue;
    map.append_sorted(std::move(entries[i].first), std::move(entries[i].second));
  }
  return map;
}

List decode_list(json::value& v, int depth) {
  List list;
  for (auto element : json::read_array(v)) {
    json::value value = element.value();
    list.values.push_back(decode_value(value, depth + 1));
  }
  return list;
}

AttributeValue decode_value(json::value& v, int depth) {
  if (depth > kMaxNestingDepth) throw ApiError::validation(std::string(kNestingLimitMessage));
  int types_set = 0;
  AttributeValue result;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (json::is_null(value)) continue;
    ++types_set;
    if (key == "S") {
      result = AttributeValue::string(std::string(json::read_string(value)));
    } else if (key == "N") {
      result = AttributeValue::number(parse_number_or_throw(json::read_string(value)));
    } else if (key == "B") {
      result = AttributeValue::binary(decode_binary(value));
    } else if (key == "BOOL") {
      result = AttributeValue::boolean(json::read_bool(value));
    } else if (key == "NULL") {
      if (!json::read_bool(value)) {
        throw ApiError::invalid_parameter("Null attribute value types must have the value of true");
      }
      result = AttributeValue::null();
    } else if (key == "SS") {
      result = AttributeValue::string_set(decode_string_set(value));
    } else if (key == "NS") {
      result = AttributeValue::number_set(decode_number_set(value));
    } else if (key == "BS") {
      result = AttributeValue::binary_set(decode_binary_set(value));
    } else if (key == "L") {
      result = AttributeValue::list(decode_list(value, depth));
    } else if (key == "M") {
      result = AttributeValue::map(decode_map(value, depth));
    } else {
      // Unknown members are ignored by the service's deserializer.
      --types_set;
    }
  }
  if (types_set == 0) {
    throw ApiError::validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
  }
  if (types_set > 1) {
    throw ApiError::validation(
        "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported "
        "datatypes");
  }
  return result;
}

}  // namespace

ApiError number_error(Number::ParseError error, std::string_view text) {
  switch (error) {
    case Number::ParseError::TooManyDigits:
      return ApiError::validation("Attempting to store more than 38 significant digits in a Number");
    case Number::ParseError::Overflow:
      return ApiError::validation(
          "Number overflow. Attempting to store a number with magnitude larger than supported range");
    case Number::ParseError::Underflow:
      return ApiError::validation(
          "Number underflow. Attempting to store a number with magnitude smaller than supported range");
    case Number::ParseError::NotANumber: break;
  }
  if (text.empty()) return ApiError::validation("The parameter cannot be converted to a numeric value");
  return ApiError::validation("The parameter cannot be converted to a numeric value: " + std::string(text));
}

Number parse_number_or_throw(std::string_view text) {
  auto parsed = Number::parse(text);
  if (!parsed.number) throw number_error(parsed.error, text);
  return std::move(*parsed.number);
}

// A value standing alone (an ExpressionAttributeValue, a key, a parameter) nests as deep as an
// attribute of an item may: the service refuses 32 nested levels inside either with the item's
// text, before any condition is evaluated (docs/service-fidelity.md).
AttributeValue decode_attribute_value(json::value& v) { return decode_value(v, 1); }

Item decode_item(json::value& v) { return decode_map(v, 0); }

void encode_attribute_value(JsonWriter& out, const AttributeValue& value) {
  out.begin_object();
  out.key(type_name(value.type()));
  switch (value.type()) {
    case AttributeType::S: out.string(value.as_string()); break;
    case AttributeType::N: out.string(value.as_number().to_string()); break;
    case AttributeType::B: out.base64(value.as_binary()); break;
    case AttributeType::BOOL: out.boolean(value.as_bool()); break;
    case AttributeType::NUL: out.boolean(true); break;
    case AttributeType::SS:
      out.begin_array();
      for (const auto& s : value.as_string_set().values) out.string(s);
      out.end_array();
      break;
    case AttributeType::NS:
      out.begin_array();
      for (const auto& n : value.as_number_set().values) out.string(n.to_string());
      out.end_array();
      break;
    case AttributeType::BS:
      out.begin_array();
      for (const auto& b : value.as_binary_set().values) out.base64(b);
      out.end_array();
      break;
    case AttributeType::L:
      out.begin_array();
      for (const auto& e : value.as_list().values) encode_attribute_value(out, e);
      out.end_array();
      break;
    case AttributeType::M: encode_item(out, value.as_map()); break;
  }
  out.end_object();
}

void encode_item(JsonWriter& out, const Item& item) {
  out.begin_object();
  for (const auto& [name, value] : item) {
    out.key(name);
    encode_attribute_value(out, value);
  }
  out.end_object();
}

}  // namespace dynamod
