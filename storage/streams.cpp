#include "storage/streams.h"

#include <simdjson.h>
#include <xxhash.h>

#include <cstring>
#include <ctime>
#include <stdexcept>

#include "metering/item_size.h"
#include "protocol/attribute_json.h"
#include "protocol/json_writer.h"
#include "protocol/utc_time.h"
#include "storage/key_codec.h"
#include "storage/schema_codec.h"
#include "storage/write_queue.h"

namespace dynamod::streams {
std::string stream_key(std::uint32_t id) { return keys::key_space_prefix(id); }

std::string sequence_text(std::uint64_t sequence) {
  std::string digits = std::to_string(sequence);
  return std::string(21 - digits.size(), '0') + digits;
}

std::optional<std::uint64_t> parse_sequence_text(const std::string& text) {
  auto invalid = [&](const std::string& rule) {
    return ApiError::validation("1 validation error detected: Value '" + text +
                                "' at 'sequenceNumber' failed to satisfy constraint: " + rule);
  };
  if (text.size() < 21) throw invalid("Member must have length greater than or equal to 21");
  if (text.size() > 40) throw invalid("Member must have length less than or equal to 40");
  if (text.find_first_not_of("0123456789") != std::string::npos) {
    throw invalid("Member must satisfy regular expression pattern: [0-9]+");
  }
  std::size_t first = text.find_first_not_of('0');
  if (first == std::string::npos) return 0;
  std::string_view significant = std::string_view(text).substr(first);
  if (significant.size() > 19) return std::nullopt;  // above every number issued
  return std::stoull(std::string(significant));
}

std::string record_key(std::uint32_t id, std::uint64_t sequence) {
  std::string key = stream_key(id);
  keys::append_u64(key, sequence);
  return key;
}

std::string encode_info(const StreamInfo& s) {
  JsonWriter w;
  w.begin_object();
  w.key("id");
  w.unsigned_integer(s.id);
  w.key("ns");
  w.string(s.ns);
  w.key("table");
  w.string(s.table);
  w.key("table_id");
  w.unsigned_integer(s.table_id);
  w.key("region");
  w.string(s.region);
  w.key("label");
  w.string(s.label);
  w.key("view_type");
  w.integer(static_cast<int>(s.view_type));
  w.key("enabled");
  w.boolean(s.enabled);
  w.key("created_ms");
  w.integer(s.created_ms);
  w.key("partition");
  write_key_element(w, s.key.partition);
  if (s.key.sort) {
    w.key("sort");
    write_key_element(w, *s.key.sort);
  }
  w.key("start");
  w.unsigned_integer(s.start_sequence);
  w.key("end");
  w.unsigned_integer(s.end_sequence);
  w.key("trimmed");
  w.unsigned_integer(s.trimmed_before);
  w.end_object();
  return w.take();
}

StreamInfo decode_info(std::string_view json) {
  simdjson::dom::parser parser;
  try {
    simdjson::dom::object o = parser.parse(simdjson::padded_string(json));
    StreamInfo s;
    s.id = static_cast<std::uint32_t>(std::uint64_t(o["id"]));
    s.ns = std::string(std::string_view(o["ns"]));
    s.table = std::string(std::string_view(o["table"]));
    s.table_id = static_cast<std::uint32_t>(std::uint64_t(o["table_id"]));
    s.region = std::string(std::string_view(o["region"]));
    s.label = std::string(std::string_view(o["label"]));
    s.view_type = static_cast<StreamViewType>(std::int64_t(o["view_type"]));
    s.enabled = bool(o["enabled"]);
    s.created_ms = std::int64_t(o["created_ms"]);
    s.key.partition = read_key_element(o["partition"]);
    simdjson::dom::element sort;
    if (o["sort"].get(sort) == simdjson::SUCCESS) s.key.sort = read_key_element(sort);
    s.start_sequence = std::uint64_t(o["start"]);
    s.end_sequence = std::uint64_t(o["end"]);
    s.trimmed_before = std::uint64_t(o["trimmed"]);
    return s;
  } catch (const simdjson::simdjson_error& e) {
    throw std::runtime_error(std::string("corrupt stream descriptor: ") + e.what());
  }
}

std::string label_for(std::int64_t ms) { return iso8601_millis(ms); }

std::string stream_arn(std::string_view region, std::string_view account, std::string_view table,
                       std::string_view label) {
  std::string arn = "arn:aws:dynamodb:";
  arn += region;
  arn += ':';
  arn += account;
  arn += ":table/";
  arn += table;
  arn += "/stream/";
  arn += label;
  return arn;
}

std::string shard_id(const StreamInfo& info) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "shardId-%020lld-%08x", static_cast<long long>(info.created_ms),
                static_cast<unsigned>(XXH32(&info.id, sizeof info.id, 0)));
  return buf;
}

void open_stream(WriteContext& ctx, const StreamInfo& info) {
  StreamInfo s = info;
  s.start_sequence = ctx.store().peek_sequence_number();
  ctx.txn().put(ctx.dbs().streams, stream_key(s.id), encode_info(s));
}

void close_stream(WriteContext& ctx, std::uint32_t id) {
  auto stored = ctx.txn().get(ctx.dbs().streams, stream_key(id));
  if (!stored) return;
  StreamInfo s = decode_info(*stored);
  if (!s.enabled) return;
  s.enabled = false;
  // The shard closes: nothing after this point belongs to it.
  s.end_sequence = ctx.take_sequence_number();
  ctx.txn().put(ctx.dbs().streams, stream_key(id), encode_info(s));
}

void record_change(WriteContext& ctx, const Table& table, const Item& keys, const Item* old_item, const Item* new_item,
                   bool by_ttl) {
  const auto& spec = table.schema.stream;
  if (!spec || !spec->enabled) return;
  if (old_item == nullptr && new_item == nullptr) return;
  if (old_item != nullptr && new_item != nullptr && *old_item == *new_item) return;  // nothing changed

  const std::uint64_t sequence = ctx.take_sequence_number();
  const std::int64_t now = ctx.store().now_ms();
  const StreamViewType view = spec->view_type;
  const bool new_image =
      new_item != nullptr && (view == StreamViewType::NewImage || view == StreamViewType::NewAndOldImages);
  const bool old_image =
      old_item != nullptr && (view == StreamViewType::OldImage || view == StreamViewType::NewAndOldImages);

  std::uint64_t size = metering::item_size(keys);
  if (new_image) size += metering::item_size(*new_item);
  if (old_image) size += metering::item_size(*old_item);

  JsonWriter w;
  w.begin_object();
  w.key("eventID");
  XXH128_hash_t id = XXH3_128bits_withSeed(&sequence, sizeof sequence, spec->id);
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(id.high64),
                static_cast<unsigned long long>(id.low64));
  w.string(hex);
  w.key("eventName");
  w.string(old_item == nullptr ? "INSERT" : new_item == nullptr ? "REMOVE" : "MODIFY");
  w.key("eventVersion");
  w.string("1.1");
  w.key("eventSource");
  w.string("aws:dynamodb");
  w.key("awsRegion");
  w.string(table.schema.region);
  w.key("dynamodb");
  w.begin_object();
  w.key("ApproximateCreationDateTime");
  w.integer(now / 1000);
  w.key("Keys");
  encode_item(w, keys);
  if (new_image) {
    w.key("NewImage");
    encode_item(w, *new_item);
  }
  if (old_image) {
    w.key("OldImage");
    encode_item(w, *old_item);
  }
  w.key("SequenceNumber");
  w.string(sequence_text(sequence));
  w.key("SizeBytes");
  w.unsigned_integer(size);
  w.key("StreamViewType");
  w.string(stream_view_type_name(view));
  w.end_object();
  if (by_ttl) {
    w.key("userIdentity");
    w.begin_object();
    // Named as in the Streams API model (Lambda events spell them in lower case).
    w.key("PrincipalId");
    w.string("dynamodb.amazonaws.com");
    w.key("Type");
    w.string("Service");
    w.end_object();
  }
  w.end_object();

  std::string value(8, '\0');
  std::memcpy(value.data(), &now, 8);
  value += w.str();
  ctx.txn().put(ctx.dbs().stream_records, record_key(spec->id, sequence), value);
}

std::optional<StreamInfo> find_stream(const lmdb::TxnBase& txn, lmdb::Dbi dbi, std::uint32_t id) {
  auto stored = txn.get(dbi, stream_key(id));
  if (!stored) return std::nullopt;
  return decode_info(*stored);
}

std::vector<StreamInfo> all_streams(const lmdb::TxnBase& txn, lmdb::Dbi dbi) {
  std::vector<StreamInfo> out;
  auto cursor = txn.cursor(dbi);
  for (auto e = cursor.first(); e; e = cursor.next()) out.push_back(decode_info(e->second));
  return out;
}

}  // namespace dynamod::streams
