#include "server/fault_batch.h"

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

std::string_view unprocessed_member(std::string_view operation) {
  return operation == "BatchWriteItem" ? "UnprocessedItems" : "UnprocessedKeys";
}

// One write request or key of a batch, in request order.
struct BatchEntry {
  std::string_view table;
  element value;
};

}  // namespace

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
