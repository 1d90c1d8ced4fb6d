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

struct DescribeStreamRequest {
  std::optional<std::string> stream_arn;
  std::optional<std::int64_t> limit;
  std::optional<std::string> exclusive_start_shard_id;
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
