// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction: PartiQL
// statements parsed and translated (protocol/partiql), then run through the
// same storage operations as GetItem/Query/Scan, PutItem/UpdateItem/
// DeleteItem and TransactWriteItems/TransactGetItems (storage/partiql_*).
#include <array>

#include "protocol/json_writer.h"
#include "protocol/partiql/next_token.h"
#include "protocol/partiql/parser.h"
#include "protocol/partiql/requests.h"
#include "protocol/responses.h"
#include "server/async_write.h"
#include "server/operations.h"
#include "server/usage.h"
#include "storage/partiql_batch_ops.h"
#include "storage/partiql_ops.h"
#include "storage/partiql_transaction_ops.h"

namespace dynamod {
namespace {

using boost::asio::awaitable;

// A batch member's error Code: the service's short names (BatchStatementErrorCodeEnum).
std::string_view member_code(ErrorCode code) {
  switch (code) {
    case ErrorCode::ValidationException: return "ValidationError";
    case ErrorCode::ConditionalCheckFailedException: return "ConditionalCheckFailed";
    case ErrorCode::ResourceNotFoundException: return "ResourceNotFound";
    case ErrorCode::DuplicateItemException: return "DuplicateItem";
    case ErrorCode::ItemCollectionSizeLimitExceededException: return "ItemCollectionSizeLimitExceeded";
    case ErrorCode::ProvisionedThroughputExceededException: return "ProvisionedThroughputExceeded";
    case ErrorCode::TransactionConflictException: return "TransactionConflict";
    case ErrorCode::AccessDeniedException: return "AccessDenied";
    default: return "InternalServerError";
  }
}

Reply select_answer(const ops::ReadResult& result, std::string_view fingerprint, ReturnConsumedCapacity mode) {
  JsonWriter out;
  out.begin_object();
  out.key("Items");
  out.raw(*result.items_json);
  if (result.last_evaluated_key_json) {
    out.key("NextToken");
    out.string(partiql::encode_next_token(fingerprint, *result.last_evaluated_key_json));
  }
  encode_consumed_capacity(out, result.consumed, mode);
  out.end_object();
  return out.take();
}

Reply write_answer(ops::WriteItemResult result, ReturnConsumedCapacity mode) {
  if (result.failure) return std::move(*result.failure);
  JsonWriter out;
  out.begin_object();
  out.key("Items");
  out.begin_array();
  if (result.attributes_json) out.raw(*result.attributes_json);
  out.end_array();
  encode_consumed_capacity(out, result.consumed, mode);
  out.end_object();
  return out.take();
}

awaitable<Reply> execute_statement(OperationContext& ctx, json::object body) {
  partiql::ExecuteStatementRequest request = partiql::decode_execute_statement(body);
  partiql::Statement statement = partiql::parse(request.statement.statement);
  request.statement.check_parameters();
  if (statement.kind() == partiql::StatementKind::Exists) {
    throw ApiError::validation(std::string(ops::kExistsOutsideTransaction));
  }
  partiql::Inputs inputs;
  inputs.request_fingerprint = partiql::request_fingerprint(request.statement.statement, request.statement.parameters);
  inputs.parameters = std::move(request.statement.parameters);
  inputs.consistent_read = request.statement.consistent_read;
  inputs.limit = request.limit;
  inputs.next_token = std::move(request.next_token);
  inputs.return_old_on_condition_failure = request.statement.return_old_on_condition_failure;
  ops::PreparedStatement prepared = ops::prepare_statement(ctx.store, ctx.scope, statement, inputs);
  ctx.table_name = prepared.table->schema.name;
  const ReturnConsumedCapacity mode = request.return_consumed_capacity;
  TablePtr table = prepared.table;
  if (prepared.read) {
    const ReadSpec& spec = prepared.read->spec;
    const std::string index = spec.index ? spec.index->name : std::string();
    std::optional<AttributeValue> combined;
    if (auto throttled = admit_read(ctx, *table, index, read_partition(spec, combined)))
      co_return std::move(*throttled);
    ops::ReadResult result = ops::run_select(ctx.store, prepared);
    account_read(ctx, "ExecuteStatement", *table, spec, result, "ExecuteStatement ");
    co_return select_answer(result, inputs.request_fingerprint, mode);
  }
  const PrimaryKey key = prepared.write().location.key;
  if (auto throttled = admit_write(ctx, *table, &key.partition)) co_return std::move(*throttled);
  auto job = write_job([prepared = std::move(prepared)](WriteContext& w) { return ops::apply_statement(w, prepared); });
  ops::WriteItemResult result = co_await async_write(ctx.writer, std::move(job));
  account_item(ctx, "ExecuteStatement", *table, key, result.consumed);
  co_return write_answer(std::move(result), mode);
}

Reply batch_answer(const ops::StatementBatchResult& result) {
  JsonWriter out;
  out.begin_object();
  out.key("Responses");
  out.begin_array();
  for (const auto& o : result.outcomes) {
    out.begin_object();
    if (o.error) {
      out.key("Error");
      out.begin_object();
      out.key("Code");
      out.string(member_code(o.error->code()));
      out.key("Message");
      out.string(o.error->message());
      out.end_object();
    }
    if (o.table_name) {
      out.key("TableName");
      out.string(*o.table_name);
    }
    if (o.item_json) {
      out.key("Item");
      out.raw(*o.item_json);
    }
    out.end_object();
  }
  out.end_array();
  encode_consumed_capacity_list(out, result.consumed, result.return_consumed_capacity);
  out.end_object();
  return out.take();
}

awaitable<Reply> batch_execute_statement(OperationContext& ctx, json::object body) {
  partiql::BatchExecuteStatementRequest request = partiql::decode_batch_execute_statement(body);
  ops::PreparedStatementBatch batch = ops::prepare_statement_batch(ctx.store, ctx.scope, request);
  // Members are not throttled one by one (README); their units are accounted per table.
  const std::vector<std::pair<std::string, Item>> no_patterns;
  if (batch.reads) {
    ops::StatementBatchResult result = ops::run_batch_reads(ctx.store, batch);
    account_tables(ctx, "BatchExecuteStatement", result.consumed, no_patterns);
    co_return batch_answer(result);
  }
  auto job = write_job([batch = std::move(batch)](WriteContext& w) { return ops::apply_batch_writes(w, batch); });
  ops::StatementBatchResult result = co_await async_write(ctx.writer, std::move(job));
  account_tables(ctx, "BatchExecuteStatement", result.consumed, no_patterns);
  co_return batch_answer(result);
}

Reply transaction_writes_answer(ops::TransactWriteResult result) {
  if (result.failure) return std::move(*result.failure);
  JsonWriter out;
  out.begin_object();
  // A write transaction answers an empty list, not one entry per statement.
  out.key("Responses");
  out.begin_array();
  out.end_array();
  encode_consumed_capacity_list(out, result.consumed, result.return_consumed_capacity);
  out.end_object();
  return out.take();
}

awaitable<Reply> execute_transaction(OperationContext& ctx, json::object body) {
  partiql::ExecuteTransactionRequest request = partiql::decode_execute_transaction(body);
  auto now_ms = static_cast<std::int64_t>(ctx.clock() * 1000);
  ops::PreparedStatementTransaction transaction =
      ops::prepare_statement_transaction(ctx.store, ctx.scope, request, now_ms);
  const std::vector<std::pair<std::string, Item>> no_patterns;
  if (transaction.reads) {
    if (auto throttled = admit_transaction(ctx, transaction.gets)) co_return std::move(*throttled);
    ops::TransactGetResult result = ops::run_transaction_reads(ctx.store, ctx.scope, transaction);
    account_tables(ctx, "ExecuteTransaction", result.consumed, no_patterns);
    co_return transact_get_answer(result);
  }
  if (auto throttled = admit_transaction(ctx, transaction.writes)) co_return std::move(*throttled);
  auto job = write_job(
      [writes = std::move(transaction.writes)](WriteContext& w) { return ops::apply_transact_write(w, writes); });
  ops::TransactWriteResult result = co_await async_write(ctx.writer, std::move(job));
  account_tables(ctx, "ExecuteTransaction", result.consumed, no_patterns);
  co_return transaction_writes_answer(std::move(result));
}

constexpr std::array<NamedOperation, 3> kOperations{{
    {"BatchExecuteStatement", batch_execute_statement},
    {"ExecuteStatement", execute_statement},
    {"ExecuteTransaction", execute_transaction},
}};

}  // namespace

std::span<const NamedOperation> partiql_operations() { return kOperations; }

}  // namespace dynamod
