// Handlers of the DynamoDB Streams API (target DynamoDBStreams_20120810).

#include <array>

#include "protocol/json_writer.h"
#include "protocol/stream_requests.h"
#include "server/operations.h"
#include "storage/stream_ops.h"
#include "storage/streams.h"

namespace dynamod {
namespace {

using boost::asio::awaitable;

awaitable<Reply> list_streams(OperationContext& ctx, json::object body) {
  ops::ListStreamsResult result = ops::list_streams(ctx.store, ctx.scope, decode_list_streams(body));
  JsonWriter out;
  out.begin_object();
  out.key("Streams");
  out.begin_array();
  for (const auto& s : result.streams) {
    out.begin_object();
    out.key("StreamArn");
    out.string(s.arn);
    out.key("TableName");
    out.string(s.table);
    out.key("StreamLabel");
    out.string(s.label);
    out.end_object();
  }
  out.end_array();
  if (result.last_evaluated_arn) {
    out.key("LastEvaluatedStreamArn");
    out.string(*result.last_evaluated_arn);
  }
  out.end_object();
  co_return out.take();
}

void write_key_schema(JsonWriter& out, const KeyDef& key) {
  out.begin_array();
  for (const KeyElement* k : {&key.partition, key.sort ? &*key.sort : nullptr}) {
    if (k == nullptr) continue;
    out.begin_object();
    out.key("AttributeName");
    out.string(k->name);
    out.key("KeyType");
    out.string(k == &key.partition ? "HASH" : "RANGE");
    out.end_object();
  }
  out.end_array();
}

awaitable<Reply> describe_stream(OperationContext& ctx, json::object body) {
  DescribeStreamRequest request = decode_describe_stream(body);
  ops::DescribeStreamResult d = ops::describe_stream(ctx.store, ctx.scope, request);
  ctx.table_name = d.info.table;
  JsonWriter out;
  out.begin_object();
  out.key("StreamDescription");
  out.begin_object();
  out.key("StreamArn");
  out.string(d.arn);
  out.key("StreamLabel");
  out.string(d.info.label);
  out.key("StreamStatus");
  out.string(d.info.enabled ? "ENABLED" : "DISABLED");
  out.key("StreamViewType");
  out.string(stream_view_type_name(d.info.view_type));
  out.key("CreationRequestDateTime");
  out.real(static_cast<double>(d.info.created_ms) / 1000.0);
  out.key("TableName");
  out.string(d.info.table);
  out.key("KeySchema");
  write_key_schema(out, d.info.key);
  out.key("Shards");
  out.begin_array();
  // One shard per stream, which never splits: it has no children, so a ShardFilter (CHILD_SHARDS
  // of any shard, as DynamoDB Local answers for an unknown one too) lists nothing;
  // ExclusiveStartShardId past the shard lists nothing either.
  if (!request.shard_filter && (!request.exclusive_start_shard_id || *request.exclusive_start_shard_id < d.shard_id)) {
    out.begin_object();
    out.key("ShardId");
    out.string(d.shard_id);
    out.key("SequenceNumberRange");
    out.begin_object();
    out.key("StartingSequenceNumber");
    out.string(streams::sequence_text(d.info.start_sequence));
    if (d.ending_sequence) {
      out.key("EndingSequenceNumber");
      out.string(streams::sequence_text(*d.ending_sequence));
    }
    out.end_object();
    out.end_object();
  }
  out.end_array();
  out.end_object();
  out.end_object();
  co_return out.take();
}

awaitable<Reply> get_shard_iterator(OperationContext& ctx, json::object body) {
  std::string iterator = ops::get_shard_iterator(ctx.store, ctx.scope, decode_get_shard_iterator(body));
  JsonWriter out;
  out.begin_object();
  out.key("ShardIterator");
  out.string(iterator);
  out.end_object();
  co_return out.take();
}

awaitable<Reply> get_records(OperationContext& ctx, json::object body) {
  ops::GetRecordsResult result = ops::get_records(ctx.store, ctx.scope, decode_get_records(body));
  JsonWriter out;
  out.begin_object();
  out.key("Records");
  out.begin_array();
  for (const auto& r : result.records) out.raw(r);
  out.end_array();
  if (result.next_iterator) {
    out.key("NextShardIterator");
    out.string(*result.next_iterator);
  }
  out.end_object();
  co_return out.take();
}

constexpr std::array<NamedOperation, 4> kStreamOperations{{
    {"DescribeStream", describe_stream},
    {"GetRecords", get_records},
    {"GetShardIterator", get_shard_iterator},
    {"ListStreams", list_streams},
}};

}  // namespace

std::span<const NamedOperation> stream_operations() { return kStreamOperations; }

OperationHandler find_stream_operation(std::string_view name) {
  for (const auto& [op, handler] : kStreamOperations) {
    if (op == name) return handler;
  }
  return nullptr;
}

}  // namespace dynamod
