#include "protocol/partiql/values.h"

#include "protocol/attribute_json.h"

namespace dynamod::partiql {
namespace {

constexpr int kMaxDepth = 32;  // nested lists and maps, as in items

std::string render_members(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i];
  return out + "]";
}

class Converter {
 public:
  Converter(const Statement& s, const Parameters& parameters) : s_(s), parameters_(parameters) {}

  AttributeValue value(NodeId id, const std::string& where, int depth) {
    const Node& n = s_.node(id);
    switch (n.kind) {
      case NodeKind::String: return AttributeValue::string(n.text);
      case NodeKind::Number: return number(n, where);
      case NodeKind::Boolean: return AttributeValue::boolean(n.flag);
      case NodeKind::Null: return AttributeValue::null();
      case NodeKind::Missing: misplaced_missing();
      case NodeKind::Parameter: return parameter(n);
      case NodeKind::List: {
        check_depth(depth);
        List list;
        for (std::size_t i = 0; i < n.children.size(); ++i) {
          list.values.push_back(value(n.children[i], where + "[" + std::to_string(i) + "]", depth + 1));
        }
        return AttributeValue::list(std::move(list));
      }
      case NodeKind::Struct: {
        check_depth(depth);
        Map map;
        // A repeated key replaces the earlier one, as a repeated JSON member does.
        for (std::size_t i = 0; i < n.children.size(); ++i) {
          map.set(n.keys[i], value(n.children[i], where + "." + n.keys[i], depth + 1));
        }
        return AttributeValue::map(std::move(map));
      }
      case NodeKind::Bag: return bag(n, where);
      case NodeKind::Path: unsupported(n.path.to_string(), where, n.pos);
      case NodeKind::Call:
      case NodeKind::Arithmetic:  // named by its operator
      case NodeKind::Unary: unsupported(n.text, where, n.pos);
      default: unsupported("expression", where, n.pos);
    }
  }

 private:
  [[noreturn]] static void unsupported(const std::string& what, const std::string& where, const Position& pos) {
    throw ApiError::validation("Unsupported data type: " + what + " under key " + where + pos.suffix());
  }

  static void check_depth(int depth) {
    if (depth >= kMaxDepth) {
      throw ApiError::validation(
          "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported "
          "limit");
    }
  }

  // (check_values_in_order has checked every literal but an UPDATE's SET values.)
  static AttributeValue number(const Node& n, const std::string& where) {
    auto parsed = Number::parse(n.text);
    if (!parsed.number) throw ApiError::validation(number_error(parsed.error, n.text).message() + " under " + where);
    if (negative_zero_decimal(n.text, *parsed.number)) {
      std::string dotted;  // root[1].x -> root.1.x
      for (char c : where) {
        if (c == '[') dotted += '.';
        else if (c != ']') dotted += c;
      }
      negative_zero(n, dotted);
    }
    return AttributeValue::number(std::move(*parsed.number));
  }

  AttributeValue parameter(const Node& n) const {
    if (n.parameter >= parameters_.size()) parameters_do_not_match();
    return parameters_[n.parameter];
  }

  // <<'a', 'b'>> or <<1, 2>>: a set of strings or of numbers.
  AttributeValue bag(const Node& n, const std::string& where) {
    if (n.children.empty()) throw ApiError::validation("Empty bags are not supported");
    std::vector<AttributeValue> members;
    for (NodeId c : n.children) {
      const Node& element = s_.node(c);
      const bool scalar =
          element.kind == NodeKind::String || element.kind == NodeKind::Number || element.kind == NodeKind::Parameter;
      AttributeValue v = scalar ? value(c, where, 0) : AttributeValue::null();
      const bool fits = (v.type() == AttributeType::S || v.type() == AttributeType::N) &&
                        (members.empty() || members.front().type() == v.type());
      if (!fits) {
        throw ApiError::validation(
            "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags" +
            element.pos.suffix());
      }
      members.push_back(std::move(v));
    }
    if (members.front().type() == AttributeType::S) {
      StringSet set;
      for (auto& m : members) set.values.push_back(m.as_string());
      const std::vector<std::string> written = set.values;
      if (!normalize_set(set.values)) {
        throw ApiError::invalid_parameter("Input collection " + render_members(written) + " contains duplicates.");
      }
      return AttributeValue::string_set(std::move(set));
    }
    NumberSet set;
    for (auto& m : members) set.values.push_back(m.as_number());
    if (!normalize_set(set.values)) throw ApiError::validation("Input collection contains duplicates");
    return AttributeValue::number_set(std::move(set));
  }

  const Statement& s_;
  const Parameters& parameters_;
};

}  // namespace

bool negative_zero_decimal(const std::string& text, const Number& n) {
  return n.is_zero() && text.starts_with('-') && text.find_first_of(".eE") != std::string::npos;
}

void negative_zero(const Node& literal, const std::string& place) {
  throw ApiError::validation("Negative zero decimal is not supported under key " + place + literal.pos.suffix());
}

void parameters_do_not_match() {
  throw ApiError::validation("Number of parameters in request and statement don't match.");
}

void misplaced_missing() { throw ApiError::validation("MISSING must be compared using IS operator"); }

bool is_constant(const Statement& s, NodeId id) {
  const Node& n = s.node(id);
  switch (n.kind) {
    case NodeKind::String:
    case NodeKind::Number:
    case NodeKind::Boolean:
    case NodeKind::Null:
    case NodeKind::Parameter: return true;
    case NodeKind::List:
    case NodeKind::Struct:
    case NodeKind::Bag:
      for (NodeId c : n.children) {
        if (!is_constant(s, c)) return false;
      }
      return true;
    default: return false;
  }
}

AttributeValue constant_value(const Statement& s, NodeId id, const Parameters& parameters, const std::string& where) {
  return Converter(s, parameters).value(id, where, 0);
}

}  // namespace dynamod::partiql
