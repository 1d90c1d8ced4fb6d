#include "metering/access_pattern.h"

namespace dynamod::metering {
namespace {

constexpr std::string_view kSeparators = "#:|/";
constexpr std::string_view kElided = "…";

// Control characters would make a pattern unreadable (and the ledger key ambiguous).
void append_printable(std::string& out, std::string_view text) {
  for (char c : text) out.push_back(static_cast<unsigned char>(c) < 0x20 ? '?' : c);
}

void append_equality(std::string& out, std::string_view name, const AttributeValue& value) {
  append_printable(out, name);
  out += " = ";
  out += reduced_value(value);
}

}  // namespace

std::string reduced_value(const AttributeValue& value) {
  if (value.type() != AttributeType::S) return "*";
  const std::string& s = value.as_string();
  std::size_t cut = s.find_first_of(kSeparators);
  if (cut == std::string::npos) return "*";
  std::string out;
  append_printable(out, std::string_view(s).substr(0, cut + 1));
  out += '*';
  return out;
}

std::string query_shape(std::string_view target, const expr::KeyCondition& key, bool filtered) {
  std::string out = "Query ";
  append_printable(out, target);
  out += ": ";
  append_equality(out, key.partition_name, key.partition);
  // A multi-attribute key's further equalities, in key order.
  for (const auto* family : {&key.more_partition, &key.sort_equalities}) {
    for (const expr::KeyEquality& e : *family) {
      out += " AND ";
      append_equality(out, e.name, e.value);
    }
  }
  if (key.sort) {
    const expr::SortCondition& s = *key.sort;
    out += " AND ";
    switch (s.op) {
      case expr::SortOp::Eq: append_equality(out, s.name, s.value); break;
      case expr::SortOp::BeginsWith:
        out += "begins_with(";
        append_printable(out, s.name);
        out += ", ";
        out += kElided;
        out += ')';
        break;
      case expr::SortOp::Between:
        append_printable(out, s.name);
        out += " BETWEEN ";
        out += kElided;
        out += " AND ";
        out += kElided;
        break;
      default: {
        static constexpr std::string_view kOps[] = {"=", "<", "<=", ">", ">="};
        append_printable(out, s.name);
        out += ' ';
        out += kOps[static_cast<int>(s.op)];
        out += ' ';
        out += kElided;
      }
    }
  }
  if (filtered) out += " (filter)";
  return out;
}

std::string scan_shape(std::string_view target, bool filtered) {
  std::string out = "Scan ";
  append_printable(out, target);
  if (filtered) out += " (filter)";
  return out;
}

std::string vector_search_shape(std::string_view index, std::string_view hash_name, const AttributeValue* hash,
                                bool filtered) {
  std::string out = "SearchVectors ";
  append_printable(out, index);
  if (hash != nullptr) {
    out += ": ";
    append_printable(out, hash_name);
    out += " = ";
    append_printable(out, reduced_value(*hash));
  }
  if (filtered) out += " (filter)";
  return out;
}

std::string item_shape(std::string_view operation, std::string_view table, std::string_view partition_name,
                       const AttributeValue& partition, std::string_view sort_name, const AttributeValue* sort) {
  std::string out(operation);
  out += ' ';
  append_printable(out, table);
  out += ": ";
  append_equality(out, partition_name, partition);
  if (sort != nullptr) {
    out += " AND ";
    append_equality(out, sort_name, *sort);
  }
  return out;
}

}  // namespace dynamod::metering
