#include "storage/item_ops.h"

#include <spdlog/spdlog.h>

#include "metering/capacity.h"
#include "metering/item_size.h"
#include "protocol/attribute_json.h"
#include "protocol/attribute_name_limit.h"
#include "protocol/expr/evaluate.h"
#include "protocol/expr/expression.h"
#include "protocol/expr/projection.h"
#include "protocol/expr/update.h"
#include "protocol/item_expressions.h"
#include "protocol/json_writer.h"
#include "protocol/key_paths.h"
#include "protocol/vector_index.h"
#include "storage/index_entries.h"
#include "storage/item_change.h"
#include "storage/item_codec.h"
#include "storage/key_codec.h"
#include "storage/vector_entries.h"

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

std::string render_record(std::string_view record, const AttributeNames& names) {
  JsonWriter out;
  items::write_json(out, record, names);
  return out.take();
}

std::string render_item(const Item& item) {
  JsonWriter out;
  encode_item(out, item);
  return out.take();
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
  std::optional<std::string_view> record;  // valid until the job writes
  std::optional<Item> item;
  std::uint64_t size = 0;

  const AttributeNames& names;

  OldItem(WriteContext& ctx, const ItemLocation& at, bool decode) : names(ctx.store().names()) {
    record = find_record(ctx.txn(), ctx.dbs().items, at);
    if (!record) return;
    size = items::metered_size(*record);
    if (decode) item = items::decode(*record, names);
  }
  bool exists() const { return record.has_value(); }
  const Item* get() const { return item ? &*item : nullptr; }
  std::string json() const { return render_record(*record, names); }
};

// Evaluates a write's condition; on failure fills `result` with the service's
// error (and the old item when asked) and returns false.
bool check_condition(const PreparedWrite& w, const OldItem& old, WriteItemResult& result) {
  if (w.condition.empty() || expr::evaluate(w.condition, old.get())) return true;
  ApiError error = w.condition_failure.value_or(ApiError::conditional_check_failed());
  if (w.return_old_on_condition_failure && old.exists()) error.set_extra_json("\"Item\":" + old.json());
  result.failure = std::move(error);
  return false;
}

// Index entries and stream records are made from decoded items.
bool has_indexes(const Table& table) {
  return !table.schema.global_indexes.empty() || !table.schema.local_indexes.empty() ||
         !table.schema.vector_indexes.empty() || (table.schema.stream && table.schema.stream->enabled);
}

// The size a write of `item` is billed at (`size` when the item was not decoded: a table with
// no index keeps none, and so has no vector index either).
std::uint64_t billed(const Table& table, const Item* item, std::uint64_t size) {
  return item != nullptr ? vectors::billed_write_size(table.schema, *item, size) : size;
}

PlannedWrite start_plan(WriteContext& ctx, const PreparedWrite& w) {
  PlannedWrite planned;
  TablePtr now = ctx.find_table(w.location.table->ns, w.location.table->schema.name);
  // The table a prepared write was validated against must still exist.
  if (!now || now->schema.id != w.location.table->schema.id) throw ApiError::resource_not_found();
  planned.table = std::move(now);
  planned.result.return_consumed_capacity = w.return_consumed_capacity;
  planned.result.consumed.table_name = planned.table->schema.name;
  return planned;
}

// Plans the change from the old item to `new_item` (no record: a delete).
void plan_change(WriteContext& ctx, PlannedWrite& planned, const PreparedWrite& w, OldItem& old,
                 std::optional<Item> new_item, std::string record, std::uint64_t size, CollectionSizes& sizes) {
  planned.change = std::make_unique<ItemChange>(*planned.table, w.location);
  planned.change->set_old(old.exists(), std::move(old.item), old.size);
  if (!record.empty()) planned.change->set_new(std::move(new_item), std::move(record), size);
  planned.change->plan(ctx, sizes);
}

}  // namespace

TablePtr resolve_table(Store& store, const Scope& scope, const std::string& name_or_arn) {
  std::optional<QualifiedName> qualified = scope.qualify(name_or_arn);
  TablePtr table = qualified ? store.catalog().find(qualified->ns, qualified->name) : nullptr;
  // A table ImportTable is still filling is CREATING: the service answers its
  // reads and writes as it answers those of a table that does not exist.
  if (!table || table->schema.status == TableStatus::Creating) throw ApiError::resource_not_found();
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
  check_read_key_paths(table->schema, projection);
  ItemLocation at = locate(table, key_from_key(table->schema.key, *request.key));

  GetItemResult result;
  result.return_consumed_capacity = request.return_consumed_capacity;
  std::uint64_t size = 0;
  {
    auto txn = request.consistent_read ? store.read() : store.read_eventually(*table);
    if (auto record = find_record(txn, store.dbs().items, at)) {
      size = items::metered_size(*record);
      result.item_json = projection ? render_item(expr::project(items::decode(*record, store.names()), *projection))
                                    : render_record(*record, store.names());
    }
  }
  // Projections do not reduce the cost: the whole item is read.
  result.consumed.table_name = table->schema.name;
  result.consumed.table_read_units =
      metering::read_units(size, request.consistent_read ? metering::ReadMode::Strong : metering::ReadMode::Eventual);
  return result;
}

PreparedPut prepare_put_item(Store& store, const Scope& scope, PutItemRequest request, bool in_transaction) {
  check_put_or_delete_return_values(request.write.return_values);
  ItemExpressions expressions = parse_put_or_delete_expressions(request.write, in_transaction);
  return prepare_put_item(store, scope, std::move(request), std::move(expressions));
}

namespace {

// The checks and encoding of a put whose table and condition are known.
void prepare_item_of_put(Store& store, PreparedPut& put, Item& item) {
  TablePtr table = put.write.location.table;
  put.write.location = locate(table, key_from_item(table->schema.key, item));
  indexes::check_index_keys(table->schema, item);
  check_vector_attributes(table->schema, item);
  check_attribute_names(item);
  put.size = metering::item_size(item);
  check_item_size(put.size);
  put.record = items::encode(item, static_cast<std::uint32_t>(put.size), put.write.location.key_image,
                             items::key_names(table->schema.key), store.names());
  if (has_indexes(*table)) put.item = std::move(item);
}

}  // namespace

PreparedPut prepare_put_item(Store& store, const Scope& scope, PutItemRequest request, ItemExpressions expressions) {
  PreparedPut put;
  put.write = prepare_write(store, scope, request.write, std::move(expressions.condition));
  check_read_key_paths(put.write.location.table->schema, put.write.condition);
  prepare_item_of_put(store, put, *request.item);
  return put;
}

PreparedPut prepare_loaded_put(Store& store, TablePtr table, Item item) {
  PreparedPut put;
  put.write.location.table = std::move(table);
  prepare_item_of_put(store, put, item);
  return put;
}

PreparedDelete prepare_delete_item(Store& store, const Scope& scope, const DeleteItemRequest& request,
                                   bool in_transaction) {
  check_put_or_delete_return_values(request.write.return_values);
  return prepare_delete_item(store, scope, request, parse_put_or_delete_expressions(request.write, in_transaction));
}

PreparedDelete prepare_delete_item(Store& store, const Scope& scope, const DeleteItemRequest& request,
                                   ItemExpressions expressions) {
  PreparedDelete del;
  del.write = prepare_write(store, scope, request.write, std::move(expressions.condition));
  TablePtr table = del.write.location.table;
  check_read_key_paths(table->schema, del.write.condition);
  del.write.location = locate(table, key_from_key(table->schema.key, *request.key));
  return del;
}

PreparedUpdate prepare_update_item(Store& store, const Scope& scope, const UpdateItemRequest& request,
                                   bool in_transaction) {
  PreparedUpdate update = prepare_update_item(store, scope, request, parse_update_expressions(request, in_transaction));
  update.measure_written = !in_transaction && !update.actions.legacy;
  return update;
}

PreparedUpdate prepare_update_item(Store& store, const Scope& scope, const UpdateItemRequest& request,
                                   ItemExpressions expressions) {
  PreparedUpdate update;
  update.write = prepare_write(store, scope, request.write, std::move(expressions.condition));
  update.actions = std::move(*expressions.update);
  TablePtr table = update.write.location.table;
  check_read_key_paths(table->schema, update.write.condition);
  const KeyDef& key = table->schema.key;
  std::vector<std::string_view> key_names{key.partition.name};
  if (key.sort) key_names.push_back(key.sort->name);
  expr::check_key_updates(update.actions, key_names);
  check_update_names(update.actions);
  update.write.location = locate(table, key_from_key(key, *request.key));
  return update;
}

PlannedWrite plan_put_item(WriteContext& ctx, const PreparedPut& put, CollectionSizes& sizes, bool transactional) {
  const PreparedWrite& w = put.write;
  PlannedWrite planned = start_plan(ctx, w);
  WriteItemResult& result = planned.result;
  OldItem old(ctx, w.location, !w.condition.empty() || has_indexes(*planned.table));
  const Table& table = *planned.table;
  result.consumed.table_write_units = metering::write_units(
      std::max(billed(table, old.get(), old.size), billed(table, put.item ? &*put.item : nullptr, put.size)),
      transactional);
  if (!check_condition(w, old, result)) return planned;
  if (w.return_values == ReturnValues::AllOld && old.exists()) result.attributes_json = old.json();
  plan_change(ctx, planned, w, old, put.item, put.record, put.size, sizes);
  return planned;
}

PlannedWrite plan_delete_item(WriteContext& ctx, const PreparedDelete& del, CollectionSizes& sizes,
                              bool transactional) {
  const PreparedWrite& w = del.write;
  PlannedWrite planned = start_plan(ctx, w);
  WriteItemResult& result = planned.result;
  OldItem old(ctx, w.location, !w.condition.empty() || has_indexes(*planned.table));
  result.consumed.table_write_units = metering::write_units(billed(*planned.table, old.get(), old.size), transactional);
  if (!check_condition(w, old, result)) return planned;
  if (!old.exists()) return planned;
  if (w.return_values == ReturnValues::AllOld) result.attributes_json = old.json();
  plan_change(ctx, planned, w, old, std::nullopt, {}, 0, sizes);
  return planned;
}

PlannedWrite plan_update_item(WriteContext& ctx, const PreparedUpdate& update, CollectionSizes& sizes,
                              bool transactional) {
  const PreparedWrite& w = update.write;
  PlannedWrite planned = start_plan(ctx, w);
  WriteItemResult& result = planned.result;
  const Table& table = *planned.table;
  OldItem old(ctx, w.location, true);
  result.consumed.table_write_units = metering::write_units(billed(table, old.get(), old.size), transactional);
  if (!check_condition(w, old, result)) return planned;

  const expr::UpdateActions& actions = update.actions;
  // The service refuses a path into a key once the condition has passed.
  check_update_key_paths(table.schema, actions);
  // A missing item is created, even by an update with no actions, unless the
  // update only removes attributes or set members.
  bool only_removes = (!actions.remove.empty() || !actions.del.empty()) && actions.set.empty() && actions.add.empty();
  if (!old.exists() && only_removes) {
    expr::apply_update(actions, nullptr);  // a DELETE into a missing parent is still refused (a REMOVE is not)
    return planned;
  }
  Item item = expr::apply_update(actions, old.get());
  const PrimaryKey& key = w.location.key;
  item.set(table.schema.key.partition.name, key.partition);
  if (table.schema.key.sort) item.set(table.schema.key.sort->name, *key.sort);
  // AttributeUpdates word an empty index key as an item would (DynamoDB Local).
  indexes::check_index_keys(
      table.schema, item,
      actions.legacy ? indexes::IndexKeySource::AttributeUpdates : indexes::IndexKeySource::UpdateExpression);
  check_vector_attributes(table.schema, item);
  // No walk of the finished item for long names: prepare_update_item checked what
  // the update writes (check_update_names), and the stored item holds none.
  std::uint64_t size = metering::item_size(item);
  if (size > kMaxItemSize || (update.measure_written && metering::update_written_size(actions, item) > kMaxItemSize)) {
    throw ApiError::validation(kUpdateTooLarge);
  }
  result.consumed.table_write_units =
      metering::write_units(std::max(billed(table, old.get(), old.size), billed(table, &item, size)), transactional);

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
  std::string record = items::encode(item, static_cast<std::uint32_t>(size), w.location.key_image,
                                     items::key_names(w.location.table->schema.key), ctx.store().names());
  try {
    plan_change(ctx, planned, w, old, std::move(item), std::move(record), size, sizes);
  } catch (const ApiError& e) {
    // With local indexes the limit covers the item's index entries; an update says so in its own words.
    if (e.message() == kItemTooLarge) throw ApiError::validation(kUpdateTooLarge);
    throw;
  }
  return planned;
}

PlannedWrite plan_condition_check(WriteContext& ctx, const PreparedWrite& check, bool transactional) {
  PlannedWrite planned = start_plan(ctx, check);
  OldItem old(ctx, check.location, true);
  planned.result.consumed.table_write_units =
      metering::write_units(billed(*planned.table, old.get(), old.size), transactional);
  check_condition(check, old, planned.result);
  return planned;
}

void apply_write(WriteContext& ctx, PlannedWrite& planned, bool transactional) {
  if (!planned.change) return;
  planned.change->apply(ctx);
  planned.change->add_index_capacity(planned.result.consumed, transactional);
}

namespace {

WriteItemResult finish_single(WriteContext& ctx, PlannedWrite planned, bool want_metrics) {
  apply_write(ctx, planned);
  if (want_metrics && planned.change) planned.result.item_collection_metrics = planned.change->collection_metrics();
  return std::move(planned.result);
}

}  // namespace

WriteItemResult apply_put_item(WriteContext& ctx, const PreparedPut& put) {
  CollectionSizes sizes;
  return finish_single(ctx, plan_put_item(ctx, put, sizes), put.write.return_item_collection_metrics);
}

WriteItemResult apply_delete_item(WriteContext& ctx, const PreparedDelete& del) {
  CollectionSizes sizes;
  return finish_single(ctx, plan_delete_item(ctx, del, sizes), del.write.return_item_collection_metrics);
}

WriteItemResult apply_update_item(WriteContext& ctx, const PreparedUpdate& update) {
  CollectionSizes sizes;
  return finish_single(ctx, plan_update_item(ctx, update, sizes), update.write.return_item_collection_metrics);
}

}  // namespace dynamod::ops
