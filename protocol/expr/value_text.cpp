#include "protocol/expr/value_text.h"

#include "protocol/api_error.h"
#include "protocol/base64.h"

namespace dynamod::expr {

std::optional<AttributeType> parse_type_name(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(AttributeType::M); ++i) {
    auto t = static_cast<AttributeType>(i);
    if (type_name(t) == name) return t;
  }
  return std::nullopt;
}

std::string_view long_type_name(AttributeType type) {
  switch (type) {
    case AttributeType::S: return "STRING";
    case AttributeType::N: return "NUMBER";
    case AttributeType::B: return "BINARY";
    case AttributeType::BOOL: return "BOOLEAN";
    case AttributeType::NUL: return "NULL";
    case AttributeType::SS: return "STRING_SET";
    case AttributeType::NS: return "NUMBER_SET";
    case AttributeType::BS: return "BINARY_SET";
    case AttributeType::L: return "LIST";
    case AttributeType::M: return "MAP";
  }
  return "";
}

std::string render_bound(const AttributeValue& v) {
  std::string out = "AttributeValue: {";
  out += type_name(v.type());
  out += ':';
  switch (v.type()) {
    case AttributeType::S: out += v.as_string(); break;
    case AttributeType::N: out += v.as_number().to_string(); break;
    case AttributeType::B: base64_encode_append(out, v.as_binary()); break;
    default: break;
  }
  out += '}';
  return out;
}

int compare_scalars(const AttributeValue& a, const AttributeValue& b) {
  switch (a.type()) {
    case AttributeType::N: {
      auto c = a.as_number() <=> b.as_number();
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    case AttributeType::S: {
      int c = a.as_string().compare(b.as_string());
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    case AttributeType::B: {
      // Bytes compare unsigned, as the service orders binary keys.
      const std::string& x = a.as_binary();
      const std::string& y = b.as_binary();
      const std::size_t n = std::min(x.size(), y.size());
      for (std::size_t i = 0; i < n; ++i) {
        auto cx = static_cast<unsigned char>(x[i]);
        auto cy = static_cast<unsigned char>(y[i]);
        if (cx != cy) return cx < cy ? -1 : 1;
      }
      return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
    }
    default: return 0;
  }
}

void check_between_bounds(const AttributeValue& lower, const AttributeValue& upper, std::string_view prefix) {
  if (lower.type() != upper.type()) {
    throw ApiError::validation(std::string(prefix) +
                               "The BETWEEN operator requires same data type for lower and upper bounds; lower bound "
                               "operand: " +
                               render_bound(lower) + ", upper bound operand: " + render_bound(upper));
  }
  if (compare_scalars(lower, upper) > 0) {
    throw ApiError::validation(std::string(prefix) +
                               "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
                               "lower bound operand: " +
                               render_bound(lower) + ", upper bound operand: " + render_bound(upper));
  }
}

}  // namespace dynamod::expr
