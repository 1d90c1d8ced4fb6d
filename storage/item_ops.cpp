#include "storage/item_ops.h"

#include <spdlog/spdlog.h>

#include "metering/capacity.h"
#include "metering/item_size.h"
#include "protocol/attribute_json.h"
#include "protocol/expr/evaluate.h"
#include "protocol/expr/expression.h"
#include "protocol/expr/projection.h"
#include "protocol/expr/update.h"
#include "protocol/item_expressions.h"
#include "protocol/json_writer.h"
#include "storage/index_entries.h"
#include "storage/item_change.h"
#include "storage/item_codec.h"
#include "storage/key_codec.h"

namespace dynamod::ops {
namespace {

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

std::string render_record(std::string_view record) {
  JsonWriter out;
  items::write_json(out, record);
  return out.take();
}

std::string render_item(const Item& item) {
  JsonWriter out;
  encode_item(out, item);
  return out.take();
}

// The table a prepared write was validated against, if it still exists.
const Table& current_table(WriteContext& ctx, const ItemLocation& at) {
  TablePtr now = ctx.find_table(at.table->ns, at.table->schema.name);
  if (!now || now->schema.id != at.table->schema.id) throw ApiError::resource_not_found();
  return *now;
}

PreparedWrite prepare_write(Store& store, const Scope& scope, const WriteParameters& w, expr::Condition condition) {
  PreparedWrite prepared;
  prepared.condition = std::move(condition);
  prepared.return_values = w.return_values;
  prepared.return_old_on_condition_failure = w.return_values_on_condition_failure;
  prepared.return_consumed_capacity = w.return_consumed_capacity;
  prepared.return_item_collection_metrics = w.return_item_collection_metrics;
  prepared.location.table = resolve_table(store, scope, *w.table_name);
  return prepared;
}

// The item as it is before a write, decoded only when someone needs it.
struct OldItem {
  std::optional<std::string_view> record;
  std::optional<Item> item;
  std::uint64_t size = 0;

  OldItem(WriteContext& ctx, const ItemLocation& at, bool decode) {
    record = find_record(ctx.txn(), ctx.dbs().items, at);
    if (!record) return;
    size = items::metered_size(*record);
    if (decode) item = items::decode(*record);
  }
  bool exists() const { return record.has_value(); }
  const Item* get() const { return item ? &*item : nullptr; }
};

// Evaluates a write's condition; on failure fills `result` with the service's
// error (and the old item when asked) and returns false.
bool check_condition(const PreparedWrite& w, const OldItem& old, WriteItemResult& result) {
  if (w.condition.empty() || expr::evaluate(w.condition, old.get())) return true;
  ApiError error = ApiError::conditional_check_failed();
  if (w.return_old_on_condition_failure && old.exists()) error.set_extra_json("\"Item\":" + render_record(*old.record));
  result.failure = std::move(error);
  return false;
}

bool has_indexes(const Table& table) {
  return !table.schema.global_indexes.empty() || !table.schema.local_indexes.empty();
}

// Writes a planned change and reports what it cost and, when asked, its item collection.
void commit(WriteContext& ctx, ItemChange& change, const PreparedWrite& w, WriteItemResult& result) {
  change.plan(ctx);
  change.apply(ctx);
  change.add_index_capacity(result.consumed, false);
  if (w.return_item_collection_metrics) result.item_collection_metrics = change.collection_metrics();
}

WriteItemResult start_result(const Table& table, const PreparedWrite& w) {
  WriteItemResult result;
  result.return_consumed_capacity = w.return_consumed_capacity;
  result.consumed.table_name = table.schema.name;
  return result;
}

}  // namespace

TablePtr resolve_table(Store& store, const Scope& scope, const std::string& name_or_arn) {
  std::optional<QualifiedName> qualified = scope.qualify(name_or_arn);
  TablePtr table = qualified ? store.catalog().find(qualified->ns, qualified->name) : nullptr;
  if (!table) throw ApiError::resource_not_found();
  return table;
}

ItemLocation locate(TablePtr table, PrimaryKey key) {
  ItemLocation location;
  const AttributeValue* sort = key.sort_ptr();
  location.stored_key = keys::to_stored_key(keys::encode_primary_key(table->schema.id, key.partition, sort));
  location.key_image = keys::key_image(key.partition, sort);
  location.table = std::move(table);
  location.key = std::move(key);
  return location;
}

GetItemResult get_item(Store& store, const Scope& scope, const GetItemRequest& request) {
  std::optional<std::vector<expr::Path>> projection = parse_get_projection(request);
  TablePtr table = resolve_table(store, scope, *request.table_name);
  ItemLocation at = locate(table, key_from_key(table->schema.key, *request.key));

  GetItemResult result;
  result.return_consumed_capacity = request.return_consumed_capacity;
  std::uint64_t size = 0;
  {
    auto txn = store.read();
    if (auto record = find_record(txn, store.dbs().items, at)) {
      size = items::metered_size(*record);
      result.item_json = projection ? render_item(expr::project(items::decode(*record), *projection))
                                    : render_record(*record);
    }
  }
  // Projections do not reduce the cost: the whole item is read.
  result.consumed.table_name = table->schema.name;
  result.consumed.table_read_units = metering::read_units(
      size, request.consistent_read ? metering::ReadMode::Strong : metering::ReadMode::Eventual);
  return result;
}

PreparedPut prepare_put_item(Store& store, const Scope& scope, PutItemRequest request) {
  check_put_or_delete_return_values(request.write.return_values);
  ItemExpressions expressions = parse_put_or_delete_expressions(request.write);
  PreparedPut put;
  put.write = prepare_write(store, scope, request.write, std::move(expressions.condition));
  Item& item = *request.item;
  TablePtr table = put.write.location.table;
  put.write.location = locate(table, key_from_item(table->schema.key, item));
  indexes::check_index_keys(table->schema, item);
  put.size = metering::item_size(item);
  check_item_size(put.size);
  put.record = items::encode(item, static_cast<std::uint32_t>(put.size), put.write.location.key_image);
  if (has_indexes(*table)) put.item = std::move(item);
  return put;
}

WriteItemResult apply_put_item(WriteContext& ctx, const PreparedPut& put) {
  const PreparedWrite& w = put.write;
  const Table& table = current_table(ctx, w.location);
  WriteItemResult result = start_result(table, w);
  OldItem old(ctx, w.location, !w.condition.empty() || has_indexes(table));
  result.consumed.table_write_units = metering::write_units(std::max(old.size, put.size));
  if (!check_condition(w, old, result)) return result;
  if (w.return_values == ReturnValues::AllOld && old.exists()) result.attributes_json = render_record(*old.record);
  ItemChange change(table, w.location);
  change.set_old(old.exists(), old.get(), old.size);
  change.set_new(put.item ? &*put.item : nullptr, put.record, put.size);
  commit(ctx, change, w, result);
  return result;
}

PreparedDelete prepare_delete_item(Store& store, const Scope& scope, const DeleteItemRequest& request) {
  check_put_or_delete_return_values(request.write.return_values);
  ItemExpressions expressions = parse_put_or_delete_expressions(request.write);
  PreparedDelete del;
  del.write = prepare_write(store, scope, request.write, std::move(expressions.condition));
  TablePtr table = del.write.location.table;
  del.write.location = locate(table, key_from_key(table->schema.key, *request.key));
  return del;
}

WriteItemResult apply_delete_item(WriteContext& ctx, const PreparedDelete& del) {
  const PreparedWrite& w = del.write;
  const Table& table = current_table(ctx, w.location);
  WriteItemResult result = start_result(table, w);
  OldItem old(ctx, w.location, !w.condition.empty() || has_indexes(table));
  result.consumed.table_write_units = metering::write_units(old.size);
  if (!check_condition(w, old, result)) return result;
  if (!old.exists()) return result;
  if (w.return_values == ReturnValues::AllOld) result.attributes_json = render_record(*old.record);
  ItemChange change(table, w.location);
  change.set_old(true, old.get(), old.size);
  commit(ctx, change, w, result);
  return result;
}

PreparedUpdate prepare_update_item(Store& store, const Scope& scope, const UpdateItemRequest& request) {
  ItemExpressions expressions = parse_update_expressions(request);
  PreparedUpdate update;
  update.write = prepare_write(store, scope, request.write, std::move(expressions.condition));
  update.actions = std::move(*expressions.update);
  TablePtr table = update.write.location.table;
  const KeyDef& key = table->schema.key;
  std::vector<std::string_view> key_names{key.partition.name};
  if (key.sort) key_names.push_back(key.sort->name);
  expr::check_key_updates(update.actions, key_names);
  update.write.location = locate(table, key_from_key(key, *request.key));
  return update;
}

WriteItemResult apply_update_item(WriteContext& ctx, const PreparedUpdate& update) {
  const PreparedWrite& w = update.write;
  const Table& table = current_table(ctx, w.location);
  WriteItemResult result = start_result(table, w);
  OldItem old(ctx, w.location, true);
  result.consumed.table_write_units = metering::write_units(old.size);
  if (!check_condition(w, old, result)) return result;

  const expr::UpdateActions& actions = update.actions;
  // A missing item is created, even by an update with no actions, unless the
  // update only removes attributes.
  bool only_removes = !actions.remove.empty() && actions.set.empty() && actions.add.empty() && actions.del.empty();
  if (!old.exists() && only_removes) {
    return result;
  }
  Item item = expr::apply_update(actions, old.get());
  const PrimaryKey& key = w.location.key;
  item.set(table.schema.key.partition.name, key.partition);
  if (table.schema.key.sort) item.set(table.schema.key.sort->name, *key.sort);
  indexes::check_index_keys(table.schema, item);
  std::uint64_t size = metering::item_size(item);
  if (size > kMaxItemSize) throw ApiError::validation("Item size to update has exceeded the maximum allowed size");
  result.consumed.table_write_units = metering::write_units(std::max(old.size, size));

  switch (w.return_values) {
    case ReturnValues::None: break;
    case ReturnValues::AllOld:
      if (old.exists()) result.attributes_json = render_item(*old.item);
      break;
    case ReturnValues::UpdatedOld:
      if (old.exists()) {
        Item parts = expr::updated_attributes(actions, *old.item);
        if (!parts.empty()) result.attributes_json = render_item(parts);
      }
      break;
    case ReturnValues::AllNew: result.attributes_json = render_item(item); break;
    case ReturnValues::UpdatedNew: {
      Item parts = expr::updated_attributes(actions, item);
      if (!parts.empty()) result.attributes_json = render_item(parts);
      break;
    }
  }
  ItemChange change(table, w.location);
  change.set_old(old.exists(), old.get(), old.size);
  change.set_new(&item, items::encode(item, static_cast<std::uint32_t>(size), w.location.key_image), size);
  commit(ctx, change, w, result);
  return result;
}

}  // namespace dynamod::ops
