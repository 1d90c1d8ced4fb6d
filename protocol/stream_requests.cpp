#include "protocol/stream_requests.h"

#include "protocol/item_requests.h"
#include "protocol/table_requests.h"

namespace dynamod {
namespace {

std::optional<std::int64_t> optional_integer(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  return json::read_integer(v);
}

void check_limit(const std::optional<std::int64_t>& limit, std::int64_t max, ConstraintErrors& errors) {
  if (limit && *limit < 1) {
    errors.add(std::to_string(*limit), "limit", "Member must have value greater than or equal to 1");
  }
  if (limit && *limit > max) {
    errors.add(std::to_string(*limit), "limit", "Member must have value less than or equal to " + std::to_string(max));
  }
}

// The model's length bounds of a string member (Coral checks them first).
void check_length(const std::optional<std::string>& v, const char* path, std::size_t min, std::size_t max,
                  ConstraintErrors& errors) {
  if (!v) return;
  if (v->size() < min) {
    errors.add(*v, path, "Member must have length greater than or equal to " + std::to_string(min));
  } else if (v->size() > max) {
    errors.add(*v, path, "Member must have length less than or equal to " + std::to_string(max));
  }
}

void require(const std::optional<std::string>& v, const char* path, ConstraintErrors& errors) {
  if (!v) errors.add_null(path, "Member must not be null");
}

ShardFilter decode_shard_filter(json::value& v) {
  ShardFilter f;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "Type") f.type = decode::optional_string(value);
    else if (key == "ShardId") f.shard_id = decode::optional_string(value);
  }
  return f;
}

constexpr std::size_t kArnMin = 37, kArnMax = 1024;
constexpr std::size_t kShardIdMin = 28, kShardIdMax = 65;

}  // namespace

ListStreamsRequest decode_list_streams(json::object body) {
  ListStreamsRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") r.table_name = decode::optional_string(value);
    else if (key == "Limit") r.limit = optional_integer(value);
    else if (key == "ExclusiveStartStreamArn") r.exclusive_start_stream_arn = decode::optional_string(value);
  }
  ConstraintErrors errors;
  if (r.table_name) check_table_name_constraints(*r.table_name, errors, false);
  check_limit(r.limit, 100, errors);
  check_length(r.exclusive_start_stream_arn, "exclusiveStartStreamArn", kArnMin, kArnMax, errors);
  errors.throw_if_any();
  return r;
}

DescribeStreamRequest decode_describe_stream(json::object body) {
  DescribeStreamRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "StreamArn") r.stream_arn = decode::optional_string(value);
    else if (key == "Limit") r.limit = optional_integer(value);
    else if (key == "ExclusiveStartShardId") r.exclusive_start_shard_id = decode::optional_string(value);
    else if (key == "ShardFilter" && !json::is_null(value)) r.shard_filter = decode_shard_filter(value);
  }
  ConstraintErrors errors;
  require(r.stream_arn, "streamArn", errors);
  check_length(r.stream_arn, "streamArn", kArnMin, kArnMax, errors);
  check_limit(r.limit, 100, errors);
  check_length(r.exclusive_start_shard_id, "exclusiveStartShardId", kShardIdMin, kShardIdMax, errors);
  if (r.shard_filter) {
    const ShardFilter& f = *r.shard_filter;
    if (f.type && *f.type != "CHILD_SHARDS") {
      errors.add(*f.type, "shardFilter.type", "Member must satisfy enum value set: [CHILD_SHARDS]");
    }
    check_length(f.shard_id, "shardFilter.shardId", kShardIdMin, kShardIdMax, errors);
  }
  errors.throw_if_any();
  // Type is optional in the model, but a filter without it is refused after the model's checks,
  // in these words (DynamoDB Local; the service's are not published).
  if (r.shard_filter && !r.shard_filter->type) {
    throw ApiError::validation(
        "1 validation error detected: Value 'null' at 'shardFilter.type' failed to satisfy constraint: Member must be "
        "CHILD_SHARDS");
  }
  return r;
}

GetShardIteratorRequest decode_get_shard_iterator(json::object body) {
  GetShardIteratorRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "StreamArn") r.stream_arn = decode::optional_string(value);
    else if (key == "ShardId") r.shard_id = decode::optional_string(value);
    else if (key == "ShardIteratorType") r.shard_iterator_type = decode::optional_string(value);
    else if (key == "SequenceNumber") r.sequence_number = decode::optional_string(value);
  }
  ConstraintErrors errors;
  require(r.stream_arn, "streamArn", errors);
  check_length(r.stream_arn, "streamArn", kArnMin, kArnMax, errors);
  require(r.shard_id, "shardId", errors);
  check_length(r.shard_id, "shardId", kShardIdMin, kShardIdMax, errors);
  if (!r.shard_iterator_type) {
    errors.add_null("shardIteratorType", "Member must not be null");
  } else if (*r.shard_iterator_type != "TRIM_HORIZON" && *r.shard_iterator_type != "LATEST" &&
             *r.shard_iterator_type != "AT_SEQUENCE_NUMBER" && *r.shard_iterator_type != "AFTER_SEQUENCE_NUMBER") {
    errors.add(*r.shard_iterator_type, "shardIteratorType",
               "Member must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, LATEST, AT_SEQUENCE_NUMBER, TRIM_HORIZON]");
  }
  errors.throw_if_any();
  return r;
}

GetRecordsRequest decode_get_records(json::object body) {
  GetRecordsRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "ShardIterator") r.shard_iterator = decode::optional_string(value);
    else if (key == "Limit") r.limit = optional_integer(value);
  }
  ConstraintErrors errors;
  require(r.shard_iterator, "shardIterator", errors);
  check_length(r.shard_iterator, "shardIterator", 1, 2048, errors);
  check_limit(r.limit, 1000, errors);
  errors.throw_if_any();
  return r;
}

}  // namespace dynamod
