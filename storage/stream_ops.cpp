#include "storage/stream_ops.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "protocol/base64.h"
#include "protocol/table_requests.h"
#include "storage/key_codec.h"

namespace dynamod::ops {
namespace {

constexpr std::uint64_t kIteratorSeed = 0x64796e616d6f64ull;  // checks iterators for typos, not forgery
constexpr std::size_t kPageBytes = 1024 * 1024;

std::string arn_of(const Scope& scope, const streams::StreamInfo& s) {
  return streams::stream_arn(s.region, scope.account_id, s.table, s.label);
}

ApiError stream_not_found(std::string_view arn) {
  return ApiError::resource_not_found("Requested resource not found: Stream: " + std::string(arn) + " not found");
}

// "arn:aws:dynamodb:<region>:<account>:table/<name>/stream/<label>" split in
// table ARN and label; nullopt when the text is not a stream ARN.
std::optional<std::pair<std::string_view, std::string_view>> split_stream_arn(std::string_view arn) {
  constexpr std::string_view kStream = "/stream/";
  std::size_t marker = arn.rfind(kStream);
  if (marker == std::string_view::npos) return std::nullopt;
  std::string_view table_arn = arn.substr(0, marker);
  std::string_view label = arn.substr(marker + kStream.size());
  if (label.empty() || !parse_table_arn(table_arn)) return std::nullopt;
  return std::pair{table_arn, label};
}

ApiError invalid_stream_arn() { return ApiError::validation("Invalid StreamArn"); }

// The stream a StreamArn names in this scope.
streams::StreamInfo find_by_arn(const lmdb::TxnBase& txn, Store& store, const Scope& scope, std::string_view arn) {
  auto parts = split_stream_arn(arn);
  if (!parts) throw invalid_stream_arn();
  std::optional<QualifiedName> table = scope.qualify(parts->first);
  if (!table) throw stream_not_found(arn);
  for (auto& s : streams::all_streams(txn, store.dbs().streams)) {
    if (s.ns == table->ns && s.table == table->name && s.label == parts->second) return s;
  }
  throw stream_not_found(arn);
}

ApiError trimmed() {
  return ApiError(ErrorCode::TrimmedDataAccessException, "The data you are trying to access has been trimmed");
}

struct Iterator {
  std::uint32_t stream = 0;
  std::uint64_t position = 0;  // the next sequence number to read
  std::int64_t issued_ms = 0;
};

std::string encode_iterator(const std::string& arn, const Iterator& it) {
  char raw[28];
  std::memcpy(raw, &it.stream, 4);
  std::memcpy(raw + 4, &it.position, 8);
  std::memcpy(raw + 12, &it.issued_ms, 8);
  std::uint64_t check = XXH64(raw, 20, kIteratorSeed);
  std::memcpy(raw + 20, &check, 8);
  std::string out = arn + "|1|";
  base64_encode_append(out, std::string_view(raw, sizeof raw));
  return out;
}

std::optional<Iterator> decode_iterator(std::string_view text) {
  std::size_t bar = text.rfind('|');
  if (bar == std::string_view::npos) return std::nullopt;
  auto raw = base64_decode(text.substr(bar + 1));
  if (!raw || raw->size() != 28) return std::nullopt;
  std::uint64_t check = 0;
  std::memcpy(&check, raw->data() + 20, 8);
  if (check != XXH64(raw->data(), 20, kIteratorSeed)) return std::nullopt;
  Iterator it;
  std::memcpy(&it.stream, raw->data(), 4);
  std::memcpy(&it.position, raw->data() + 4, 8);
  std::memcpy(&it.issued_ms, raw->data() + 12, 8);
  return it;
}

}  // namespace

ListStreamsResult list_streams(Store& store, const Scope& scope, const ListStreamsRequest& request) {
  auto txn = store.read();
  std::vector<streams::StreamInfo> all = streams::all_streams(txn, store.dbs().streams);
  std::string ns(scope.ns());
  std::optional<QualifiedName> table;
  if (request.table_name) table = scope.qualify(*request.table_name);
  std::vector<StreamSummary> matching;
  for (const auto& s : all) {
    if (s.ns != ns) continue;
    if (table && s.table != table->name) continue;
    matching.push_back({arn_of(scope, s), s.table, s.label});
  }
  std::sort(matching.begin(), matching.end(), [](const auto& a, const auto& b) { return a.arn < b.arn; });
  if (request.exclusive_start_stream_arn && !split_stream_arn(*request.exclusive_start_stream_arn)) {
    throw invalid_stream_arn();
  }
  ListStreamsResult result;
  std::size_t limit = static_cast<std::size_t>(request.limit.value_or(100));
  for (const auto& s : matching) {
    if (request.exclusive_start_stream_arn && s.arn <= *request.exclusive_start_stream_arn) continue;
    if (result.streams.size() == limit) {
      result.last_evaluated_arn = result.streams.back().arn;
      break;
    }
    result.streams.push_back(s);
  }
  return result;
}

DescribeStreamResult describe_stream(Store& store, const Scope& scope, const DescribeStreamRequest& request) {
  auto txn = store.read();
  DescribeStreamResult result;
  result.info = find_by_arn(txn, store, scope, *request.stream_arn);
  result.arn = arn_of(scope, result.info);
  result.shard_id = streams::shard_id(result.info);
  if (!result.info.enabled) result.ending_sequence = result.info.end_sequence;
  return result;
}

std::string get_shard_iterator(Store& store, const Scope& scope, const GetShardIteratorRequest& request) {
  auto txn = store.read();
  streams::StreamInfo s = find_by_arn(txn, store, scope, *request.stream_arn);
  if (*request.shard_id != streams::shard_id(s)) {
    throw ApiError::resource_not_found("Requested resource not found: Shard does not exist");
  }
  const std::string& type = *request.shard_iterator_type;
  Iterator it;
  it.stream = s.id;
  it.issued_ms = store.now_ms();
  const bool by_sequence = type == "AT_SEQUENCE_NUMBER" || type == "AFTER_SEQUENCE_NUMBER";
  if (by_sequence && !request.sequence_number) {
    throw ApiError::validation("A sequence number must be specified when ShardIteratorType is " + type);
  }
  if (!by_sequence && request.sequence_number) {
    throw ApiError::validation("A sequence number cannot be specified when ShardIteratorType is " + type);
  }
  if (type == "TRIM_HORIZON") {
    it.position = std::max(s.start_sequence, s.trimmed_before);
  } else if (type == "LATEST") {
    it.position = s.enabled ? store.peek_sequence_number() : s.end_sequence + 1;
  } else {
    std::optional<std::uint64_t> parsed = streams::parse_sequence_text(*request.sequence_number);
    std::uint64_t last = s.enabled ? store.peek_sequence_number() : s.end_sequence;
    std::uint64_t n = parsed.value_or(0);
    if (!parsed || n < s.start_sequence || n > last) {
      throw ApiError::validation("Invalid SequenceNumber " + *request.sequence_number + " for shard " +
                                 streams::shard_id(s) + " in stream " + arn_of(scope, s));
    }
    if (n < s.trimmed_before) {
      throw trimmed();
    }
    it.position = type == "AT_SEQUENCE_NUMBER" ? n : n + 1;
  }
  return encode_iterator(arn_of(scope, s), it);
}

GetRecordsResult get_records(Store& store, const Scope& scope, const GetRecordsRequest& request) {
  std::optional<Iterator> it = decode_iterator(*request.shard_iterator);
  if (!it) throw ApiError::validation("Invalid ShardIterator");
  const std::int64_t now = store.now_ms();
  if (now - it->issued_ms > kIteratorLifetimeMs) {
    throw ApiError(ErrorCode::ExpiredIteratorException, "The provided iterator exceeds the maximum age allowed.");
  }
  auto txn = store.read();
  std::optional<streams::StreamInfo> s = streams::find_stream(txn, store.dbs().streams, it->stream);
  // The stream expired (24 hours after it was disabled) or its table's data is gone.
  if (!s) throw ApiError::resource_not_found("Invalid ShardId in ShardIterator");
  if (it->position < s->trimmed_before) {
    throw trimmed();
  }
  GetRecordsResult result;
  const std::size_t limit = static_cast<std::size_t>(request.limit.value_or(1000));
  std::string prefix = streams::stream_key(s->id);
  std::uint64_t next = it->position;
  std::size_t bytes = 0;
  // With --consistency-lag a record appears once it is that old.
  const std::int64_t lag = store.lagged_reads().active() ? store.lagged_reads().lag_of(s->ns, s->table) : 0;
  auto cursor = txn.cursor(store.dbs().stream_records);
  for (auto e = cursor.seek(streams::record_key(s->id, it->position));
       e && e->first.substr(0, prefix.size()) == prefix && result.records.size() < limit && bytes < kPageBytes;
       e = cursor.next()) {
    if (lag > 0 && e->second.size() >= 8) {
      std::int64_t written_ms = 0;
      std::memcpy(&written_ms, e->second.data(), 8);
      if (written_ms > now - lag) break;
    }
    const std::uint64_t sequence = keys::read_u64(e->first.substr(prefix.size()));
    result.records.emplace_back(e->second.substr(8));
    bytes += e->second.size();
    next = sequence + 1;
  }
  // A closed shard read to its end has no next iterator.
  bool exhausted = !s->enabled && next > s->end_sequence;
  if (!s->enabled && result.records.empty()) exhausted = true;
  if (!exhausted) {
    Iterator following{s->id, next, now};
    result.next_iterator = encode_iterator(arn_of(scope, *s), following);
  }
  return result;
}

}  // namespace dynamod::ops
