#include "storage/item_ops.h"

#include <spdlog/spdlog.h>

#include "metering/capacity.h"
#include "metering/item_size.h"
#include "protocol/json_writer.h"
#include "storage/item_codec.h"
#include "storage/key_codec.h"

namespace dynamod::ops {
namespace {

ItemLocation locate(TablePtr table, PrimaryKey key) {
  ItemLocation location;
  const AttributeValue* sort = key.sort_ptr();
  location.stored_key = keys::to_stored_key(keys::encode_primary_key(table->schema.id, key.partition, sort));
  location.key_image = keys::key_image(key.partition, sort);
  location.table = std::move(table);
  location.key = std::move(key);
  return location;
}

// The stored record at a location, if it holds the item asked for.
std::optional<std::string_view> find_record(const lmdb::TxnBase& txn, lmdb::Dbi items, const ItemLocation& at) {
  auto record = txn.get(items, at.stored_key);
  if (!record) return std::nullopt;
  if (items::key_image(*record) != at.key_image) {
    // Two keys with one 128-bit hash: astronomically unlikely, never merged.
    spdlog::error("key hash collision in table {}", at.table->schema.name);
    throw ApiError::internal("Internal server error");
  }
  return record;
}

std::string render_item(std::string_view record) {
  JsonWriter out;
  items::write_json(out, record);
  return out.take();
}

// Expressions arrive with the expression language; until then they are refused
// rather than ignored.
void refuse_expressions(const ExpressionParameters& e, bool has_expected) {
  if (e.condition_expression) throw ApiError::validation("dynamod does not support ConditionExpression yet");
  if (has_expected) throw ApiError::validation("dynamod does not support Expected yet");
  if (e.values) {
    throw ApiError::validation(
        "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null");
  }
  if (e.names) throw ApiError::validation("ExpressionAttributeNames can only be specified when using expressions");
}

void check_write_return_values(ReturnValues rv) {
  if (rv != ReturnValues::None && rv != ReturnValues::AllOld) {
    throw ApiError::validation("ReturnValues can only be ALL_OLD or NONE");
  }
}

// The table a prepared write was validated against, if it still exists.
const Table& current_table(WriteContext& ctx, const ItemLocation& at) {
  TablePtr now = ctx.find_table(at.table->ns, at.table->schema.name);
  if (!now || now->schema.id != at.table->schema.id) throw ApiError::resource_not_found();
  return *now;
}

}  // namespace

TablePtr resolve_table(Store& store, const Scope& scope, const std::string& name_or_arn) {
  std::optional<QualifiedName> qualified = scope.qualify(name_or_arn);
  TablePtr table = qualified ? store.catalog().find(qualified->ns, qualified->name) : nullptr;
  if (!table) throw ApiError::resource_not_found();
  return table;
}

GetItemResult get_item(Store& store, const Scope& scope, const GetItemRequest& request) {
  if (request.projection_expression) throw ApiError::validation("dynamod does not support ProjectionExpression yet");
  if (request.attributes_to_get) throw ApiError::validation("dynamod does not support AttributesToGet yet");
  if (request.names) throw ApiError::validation("ExpressionAttributeNames can only be specified when using expressions");
  TablePtr table = resolve_table(store, scope, *request.table_name);
  ItemLocation at = locate(table, key_from_key(table->schema.key, *request.key));

  GetItemResult result;
  result.return_consumed_capacity = request.return_consumed_capacity;
  std::uint64_t size = 0;
  {
    auto txn = store.read();
    if (auto record = find_record(txn, store.dbs().items, at)) {
      size = items::metered_size(*record);
      result.item_json = render_item(*record);
    }
  }
  result.consumed.table_name = table->schema.name;
  result.consumed.table_read_units = metering::read_units(
      size, request.consistent_read ? metering::ReadMode::Strong : metering::ReadMode::Eventual);
  return result;
}

PreparedPut prepare_put_item(Store& store, const Scope& scope, const PutItemRequest& request) {
  check_write_return_values(request.return_values);
  refuse_expressions(request.expression, request.has_expected);
  TablePtr table = resolve_table(store, scope, *request.table_name);
  const Item& item = *request.item;
  PrimaryKey key = key_from_item(table->schema.key, item);
  std::uint64_t size = metering::item_size(item);
  check_item_size(size);

  PreparedPut put;
  put.location = locate(std::move(table), std::move(key));
  put.size = size;
  put.record = items::encode(item, static_cast<std::uint32_t>(size), put.location.key_image);
  put.return_values = request.return_values;
  put.return_consumed_capacity = request.return_consumed_capacity;
  return put;
}

WriteItemResult apply_put_item(WriteContext& ctx, const PreparedPut& put) {
  const Table& table = current_table(ctx, put.location);
  WriteItemResult result;
  result.return_consumed_capacity = put.return_consumed_capacity;
  std::uint64_t old_size = 0;
  bool existed = false;
  if (auto old = find_record(ctx.txn(), ctx.dbs().items, put.location)) {
    existed = true;
    old_size = items::metered_size(*old);
    if (put.return_values == ReturnValues::AllOld) result.attributes_json = render_item(*old);
  }
  ctx.txn().put(ctx.dbs().items, put.location.stored_key, put.record);
  ctx.add_stats(table, existed ? 0 : 1, static_cast<std::int64_t>(put.size) - static_cast<std::int64_t>(old_size));
  result.consumed.table_name = table.schema.name;
  result.consumed.table_write_units = metering::write_units(std::max(old_size, put.size));
  return result;
}

PreparedDelete prepare_delete_item(Store& store, const Scope& scope, const DeleteItemRequest& request) {
  check_write_return_values(request.return_values);
  refuse_expressions(request.expression, request.has_expected);
  TablePtr table = resolve_table(store, scope, *request.table_name);
  PreparedDelete del;
  PrimaryKey key = key_from_key(table->schema.key, *request.key);
  del.location = locate(std::move(table), std::move(key));
  del.return_values = request.return_values;
  del.return_consumed_capacity = request.return_consumed_capacity;
  return del;
}

WriteItemResult apply_delete_item(WriteContext& ctx, const PreparedDelete& del) {
  const Table& table = current_table(ctx, del.location);
  WriteItemResult result;
  result.return_consumed_capacity = del.return_consumed_capacity;
  std::uint64_t old_size = 0;
  if (auto old = find_record(ctx.txn(), ctx.dbs().items, del.location)) {
    old_size = items::metered_size(*old);
    if (del.return_values == ReturnValues::AllOld) result.attributes_json = render_item(*old);
    ctx.txn().del(ctx.dbs().items, del.location.stored_key);
    ctx.add_stats(table, -1, -static_cast<std::int64_t>(old_size));
  }
  result.consumed.table_name = table.schema.name;
  result.consumed.table_write_units = metering::write_units(old_size);
  return result;
}

}  // namespace dynamod::ops
