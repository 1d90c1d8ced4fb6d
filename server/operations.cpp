#include "server/operations.h"

#include <array>
#include <utility>

#include "protocol/attribute_json.h"
#include "protocol/batch_requests.h"
#include "protocol/item_requests.h"
#include "protocol/read_requests.h"
#include "protocol/responses.h"
#include "protocol/table_requests.h"
#include "protocol/transact_requests.h"
#include "server/async_write.h"
#include "storage/batch_ops.h"
#include "storage/item_ops.h"
#include "storage/read_ops.h"
#include "storage/table_ops.h"
#include "storage/transaction_ops.h"

namespace dynamod {
namespace {

using boost::asio::awaitable;

ArnContext arn_of(const OperationContext& ctx) { return {ctx.scope.region, ctx.scope.account_id}; }

std::string describe(const OperationContext& ctx, const char* member, const ops::TableDescription& d,
                     DescriptionShape shape = DescriptionShape::Full) {
  JsonWriter out;
  out.begin_object();
  out.key(member);
  encode_table_description(out, d.schema, d.counters, d.index_counters, arn_of(ctx), shape);
  out.end_object();
  return out.take();
}

// ---------------------------------------------------------------- tables

awaitable<Reply> create_table(OperationContext& ctx, json::object body) {
  TableSchema schema = validate_create_table(decode_create_table(body));
  ctx.table_name = schema.name;
  double now = ctx.clock();
  std::string uuid = ctx.make_uuid();
  Scope scope = ctx.scope;
  // A job may run twice (the writer retries a failed group job by job), so it copies its inputs.
  auto job = write_job([schema = std::move(schema), scope, now, uuid](WriteContext& w) {
    return ops::create_table(w, scope, schema, now, uuid);
  });
  auto outcome = co_await async_write(ctx.writer, std::move(job));
  co_return describe(ctx, "TableDescription", outcome);
}

awaitable<Reply> describe_table(OperationContext& ctx, json::object body) {
  TableNameRequest request = decode_table_name_request(body);
  const std::string& name = require_table_name(request.table_name);
  ctx.table_name = name;
  ConstraintErrors errors;
  check_table_name_constraints(name, errors);
  errors.throw_if_any();
  co_return describe(ctx, "Table", ops::describe_table(ctx.store, ctx.scope, name));
}

awaitable<Reply> delete_table(OperationContext& ctx, json::object body) {
  TableNameRequest request = decode_table_name_request(body);
  std::string name = require_table_name(request.table_name);
  ctx.table_name = name;
  ConstraintErrors errors;
  check_table_name_constraints(name, errors);
  errors.throw_if_any();
  Scope scope = ctx.scope;
  auto job = write_job([scope, name](WriteContext& w) { return ops::delete_table(w, scope, name); });
  auto outcome = co_await async_write(ctx.writer, std::move(job));
  co_return describe(ctx, "TableDescription", outcome, DescriptionShape::Deleted);
}

awaitable<Reply> update_table(OperationContext& ctx, json::object body) {
  UpdateTableRequest request = decode_update_table(body);
  validate_update_table_request(request);
  ctx.table_name = *request.table_name;
  double now = ctx.clock();
  Scope scope = ctx.scope;
  auto job = write_job([scope, request = std::move(request), now](WriteContext& w) {
    return ops::update_table(w, scope, request, now);
  });
  auto outcome = co_await async_write(ctx.writer, std::move(job));
  co_return describe(ctx, "TableDescription", outcome);
}

awaitable<Reply> list_tables(OperationContext& ctx, json::object body) {
  ops::ListTablesResult result = ops::list_tables(ctx.store, ctx.scope, decode_list_tables(body));
  JsonWriter out;
  out.begin_object();
  out.key("TableNames");
  out.begin_array();
  for (const auto& name : result.names) out.string(name);
  out.end_array();
  if (result.last_evaluated) {
    out.key("LastEvaluatedTableName");
    out.string(*result.last_evaluated);
  }
  out.end_object();
  co_return out.take();
}

// ---------------------------------------------------------------- items

Reply write_item_answer(ops::WriteItemResult result) {
  if (result.failure) return std::move(*result.failure);
  JsonWriter out;
  out.begin_object();
  if (result.attributes_json) {
    out.key("Attributes");
    out.raw(*result.attributes_json);
  }
  encode_consumed_capacity(out, result.consumed, result.return_consumed_capacity);
  if (result.item_collection_metrics) {
    out.key("ItemCollectionMetrics");
    encode_item_collection_metrics(out, *result.item_collection_metrics);
  }
  out.end_object();
  return out.take();
}

awaitable<Reply> get_item(OperationContext& ctx, json::object body) {
  GetItemRequest request = decode_get_item(body);
  ctx.table_name = *request.table_name;
  ops::GetItemResult result = ops::get_item(ctx.store, ctx.scope, request);
  JsonWriter out;
  out.begin_object();
  if (result.item_json) {
    out.key("Item");
    out.raw(*result.item_json);
  }
  encode_consumed_capacity(out, result.consumed, result.return_consumed_capacity);
  out.end_object();
  co_return out.take();
}

awaitable<Reply> put_item(OperationContext& ctx, json::object body) {
  PutItemRequest request = decode_put_item(body);
  ctx.table_name = *request.write.table_name;
  ops::PreparedPut put = ops::prepare_put_item(ctx.store, ctx.scope, std::move(request));
  auto job = write_job([put = std::move(put)](WriteContext& w) { return ops::apply_put_item(w, put); });
  auto outcome = co_await async_write(ctx.writer, std::move(job));
  co_return write_item_answer(outcome);
}

awaitable<Reply> delete_item(OperationContext& ctx, json::object body) {
  DeleteItemRequest request = decode_delete_item(body);
  ctx.table_name = *request.write.table_name;
  ops::PreparedDelete del = ops::prepare_delete_item(ctx.store, ctx.scope, request);
  auto job = write_job([del = std::move(del)](WriteContext& w) { return ops::apply_delete_item(w, del); });
  auto outcome = co_await async_write(ctx.writer, std::move(job));
  co_return write_item_answer(outcome);
}

awaitable<Reply> update_item(OperationContext& ctx, json::object body) {
  UpdateItemRequest request = decode_update_item(body);
  ctx.table_name = *request.write.table_name;
  ops::PreparedUpdate update = ops::prepare_update_item(ctx.store, ctx.scope, request);
  auto job = write_job([update = std::move(update)](WriteContext& w) { return ops::apply_update_item(w, update); });
  auto outcome = co_await async_write(ctx.writer, std::move(job));
  co_return write_item_answer(outcome);
}

// ---------------------------------------------------------------- query and scan

Reply read_answer(const ops::ReadResult& result) {
  JsonWriter out;
  out.begin_object();
  if (result.items_json) {
    out.key("Items");
    out.raw(*result.items_json);
  }
  out.key("Count");
  out.integer(result.count);
  out.key("ScannedCount");
  out.integer(result.scanned);
  if (result.last_evaluated_key_json) {
    out.key("LastEvaluatedKey");
    out.raw(*result.last_evaluated_key_json);
  }
  encode_consumed_capacity(out, result.consumed, result.return_consumed_capacity);
  out.end_object();
  return out.take();
}

awaitable<Reply> query(OperationContext& ctx, json::object body) {
  QueryRequest request = decode_query(body);
  ctx.table_name = *request.read.table_name;
  co_return read_answer(ops::query(ctx.store, ctx.scope, request));
}

awaitable<Reply> scan(OperationContext& ctx, json::object body) {
  ScanRequest request = decode_scan(body);
  ctx.table_name = *request.read.table_name;
  co_return read_answer(ops::scan(ctx.store, ctx.scope, request));
}

// ---------------------------------------------------------------- batches

void write_consumed_list(JsonWriter& out, const std::vector<ConsumedCapacity>& consumed, ReturnConsumedCapacity mode) {
  if (mode == ReturnConsumedCapacity::None) return;
  out.key("ConsumedCapacity");
  out.begin_array();
  for (const auto& c : consumed) encode_consumed_capacity_object(out, c, mode);
  out.end_array();
}

void write_collection_metrics(JsonWriter& out,
                              const std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>& metrics) {
  if (metrics.empty()) return;
  out.key("ItemCollectionMetrics");
  out.begin_object();
  for (const auto& [table, list] : metrics) {
    out.key(table);
    out.begin_array();
    for (const auto& m : list) encode_item_collection_metrics(out, m);
    out.end_array();
  }
  out.end_object();
}

awaitable<Reply> batch_get_item(OperationContext& ctx, json::object body) {
  BatchGetItemRequest request = decode_batch_get_item(body);
  ops::BatchGetResult result = ops::batch_get_item(ctx.store, ctx.scope, request);
  JsonWriter out;
  out.begin_object();
  out.key("Responses");
  out.begin_object();
  for (const auto& [table, items] : result.responses) {
    out.key(table);
    out.begin_array();
    for (const auto& item : items) out.raw(item);
    out.end_array();
  }
  out.end_object();
  out.key("UnprocessedKeys");
  out.begin_object();
  for (const auto& [index, keys] : result.unprocessed) {
    const BatchGetTable& t = request.tables[index];
    out.key(t.table_name);
    out.begin_object();
    out.key("Keys");
    out.begin_array();
    for (const auto& key : keys) encode_item(out, key);
    out.end_array();
    if (t.projection_expression) {
      out.key("ProjectionExpression");
      out.string(*t.projection_expression);
    }
    if (t.names) {
      out.key("ExpressionAttributeNames");
      out.begin_object();
      for (const auto& [k, v] : *t.names) {
        out.key(k);
        out.string(v);
      }
      out.end_object();
    }
    if (t.attributes_to_get) {
      out.key("AttributesToGet");
      out.begin_array();
      for (const auto& a : *t.attributes_to_get) out.string(a);
      out.end_array();
    }
    out.key("ConsistentRead");
    out.boolean(t.consistent_read);
    out.end_object();
  }
  out.end_object();
  write_consumed_list(out, result.consumed, result.return_consumed_capacity);
  out.end_object();
  co_return out.take();
}

awaitable<Reply> batch_write_item(OperationContext& ctx, json::object body) {
  BatchWriteItemRequest request = decode_batch_write_item(body);
  ops::PreparedBatchWrite batch = ops::prepare_batch_write(ctx.store, ctx.scope, std::move(request));
  auto job = write_job([batch = std::move(batch)](WriteContext& w) { return ops::apply_batch_write(w, batch); });
  ops::BatchWriteResult result = co_await async_write(ctx.writer, std::move(job));
  JsonWriter out;
  out.begin_object();
  out.key("UnprocessedItems");
  out.begin_object();
  out.end_object();
  write_consumed_list(out, result.consumed, result.return_consumed_capacity);
  write_collection_metrics(out, result.item_collection_metrics);
  out.end_object();
  co_return out.take();
}

// ---------------------------------------------------------------- transactions

awaitable<Reply> transact_write_items(OperationContext& ctx, json::object body) {
  TransactWriteItemsRequest request = decode_transact_write_items(body);
  auto now_ms = static_cast<std::int64_t>(ctx.clock() * 1000);
  ops::PreparedTransaction transaction =
      ops::prepare_transact_write(ctx.store, ctx.scope, std::move(request), now_ms);
  auto job = write_job([transaction = std::move(transaction)](WriteContext& w) {
    return ops::apply_transact_write(w, transaction);
  });
  ops::TransactWriteResult result = co_await async_write(ctx.writer, std::move(job));
  if (result.failure) co_return std::move(*result.failure);
  JsonWriter out;
  out.begin_object();
  write_consumed_list(out, result.consumed, result.return_consumed_capacity);
  write_collection_metrics(out, result.item_collection_metrics);
  out.end_object();
  co_return out.take();
}

awaitable<Reply> transact_get_items(OperationContext& ctx, json::object body) {
  TransactGetItemsRequest request = decode_transact_get_items(body);
  ops::TransactGetResult result = ops::transact_get(ctx.store, ctx.scope, request);
  if (result.failure) co_return std::move(*result.failure);
  JsonWriter out;
  out.begin_object();
  out.key("Responses");
  out.begin_array();
  for (const auto& item : result.items) {
    out.begin_object();
    if (item) {
      out.key("Item");
      out.raw(*item);
    }
    out.end_object();
  }
  out.end_array();
  write_consumed_list(out, result.consumed, result.return_consumed_capacity);
  out.end_object();
  co_return out.take();
}

constexpr std::array<std::pair<std::string_view, OperationHandler>, 15> kOperations{{
    {"BatchGetItem", batch_get_item},
    {"BatchWriteItem", batch_write_item},
    {"CreateTable", create_table},
    {"DeleteItem", delete_item},
    {"DeleteTable", delete_table},
    {"DescribeTable", describe_table},
    {"GetItem", get_item},
    {"ListTables", list_tables},
    {"PutItem", put_item},
    {"Query", query},
    {"Scan", scan},
    {"TransactGetItems", transact_get_items},
    {"TransactWriteItems", transact_write_items},
    {"UpdateItem", update_item},
    {"UpdateTable", update_table},
}};

}  // namespace

OperationHandler find_operation(std::string_view name) {
  for (const auto& [op, handler] : kOperations) {
    if (op == name) return handler;
  }
  return nullptr;
}

}  // namespace dynamod
