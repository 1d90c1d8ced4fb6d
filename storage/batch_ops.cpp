#include "storage/batch_ops.h"

#include <set>

#include "metering/capacity.h"
#include "protocol/attribute_json.h"
#include "protocol/expr/expression.h"
#include "protocol/expr/projection.h"
#include "protocol/item_expressions.h"
#include "protocol/key_paths.h"
#include "storage/item_change.h"
#include "storage/item_codec.h"

namespace dynamod::ops {
namespace {

// The service answers at most 16 MB; the keys beyond go to UnprocessedKeys.
constexpr std::uint64_t kMaxBatchResponseBytes = 16ull << 20;

void reject_duplicates(const std::vector<std::string>& stored_keys) {
  std::set<std::string_view> seen;
  for (const auto& k : stored_keys) {
    if (!seen.insert(k).second) throw ApiError::validation("Provided list of item keys contains duplicates");
  }
}

}  // namespace

BatchGetResult batch_get_item(Store& store, const Scope& scope, const BatchGetItemRequest& request) {
  std::size_t keys = 0;
  for (const auto& t : request.tables) keys += t.keys.size();
  if (keys > kMaxBatchGetKeys) throw ApiError::validation("Too many items requested for the BatchGetItem call");

  // Validate everything first: one bad table or key fails the whole call.
  // Duplicate keys (in any table), then projections (and how they are given:
  // across tables too), then the tables, then the keys against them.
  for (const auto& t : request.tables) {
    std::vector<std::string> encoded;
    for (const auto& key : t.keys) {
      JsonWriter out;
      encode_item(out, key);
      encoded.push_back(out.take());
    }
    reject_duplicates(encoded);
  }
  bool any_expression = false;
  bool any_legacy = false;
  for (const auto& t : request.tables) {
    any_expression = any_expression || t.projection_expression;
    any_legacy = any_legacy || t.attributes_to_get;
  }
  if (any_expression && any_legacy) {
    expr::check_no_mixing({"AttributesToGet"}, {"ProjectionExpression"});
  }
  struct Plan {
    TablePtr table;
    std::optional<std::vector<expr::Path>> projection;
    std::vector<ItemLocation> locations;
  };
  std::vector<Plan> plans(request.tables.size());
  for (std::size_t i = 0; i < request.tables.size(); ++i) {
    const BatchGetTable& t = request.tables[i];
    GetItemRequest as_get;
    as_get.projection_expression = t.projection_expression;
    as_get.names = t.names;
    as_get.attributes_to_get = t.attributes_to_get;
    plans[i].projection = parse_get_projection(as_get);
  }
  for (std::size_t i = 0; i < request.tables.size(); ++i) {
    plans[i].table = resolve_table(store, scope, request.tables[i].table_name);
    check_read_key_paths(plans[i].table->schema, plans[i].projection);
  }
  for (std::size_t i = 0; i < request.tables.size(); ++i) {
    Plan& plan = plans[i];
    std::vector<std::string> stored;
    for (const auto& key : request.tables[i].keys) {
      plan.locations.push_back(locate(plan.table, key_from_key(plan.table->schema.key, key)));
      stored.push_back(plan.locations.back().stored_key);
    }
    reject_duplicates(stored);
  }

  BatchGetResult result;
  result.return_consumed_capacity = request.return_consumed_capacity;
  std::uint64_t response_bytes = 0;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const Plan& plan = plans[i];
    const BatchGetTable& t = request.tables[i];
    // Each table as its reads see it: with --consistency-lag, eventually consistent ones lag.
    auto txn = t.consistent_read ? store.read() : store.read_eventually(*plan.table);
    auto mode = t.consistent_read ? metering::ReadMode::Strong : metering::ReadMode::Eventual;
    std::vector<std::string> items;
    ConsumedCapacity consumed;
    consumed.table_name = plan.table->schema.name;
    std::vector<Item> unprocessed;
    for (std::size_t k = 0; k < plan.locations.size(); ++k) {
      const ItemLocation& at = plan.locations[k];
      auto record = unprocessed.empty() ? txn.get(store.dbs().items, at.stored_key) : std::nullopt;
      if (record && items::key_image(*record) != at.key_image) record.reset();
      std::uint64_t size = record ? items::metered_size(*record) : 0;
      // Once the answer would pass 16 MB of items, the remaining keys wait for a next call.
      if (!unprocessed.empty() || response_bytes + size > kMaxBatchResponseBytes) {
        unprocessed.push_back(t.keys[k]);
        continue;
      }
      response_bytes += size;
      // Each item rounds on its own (1.5 KB and 6.5 KB read 4 + 8 KB).
      consumed.table_read_units += metering::read_units(size, mode);
      if (!record) continue;
      JsonWriter out;
      if (plan.projection) {
        encode_item(out, expr::project(items::decode(*record, store.names()), *plan.projection));
      } else {
        items::write_json(out, *record, store.names());
      }
      items.push_back(out.take());
    }
    result.responses.emplace_back(t.table_name, std::move(items));
    result.consumed.push_back(std::move(consumed));
    if (!unprocessed.empty()) result.unprocessed.emplace_back(i, std::move(unprocessed));
  }
  return result;
}

PreparedBatchWrite prepare_batch_write(Store& store, const Scope& scope, BatchWriteItemRequest request) {
  std::size_t count = 0;
  for (const auto& t : request.tables) count += t.requests.size();
  if (count > kMaxBatchWriteRequests)
    throw ApiError::validation("Too many items requested for the BatchWriteItem call");

  PreparedBatchWrite batch;
  batch.return_consumed_capacity = request.return_consumed_capacity;
  batch.return_item_collection_metrics = request.return_item_collection_metrics;
  for (auto& t : request.tables) {
    std::size_t table_index = batch.tables.size();
    batch.tables.push_back(t.table_name);
    std::vector<std::string> stored;
    for (auto& r : t.requests) {
      if (r.put_item.has_value() == r.delete_key.has_value()) {
        throw ApiError::validation(
            "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported "
            "datatypes");
      }
      PreparedBatchWrite::Entry entry;
      entry.table_index = table_index;
      if (r.put_item) {
        // A batch names a put item's key errors as a key lookup would.
        TablePtr table = resolve_table(store, scope, t.table_name);
        key_from_key(table->schema.key, key_attributes(table->schema.key, *r.put_item));
        PutItemRequest put;
        put.write.table_name = t.table_name;
        put.item = std::move(*r.put_item);
        entry.put = prepare_put_item(store, scope, std::move(put));
        stored.push_back(entry.put->write.location.stored_key);
      } else {
        DeleteItemRequest del;
        del.write.table_name = t.table_name;
        del.key = std::move(*r.delete_key);
        entry.del = prepare_delete_item(store, scope, del);
        stored.push_back(entry.del->write.location.stored_key);
      }
      batch.entries.push_back(std::move(entry));
    }
    reject_duplicates(stored);
  }
  return batch;
}

BatchWriteResult apply_batch_write(WriteContext& ctx, const PreparedBatchWrite& batch) {
  // Plan every write, then apply them all: a failure (an item collection
  // over its limit) leaves nothing written.
  CollectionSizes sizes;
  std::vector<PlannedWrite> planned;
  planned.reserve(batch.entries.size());
  for (const auto& e : batch.entries) {
    planned.push_back(e.put ? plan_put_item(ctx, *e.put, sizes) : plan_delete_item(ctx, *e.del, sizes));
  }
  BatchWriteResult result;
  result.return_consumed_capacity = batch.return_consumed_capacity;
  result.consumed.resize(batch.tables.size());
  for (std::size_t i = 0; i < batch.tables.size(); ++i) result.consumed[i].table_name = batch.tables[i];
  for (std::size_t i = 0; i < planned.size(); ++i) {
    PlannedWrite& p = planned[i];
    apply_write(ctx, p);
    ConsumedCapacity& table_units = result.consumed[batch.entries[i].table_index];
    table_units.table_name = p.table->schema.name;
    table_units.table_write_units += p.result.consumed.table_write_units;
    for (const auto& index : p.result.consumed.global_indexes) {
      table_units.index(index.index_name, true).write_units += index.write_units;
    }
    for (const auto& index : p.result.consumed.local_indexes) {
      table_units.index(index.index_name, false).write_units += index.write_units;
    }
    if (batch.return_item_collection_metrics && p.change) {
      if (auto metrics = p.change->collection_metrics()) {
        const std::string& name = batch.tables[batch.entries[i].table_index];
        auto it = std::find_if(result.item_collection_metrics.begin(), result.item_collection_metrics.end(),
                               [&](const auto& e) { return e.first == name; });
        if (it == result.item_collection_metrics.end()) {
          result.item_collection_metrics.emplace_back(name, std::vector<ItemCollectionMetrics>{});
          it = std::prev(result.item_collection_metrics.end());
        }
        it->second.push_back(std::move(*metrics));
      }
    }
  }
  return result;
}

}  // namespace dynamod::ops
