#pragma once
// DynamoDB Streams: one stream per enabling of a table's StreamSpecification,
// one shard per stream, records written in the same transaction as the item
// change they describe (so none is lost or invented by a crash).
//
//   "streams"         stream id (u32 BE) -> descriptor (JSON)
//   "stream_records"  stream id ‖ sequence number (u64 BE) -> u64 time (ms) ‖ record JSON
//
// Sequence numbers come from one store-wide counter, so they increase in
// commit order across every stream.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/table_schema.h"
#include "storage/catalog.h"
#include "storage/lmdb.h"

namespace dynamod {

class WriteContext;

namespace streams {

inline constexpr std::int64_t kRetentionMs = 24ll * 3600 * 1000;

struct StreamInfo {
  std::uint32_t id = 0;
  std::string ns;
  std::string table;
  std::uint32_t table_id = 0;
  std::string region;
  std::string label;
  StreamViewType view_type = StreamViewType::NewAndOldImages;
  bool enabled = true;
  std::int64_t created_ms = 0;
  KeyDef key;
  std::uint64_t start_sequence = 0;  // no record of the stream comes before it
  std::uint64_t end_sequence = 0;    // when disabled: the last sequence number it may hold
  std::uint64_t trimmed_before = 0;  // records before this one are gone (older than 24 hours)
};

std::string encode_info(const StreamInfo& info);
StreamInfo decode_info(std::string_view json);
std::string stream_key(std::uint32_t id);
std::string record_key(std::uint32_t id, std::uint64_t sequence);

// Sequence numbers on the wire: 21 digits, zero-padded, so that their text
// and numeric orders agree (the service's are 21 to 40 digits).
std::string sequence_text(std::uint64_t sequence);
// The number of a SequenceNumber request member; a Coral ValidationException
// for text that is not 21 to 40 digits, nullopt for a number beyond any we issue.
std::optional<std::uint64_t> parse_sequence_text(const std::string& text);

// "2026-11-30T07:30:00.123", the label of a stream created at `ms`.
std::string label_for(std::int64_t ms);
std::string stream_arn(std::string_view region, std::string_view account, std::string_view table,
                       std::string_view label);
std::string shard_id(const StreamInfo& info);

// Within a write transaction: a table's stream begins or ends.
void open_stream(WriteContext& ctx, const StreamInfo& info);
void close_stream(WriteContext& ctx, std::uint32_t id);

// Appends the record of one item change to the table's stream (if enabled and
// the item changed). `by_ttl`: deleted by the TTL sweeper (a service identity).
void record_change(WriteContext& ctx, const Table& table, const Item& keys, const Item* old_item, const Item* new_item,
                   bool by_ttl);

std::optional<StreamInfo> find_stream(const lmdb::TxnBase& txn, lmdb::Dbi dbi, std::uint32_t id);
std::vector<StreamInfo> all_streams(const lmdb::TxnBase& txn, lmdb::Dbi dbi);

}  // namespace streams
}  // namespace dynamod
