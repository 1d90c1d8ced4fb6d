// libFuzzer target: arbitrary bytes as the JSON body of every operation's
// request decoder, handed over as the server does (json::request_object), then
// the single-item requests' expressions parsed and resolved against the
// request's own ExpressionAttributeNames/Values. The first byte picks the operation ('A' the
// first of kDecoders, 'B' the second, ...; tests/fuzz/request_seeds holds a
// valid body for each, and tests/fuzz/request.dict the members' names). Only
// ApiError and simdjson_error may escape (the server answers both with a 400);
// anything else (another exception, a crash, a sanitizer report) is a bug.
// The body after the first byte may hold run markers (tests/fuzz/expand.h) that
// grow it to deep and wide shapes; request_seeds has some (`deep-*`, `wide-*`).
//
// Built and run by scripts/fuzz.sh (`make fuzz`), not by CMake.
#include <simdjson.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "protocol/api_error.h"
#include "protocol/attribute_json.h"
#include "protocol/attribute_name_limit.h"
#include "protocol/backup_requests.h"
#include "protocol/batch_requests.h"
#include "protocol/contributor_insights.h"
#include "protocol/expr/update.h"
#include "protocol/item_expressions.h"
#include "protocol/item_requests.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"
#include "protocol/partiql/requests.h"
#include "protocol/read_requests.h"
#include "protocol/resource_policy.h"
#include "protocol/settings_requests.h"
#include "protocol/stream_requests.h"
#include "protocol/table_requests.h"
#include "protocol/transact_requests.h"
#include "protocol/ttl_requests.h"
#include "tests/fuzz/expand.h"

namespace {

using namespace dynamod;

using Decoder = void (*)(json::object);

TableSchema backed_up_table() {
  TableSchema t;
  t.name = "source";
  t.key = KeyDef{{"pk", ScalarType::S}, KeyElement{"sk", ScalarType::N}};
  t.attribute_definitions = {{"pk", ScalarType::S}, {"sk", ScalarType::N}, {"g", ScalarType::B}};
  t.billing_mode = BillingMode::PayPerRequest;
  IndexSchema gsi;
  gsi.name = "by_g";
  gsi.key = KeyDef{{"g", ScalarType::B}, std::nullopt};
  t.global_indexes.push_back(gsi);
  return t;
}

// What an UpdateItem meets in the store: nested maps and lists for its paths.
const Item& stored_item() {
  static const Item item = [] {
    Item nested;
    nested.set("k", AttributeValue::list(List{{AttributeValue::string("x"), AttributeValue::map(Item{})}}));
    Item i;
    i.set("pk", AttributeValue::string("p"));
    i.set("m", AttributeValue::map(nested));
    i.set("l", AttributeValue::list(List{{AttributeValue::map(nested)}}));
    return i;
  }();
  return item;
}

// The answer an item's request could lead to: every walk over a decoded item.
void encode(const Item& item) {
  JsonWriter out;
  encode_item(out, item);
}

// Every decoder, and for the single-item writes and GetItem the expression
// step that follows decoding on the I/O thread; a PutItem's item and an
// UpdateItem's result against stored_item() are then encoded as an answer.
constexpr std::array<Decoder, 37> kDecoders{{
    [](json::object b) {
      PutItemRequest r = decode_put_item(b);
      parse_put_or_delete_expressions(r.write);
      if (r.item) {
        check_attribute_names(*r.item);
        encode(*r.item);
      }
    },
    [](json::object b) { parse_put_or_delete_expressions(decode_delete_item(b).write, true); },
    [](json::object b) {
      ItemExpressions e = parse_update_expressions(decode_update_item(b));
      if (e.update) encode(expr::apply_update(*e.update, &stored_item()));
    },
    [](json::object b) { parse_get_projection(decode_get_item(b)); },
    [](json::object b) { decode_batch_get_item(b); },
    [](json::object b) { decode_batch_write_item(b); },
    [](json::object b) { decode_query(b); },
    [](json::object b) { decode_scan(b); },
    [](json::object b) { decode_create_table(b); },
    [](json::object b) { decode_update_table(b); },
    [](json::object b) { decode_table_name_request(b); },
    [](json::object b) { decode_list_tables(b); },
    [](json::object b) { decode_transact_write_items(b); },
    [](json::object b) { decode_transact_get_items(b); },
    [](json::object b) { decode_update_time_to_live(b); },
    [](json::object b) { partiql::decode_execute_statement(b); },
    [](json::object b) { partiql::decode_batch_execute_statement(b); },
    [](json::object b) { partiql::decode_execute_transaction(b); },
    [](json::object b) { decode_tag_resource(b); },
    [](json::object b) { decode_untag_resource(b); },
    [](json::object b) { decode_list_tags(b); },
    [](json::object b) { decode_update_continuous_backups(b); },
    [](json::object b) { decode_list_streams(b); },
    [](json::object b) { decode_describe_stream(b); },
    [](json::object b) { decode_get_shard_iterator(b); },
    [](json::object b) { decode_get_records(b); },
    [](json::object b) { decode_create_backup(b); },
    [](json::object b) { decode_backup_arn_request(b); },
    [](json::object b) { decode_list_backups(b); },
    // A restore's overrides meet CreateTable's checks against a backup of a table with an index.
    [](json::object b) { restored_schema(backed_up_table(), "target", decode_restore_table_from_backup(b).overrides); },
    [](json::object b) {
      restored_schema(backed_up_table(), "target", decode_restore_table_to_point_in_time(b).overrides);
    },
    [](json::object b) { decode_update_contributor_insights(b); },
    [](json::object b) { decode_describe_contributor_insights(b); },
    [](json::object b) { decode_list_contributor_insights(b); },
    // A policy document meets its checks, canonical form and lockout check (one pass).
    [](json::object b) { canonical_policy(decode_put_resource_policy(b).policy); },
    [](json::object b) { parse_policy_resource(decode_get_resource_policy(b).resource_arn); },
    [](json::object b) { decode_delete_resource_policy(b); },
}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Decoder decode = kDecoders[static_cast<std::uint8_t>(data[0] - 'A') % kDecoders.size()];
  std::string body = fuzz::expand(data + 1, size - 1);
  simdjson::ondemand::parser parser;
  try {
    simdjson::ondemand::document doc;
    decode(json::request_object(parser, body, doc));
  } catch (const ApiError&) {
    // A request the service would refuse (a body it cannot parse included).
  } catch (const simdjson::simdjson_error&) {
    // The server answers it with a SerializationException too.
  }
  return 0;
}
