#pragma once
// Requests of the DynamoDB Streams API (target DynamoDBStreams_20120810).

#include <cstdint>
#include <optional>
#include <string>

#include "protocol/json_reader.h"

namespace dynamod {

struct ListStreamsRequest {
  std::optional<std::string> table_name;
  std::optional<std::int64_t> limit;
  std::optional<std::string> exclusive_start_stream_arn;
};

// DescribeStream's ShardFilter: the children of a shard (Type CHILD_SHARDS, the only type).
struct ShardFilter {
  std::optional<std::string> type;
  std::optional<std::string> shard_id;
};

struct DescribeStreamRequest {
  std::optional<std::string> stream_arn;
  std::optional<std::int64_t> limit;
  std::optional<std::string> exclusive_start_shard_id;
  std::optional<ShardFilter> shard_filter;
};

struct GetShardIteratorRequest {
  std::optional<std::string> stream_arn;
  std::optional<std::string> shard_id;
  std::optional<std::string> shard_iterator_type;
  std::optional<std::string> sequence_number;
};

struct GetRecordsRequest {
  std::optional<std::string> shard_iterator;
  std::optional<std::int64_t> limit;
};

ListStreamsRequest decode_list_streams(json::object body);
DescribeStreamRequest decode_describe_stream(json::object body);
GetShardIteratorRequest decode_get_shard_iterator(json::object body);
GetRecordsRequest decode_get_records(json::object body);

}  // namespace dynamod
