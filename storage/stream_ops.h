#pragma once
// The DynamoDB Streams API: ListStreams, DescribeStream, GetShardIterator,
// GetRecords. Reads only; records are written with the item changes.

#include <optional>
#include <string>
#include <vector>

#include "protocol/stream_requests.h"
#include "storage/scope.h"
#include "storage/store.h"
#include "storage/streams.h"

namespace dynamod::ops {

struct StreamSummary {
  std::string arn;
  std::string table;
  std::string label;
};

struct ListStreamsResult {
  std::vector<StreamSummary> streams;
  std::optional<std::string> last_evaluated_arn;
};

struct DescribeStreamResult {
  streams::StreamInfo info;
  std::string arn;
  std::string shard_id;
  std::optional<std::uint64_t> ending_sequence;  // set once the stream is disabled
};

struct GetRecordsResult {
  std::vector<std::string> records;  // rendered
  std::optional<std::string> next_iterator;
};

// Shard iterators expire after 15 minutes.
inline constexpr std::int64_t kIteratorLifetimeMs = 15 * 60 * 1000;

ListStreamsResult list_streams(Store& store, const Scope& scope, const ListStreamsRequest& request);
DescribeStreamResult describe_stream(Store& store, const Scope& scope, const DescribeStreamRequest& request);
std::string get_shard_iterator(Store& store, const Scope& scope, const GetShardIteratorRequest& request);
GetRecordsResult get_records(Store& store, const Scope& scope, const GetRecordsRequest& request);

}  // namespace dynamod::ops
