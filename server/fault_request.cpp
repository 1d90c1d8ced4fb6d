#include "server/fault_request.h"

#include <simdjson.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "protocol/json_writer.h"

namespace dynamod {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// "arn:aws:dynamodb:us-east-1:123456789012:table/Name[/...]" -> "Name".
std::string table_name_of(std::string_view given) {
  if (!given.starts_with("arn:")) return std::string(given);
  auto slash = given.find(":table/");
  if (slash == std::string_view::npos) return std::string(given);
  std::string_view rest = given.substr(slash + 7);
  return std::string(rest.substr(0, rest.find('/')));
}

// The text of {"S": "x"} / {"N": "1"} / {"B": "base64"}.
std::optional<std::string> scalar_text(element value) {
  object typed;
  if (value.get(typed) != simdjson::SUCCESS) return std::nullopt;
  for (auto [type, v] : typed) {
    std::string_view text;
    if ((type == "S" || type == "N" || type == "B") && v.get(text) == simdjson::SUCCESS) return std::string(text);
  }
  return std::nullopt;
}

class FactsReader {
 public:
  FactsReader(RequestFacts& facts, const Catalog& catalog, std::string_view ns, bool with_keys)
      : facts_(facts), catalog_(catalog), ns_(ns), with_keys_(with_keys) {}

  void table(std::string_view given) {
    std::string name = table_name_of(given);
    if (std::find(facts_.tables.begin(), facts_.tables.end(), name) == facts_.tables.end()) {
      facts_.tables.push_back(std::move(name));
    }
  }

  // A Key or an Item of `table`.
  void key(std::string_view table_given, element key_or_item) {
    if (!with_keys_) return;
    TablePtr table = catalog_.find(ns_, table_name_of(table_given));
    if (!table) return;
    element value;
    if (key_or_item[table->schema.key.partition.name].get(value) != simdjson::SUCCESS) return;
    if (auto text = scalar_text(value)) facts_.partition_keys.push_back(std::move(*text));
  }

  // The Key / Item of one request of a transaction or a batch.
  void keys_in(std::string_view table_given, element request) {
    for (const char* member : {"Key", "Item"}) {
      element e;
      if (request[member].get(e) == simdjson::SUCCESS) key(table_given, e);
    }
  }

 private:
  RequestFacts& facts_;
  const Catalog& catalog_;
  std::string_view ns_;
  bool with_keys_;
};

std::string_view unprocessed_member(std::string_view operation) {
  return operation == "BatchWriteItem" ? "UnprocessedItems" : "UnprocessedKeys";
}

// One write request or key of a batch, in request order.
struct BatchEntry {
  std::string_view table;
  element value;
};

}  // namespace

RequestFacts request_facts(std::string_view operation, std::string_view body, const Catalog& catalog,
                           std::string_view ns, const ArnContext& arn, bool with_keys) {
  RequestFacts facts;
  facts.operation = operation;
  simdjson::dom::parser parser;
  element root;
  if (parser.parse(body.data(), body.size()).get(root) != simdjson::SUCCESS) return facts;
  FactsReader reader(facts, catalog, ns, with_keys);
  std::string_view text;
  if (root["TableName"].get(text) == simdjson::SUCCESS) {
    reader.table(text);
    for (const char* member : {"Key", "Item"}) {
      element e;
      if (root[member].get(e) == simdjson::SUCCESS) reader.key(text, e);
    }
  }
  if (root["IndexName"].get(text) == simdjson::SUCCESS) facts.index = std::string(text);
  object request_items;
  if (root["RequestItems"].get(request_items) == simdjson::SUCCESS) {
    for (auto [table, requests] : request_items) {
      reader.table(table);
      array writes;
      element keys;
      if (requests.get(writes) == simdjson::SUCCESS) {  // BatchWriteItem
        for (element write : writes) {
          object kinds;
          if (write.get(kinds) != simdjson::SUCCESS) continue;
          for (auto [kind, request] : kinds) reader.keys_in(table, request);
        }
      } else if (requests["Keys"].get(keys) == simdjson::SUCCESS && keys.is_array()) {  // BatchGetItem
        for (element key : keys.get_array()) reader.key(table, key);
      }
    }
  }
  array transact_items;
  if (root["TransactItems"].get(transact_items) == simdjson::SUCCESS) {
    for (element item : transact_items) {
      ++facts.transact_items;
      object kinds;
      if (item.get(kinds) != simdjson::SUCCESS) continue;
      for (auto [kind, request] : kinds) {
        if (request["TableName"].get(text) != simdjson::SUCCESS) continue;
        reader.table(text);
        reader.keys_in(text, request);
      }
    }
  }
  if (!facts.tables.empty()) facts.table_arn = table_arn(arn, facts.tables.front());
  return facts;
}

std::optional<BatchHoldback> hold_back(std::string_view operation, std::string_view body, std::size_t count) {
  simdjson::dom::parser parser;
  object root;
  if (parser.parse(body.data(), body.size()).get(root) != simdjson::SUCCESS) return std::nullopt;
  object request_items;
  if (root["RequestItems"].get(request_items) != simdjson::SUCCESS) return std::nullopt;
  const bool writes = operation == "BatchWriteItem";
  std::vector<BatchEntry> entries;
  for (auto [table, requests] : request_items) {
    array list;
    if (writes ? requests.get(list) != simdjson::SUCCESS : requests["Keys"].get(list) != simdjson::SUCCESS) {
      return std::nullopt;  // malformed: the operation's decoder answers it
    }
    for (element e : list) entries.push_back({table, e});
  }
  if (entries.size() < 2) return std::nullopt;
  if (count == std::numeric_limits<std::size_t>::max()) count = (entries.size() + 1) / 2;
  count = std::min(count, entries.size() - 1);
  const std::size_t kept = entries.size() - count;

  // Both halves, table by table in request order.
  auto render = [&](std::size_t from, std::size_t to) {
    JsonWriter out;
    out.begin_object();
    std::size_t i = from;
    while (i < to) {
      std::string_view table = entries[i].table;
      out.key(table);
      if (!writes) {
        out.begin_object();
        // The table's other parameters go with its keys.
        for (auto [member, value] : request_items[table].get_object()) {
          if (member == "Keys") continue;
          out.key(member);
          out.raw(simdjson::to_string(value));
        }
        out.key("Keys");
      }
      out.begin_array();
      for (; i < to && entries[i].table == table; ++i) out.raw(simdjson::to_string(entries[i].value));
      out.end_array();
      if (!writes) out.end_object();
    }
    out.end_object();
    return out.take();
  };
  BatchHoldback held;
  held.held = render(kept, entries.size());
  JsonWriter request;
  request.begin_object();
  for (auto [member, value] : root) {
    request.key(member);
    request.raw(member == "RequestItems" ? render(0, kept) : std::string(simdjson::to_string(value)));
  }
  request.end_object();
  held.request_body = request.take();
  return held;
}

std::string add_unprocessed(std::string_view operation, std::string_view answer, const BatchHoldback& held) {
  const std::string_view unprocessed = unprocessed_member(operation);
  simdjson::dom::parser parser;
  object root;
  if (parser.parse(answer.data(), answer.size()).get(root) != simdjson::SUCCESS) return std::string(answer);
  simdjson::dom::parser held_parser;
  object extra = held_parser.parse(held.held).get_object();
  const bool writes = operation == "BatchWriteItem";

  auto merged = [&](std::optional<element> current) {
    JsonWriter out;
    out.begin_object();
    object existing;
    const bool has_existing = current && current->get(existing) == simdjson::SUCCESS;
    if (has_existing) {
      for (auto [table, value] : existing) {
        element more;
        out.key(table);
        if (extra[table].get(more) != simdjson::SUCCESS) {
          out.raw(simdjson::to_string(value));
          continue;
        }
        // The same table in both: one list of requests / keys.
        array a = writes ? value.get_array().value() : value["Keys"].get_array().value();
        array b = writes ? more.get_array().value() : more["Keys"].get_array().value();
        if (!writes) {
          out.begin_object();
          for (auto [member, v] : value.get_object()) {
            if (member == "Keys") continue;
            out.key(member);
            out.raw(simdjson::to_string(v));
          }
          out.key("Keys");
        }
        out.begin_array();
        for (element e : a) out.raw(simdjson::to_string(e));
        for (element e : b) out.raw(simdjson::to_string(e));
        out.end_array();
        if (!writes) out.end_object();
      }
    }
    for (auto [table, value] : extra) {
      if (has_existing && existing[table].error() == simdjson::SUCCESS) continue;
      out.key(table);
      out.raw(simdjson::to_string(value));
    }
    out.end_object();
    return out.take();
  };

  JsonWriter out;
  out.begin_object();
  bool found = false;
  for (auto [member, value] : root) {
    out.key(member);
    if (member == unprocessed) {
      found = true;
      out.raw(merged(value));
    } else {
      out.raw(simdjson::to_string(value));
    }
  }
  if (!found) {
    out.key(unprocessed);
    out.raw(merged(std::nullopt));
  }
  out.end_object();
  return out.take();
}

}  // namespace dynamod
