#include "storage/table_ops.h"

#include <ctime>

#include "protocol/index_updates.h"
#include "storage/backup_ops.h"
#include "storage/index_builds.h"
#include "storage/index_entries.h"
#include "storage/key_codec.h"
#include "storage/pitr.h"
#include "storage/schema_codec.h"
#include "storage/streams.h"
#include "storage/vector_builds.h"
#include "storage/vector_memory.h"

namespace dynamod::ops {
namespace {

constexpr std::string_view kNextIdKey = "next_id";

void save_schema(WriteContext& ctx, const Table& table) {
  ctx.txn().put(ctx.dbs().catalog, Store::catalog_key(table.ns, table.schema.name), encode_schema(table.schema));
}

// A new stream for the table (its StreamSpecification says enabled).
void start_stream(WriteContext& ctx, const std::string& ns, TableSchema& schema) {
  streams::StreamInfo info;
  info.id = allocate_id(ctx);
  info.ns = ns;
  info.table = schema.name;
  info.table_id = schema.id;
  info.region = schema.region;
  info.created_ms = ctx.store().now_ms();
  info.label = streams::label_for(info.created_ms);
  info.view_type = schema.stream->view_type;
  info.key = schema.key;
  streams::open_stream(ctx, info);
  schema.stream->id = info.id;
  schema.stream->label = info.label;
}

bool same_day(double a, double b) {
  auto day = [](double t) {
    std::time_t s = static_cast<std::time_t>(t);
    std::tm tm{};
    gmtime_r(&s, &tm);
    return tm.tm_year * 400 + tm.tm_yday;
  };
  return day(a) == day(b);
}

// Applies new units to a throughput record, keeping the service's change dates.
void change_throughput(Throughput& t, std::int64_t read, std::int64_t write, double now) {
  bool increase = read > t.read_units || write > t.write_units;
  bool decrease = read < t.read_units || write < t.write_units;
  if (increase) t.last_increase = now;
  if (decrease) {
    t.decreases_today = (t.last_decrease > 0 && same_day(t.last_decrease, now)) ? t.decreases_today + 1 : 1;
    t.last_decrease = now;
  }
  t.read_units = read;
  t.write_units = write;
}

}  // namespace

// Key spaces of tables and indexes are numbered from one counter in "meta";
// ids are never reused, so stale references can never see a newer table.
std::uint32_t allocate_id(WriteContext& ctx) {
  std::uint32_t next = 1;
  if (auto stored = ctx.txn().get(ctx.dbs().meta, kNextIdKey)) next = keys::read_table_id(*stored);
  std::string value;
  keys::append_table_id(value, next + 1);
  ctx.txn().put(ctx.dbs().meta, kNextIdKey, value);
  return next;
}

void replace_schema(WriteContext& ctx, const Table& table, TableSchema schema) {
  auto next = std::make_shared<Table>(Table{table.ns, std::move(schema), table.stats, table.index_stats});
  save_schema(ctx, *next);
  ctx.stage_table(std::move(next));
}

// Deletes every key that starts with `prefix`.
void delete_prefix(WriteContext& ctx, lmdb::Dbi dbi, std::string_view prefix) {
  auto cursor = ctx.txn().cursor(dbi);
  for (auto entry = cursor.seek(prefix); entry && entry->first.substr(0, prefix.size()) == prefix;
       entry = cursor.seek(prefix)) {
    cursor.del();
  }
}

TableDescription describe(const Table& table) {
  TableDescription d{table.schema, table.stats->snapshot(), {}};
  for (const auto& [id, stats] : table.index_stats) d.index_counters[id] = stats->snapshot();
  return d;
}

ApiError table_not_found(std::string_view name) {
  return ApiError::resource_not_found("Requested resource not found: Table: " + std::string(name) + " not found");
}

TableDescription create_table(WriteContext& ctx, const Scope& scope, TableSchema schema, double now,
                              std::string table_uuid) {
  std::string ns(scope.ns());
  if (ctx.find_table(ns, schema.name)) throw ApiError::resource_in_use("Table already exists: " + schema.name);
  schema.id = allocate_id(ctx);
  schema.index_key_format = indexes::kIndexKeyFormat;
  for (auto* family : {&schema.local_indexes, &schema.global_indexes}) {
    for (auto& index : *family) index.id = allocate_id(ctx);
  }
  for (auto& index : schema.vector_indexes) index.id = allocate_id(ctx);
  schema.table_id = std::move(table_uuid);
  schema.region = scope.region;
  schema.creation_time = now;
  for (auto& policy : schema.resource_policies)
    policy.revision_id = std::to_string(static_cast<std::int64_t>(now * 1000));
  if (schema.billing_mode == BillingMode::PayPerRequest) schema.billing_mode_updated = now;
  schema.status = TableStatus::Active;
  if (schema.stream && schema.stream->enabled) start_stream(ctx, ns, schema);
  auto table = std::make_shared<Table>(Table{ns, schema, std::make_shared<TableStats>(), {}});
  for (const auto* family : {&schema.local_indexes, &schema.global_indexes}) {
    for (const auto& index : *family) table->index_stats[index.id] = std::make_shared<TableStats>();
  }
  for (const auto& index : schema.vector_indexes) table->index_stats[index.id] = std::make_shared<TableStats>();
  save_schema(ctx, *table);
  ctx.stage_table(table);
  // The service answers CREATING; the table is usable at once here.
  TableDescription answer = describe(*table);
  answer.schema.status = TableStatus::Creating;
  for (auto& index : answer.schema.global_indexes) index.status = IndexStatus::Creating;
  for (auto& index : answer.schema.vector_indexes) index.status = IndexStatus::Creating;
  return answer;
}

TablePtr find_control_table(Store& store, const Scope& scope, const std::string& name) {
  std::optional<QualifiedName> qualified = scope.qualify(name);
  TablePtr table = qualified ? store.catalog().find(qualified->ns, qualified->name) : nullptr;
  if (!table) throw table_not_found(name);
  return table;
}

TablePtr find_control_table(WriteContext& ctx, const Scope& scope, const std::string& name) {
  std::optional<QualifiedName> qualified = scope.qualify(name);
  TablePtr table = qualified ? ctx.find_table(qualified->ns, qualified->name) : nullptr;
  if (!table) throw table_not_found(name);
  return table;
}

TableDescription describe_table(Store& store, const Scope& scope, const std::string& name) {
  return describe(*find_control_table(store, scope, name));
}

void check_not_creating(const Table& table) {
  if (table.schema.status == TableStatus::Creating) {
    throw ApiError::resource_in_use("Attempt to change a resource which is still in use: Table is being created: " +
                                    table.schema.name);
  }
}

TableDescription delete_table(WriteContext& ctx, const Scope& scope, const std::string& name) {
  TablePtr table = find_control_table(ctx, scope, name);
  check_not_creating(*table);
  if (table->schema.deletion_protection) {
    throw ApiError::validation(
        "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection "
        "first.");
  }
  // The service, for a vector index being added (tier2 vectorSearch/updateLifecycle.test.ts,
  // measured in eu-west-2 on 2026-08-21).
  for (const auto& index : table->schema.vector_indexes) {
    if (index.status == IndexStatus::Creating) {
      throw ApiError::resource_in_use(
          "Attempt to change a resource which is still in use: Cannot delete table while indexes are being created, "
          "updated, or deleted.");
    }
  }
  drop_table(ctx, table);
  TableDescription answer = describe(*table);
  answer.schema.status = TableStatus::Deleting;
  return answer;
}

void drop_table(WriteContext& ctx, const TablePtr& table) {
  const std::string& ns = table->ns;
  // Point-in-time recovery keeps the table's last state as a SYSTEM backup.
  if (table->schema.point_in_time_recovery.enabled) {
    take_system_backup(ctx, *table, static_cast<double>(ctx.store().now_ms()) / 1000.0);
    pitr::drop(ctx, table->schema.id);
  }
  ctx.txn().del(ctx.dbs().catalog, Store::catalog_key(ns, table->schema.name));
  // The stream stays readable (for its 24 hours) but receives nothing more.
  if (table->schema.stream && table->schema.stream->enabled) streams::close_stream(ctx, table->schema.stream->id);
  ctx.txn().del(ctx.dbs().stats, Store::stats_key(table->schema.id));
  delete_prefix(ctx, ctx.dbs().items, keys::key_space_prefix(table->schema.id));
  delete_prefix(ctx, ctx.dbs().collections, keys::key_space_prefix(table->schema.id));
  for (const auto* family : {&table->schema.local_indexes, &table->schema.global_indexes}) {
    for (const auto& index : *family) {
      ctx.txn().del(ctx.dbs().stats, Store::stats_key(index.id));
      delete_prefix(ctx, ctx.dbs().indexes, keys::key_space_prefix(index.id));
    }
  }
  for (const auto& index : table->schema.vector_indexes) {
    ctx.txn().del(ctx.dbs().stats, Store::stats_key(index.id));
    delete_prefix(ctx, ctx.dbs().vectors, keys::key_space_prefix(index.id));
    ctx.store().vector_memory().stage_forget(ctx, index.id);
  }
  ctx.stage_drop(ns, table->schema.name);
}

TableDescription update_table(WriteContext& ctx, const Scope& scope, const UpdateTableRequest& request, double now) {
  TablePtr table = find_control_table(ctx, scope, *request.table_name);
  check_not_creating(*table);
  const std::string& ns = table->ns;
  const TableSchema& current = table->schema;
  // The index updates are checked first (index_updates.h).
  BillingMode mode = current.billing_mode;
  if (request.billing_mode) {
    mode = *request.billing_mode == "PAY_PER_REQUEST" ? BillingMode::PayPerRequest : BillingMode::Provisioned;
  }
  IndexUpdates index_updates = validate_index_updates(request, current, mode);
  check_billing_mode_keeps_vector_indexes(current, mode);
  VectorIndexChange vector_change;
  if (request.vector_index_updates) {
    // One index operation per request, GSIs and vector indexes alike.
    if (!index_updates.empty() && (index_updates.create || index_updates.delete_name)) {
      throw ApiError::limit_exceeded(
          "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
    }
    vector_change =
        validate_vector_index_updates(*request.vector_index_updates, current, request.attribute_definitions, mode);
  }
  TableUpdate update = validate_update_table(request, current);
  require_units_of_every_index(current, mode, index_updates);

  TableSchema next = current;
  bool capacity_changed = false;
  if (update.billing_mode) {
    if (*update.billing_mode != current.billing_mode) {
      capacity_changed = true;
      next.billing_mode = *update.billing_mode;
      if (next.billing_mode == BillingMode::PayPerRequest) {
        next.billing_mode_updated = now;
        next.throughput.read_units = 0;
        next.throughput.write_units = 0;
        for (auto& index : next.global_indexes) index.throughput.reset();
      }
    }
  }
  if (update.throughput) {
    auto [read, write] = *update.throughput;
    // BillingMode PROVISIONED on a PROVISIONED table changes nothing either (nubo-db/dynoxide,
    // fitted to the service; docs/service-fidelity.md).
    const bool same_mode = !update.billing_mode || *update.billing_mode == current.billing_mode;
    if (current.billing_mode == BillingMode::Provisioned && same_mode && read == current.throughput.read_units &&
        write == current.throughput.write_units) {
      throw ApiError::validation(
          "The provisioned throughput for the table will not change. The requested value equals the current value. "
          "Current ReadCapacityUnits provisioned for the table: " +
          std::to_string(read) + ". Requested ReadCapacityUnits: " + std::to_string(read) +
          ". Current WriteCapacityUnits provisioned for the table: " + std::to_string(write) +
          ". Requested WriteCapacityUnits: " + std::to_string(write) +
          ". Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.");
    }
    change_throughput(next.throughput, read, write, now);
    capacity_changed = true;
  }
  if (update.table_class) {
    capacity_changed = capacity_changed || next.table_class.value_or(TableClass::Standard) != *update.table_class;
    next.table_class = update.table_class;
  }
  if (update.deletion_protection) next.deletion_protection = *update.deletion_protection;
  if (update.on_demand_maximum) {
    capacity_changed = true;
    next.on_demand_maximum = update.on_demand_maximum;
  }
  if (update.warm) {
    capacity_changed = true;
    next.warm = update.warm;
  }
  // The table's warm throughput follows its capacity up and never comes down.
  next.warm = described_warm(next.warm, next.billing_mode, &next.throughput);
  if (update.sse_key) next.sse_kms_key = *update.sse_key;
  if (update.stream) {
    if (update.stream->enabled) {
      next.stream = *update.stream;
      start_stream(ctx, ns, next);
    } else {
      streams::close_stream(ctx, next.stream->id);
      next.stream->enabled = false;
    }
  }

  auto index_stats = table->index_stats;
  std::optional<std::uint32_t> index_job;
  if (index_updates.create) {
    IndexSchema index = std::move(*index_updates.create);
    index.id = allocate_id(ctx);
    index_job = index.id;
    index_stats[index.id] = std::make_shared<TableStats>();
    for (auto& d : index_updates.new_definitions) next.attribute_definitions.push_back(std::move(d));
    next.global_indexes.push_back(std::move(index));
  }
  if (index_updates.delete_name) {
    for (auto& index : next.global_indexes) {
      if (index.name == *index_updates.delete_name) {
        index.status = IndexStatus::Deleting;
        index_job = index.id;
      }
    }
  }
  for (const auto& [name, units] : index_updates.throughput_updates) {
    for (auto& index : next.global_indexes) {
      if (index.name != name) continue;
      if (!index.throughput) index.throughput.emplace();  // an on-demand GSI given units by a switch
      change_throughput(*index.throughput, units.first, units.second, now);
    }
  }
  for (const auto& [name, maximum] : index_updates.on_demand_updates) {
    for (auto& index : next.global_indexes) {
      if (index.name == name) index.on_demand_maximum = maximum;
    }
  }
  for (const auto& [name, warm] : index_updates.warm_updates) {
    for (auto& index : next.global_indexes) {
      if (index.name == name) index.warm = warm;
    }
  }
  if (!index_updates.on_demand_updates.empty() || !index_updates.warm_updates.empty()) capacity_changed = true;
  if (auto vector_job = apply_vector_index_change(ctx, std::move(vector_change), next, index_stats)) {
    capacity_changed = true;
    ctx.after_commit([&queue = ctx.queue(), ns, name = next.name, id = next.id, index = *vector_job] {
      schedule_vector_index_job(queue, ns, name, id, index);
    });
  }
  if (index_job) {
    capacity_changed = true;
    ctx.after_commit([&queue = ctx.queue(), ns, name = next.name, id = next.id, index = *index_job] {
      schedule_index_job(queue, ns, name, id, index);
    });
  }

  auto updated = std::make_shared<Table>(Table{ns, next, table->stats, std::move(index_stats)});
  save_schema(ctx, *updated);
  ctx.stage_table(updated);
  // Capacity changes take effect at once here; the answer says UPDATING as the service's does.
  TableDescription answer = describe(*updated);
  if (capacity_changed) answer.schema.status = TableStatus::Updating;
  return answer;
}

TimeToLive update_time_to_live(WriteContext& ctx, const Scope& scope, const UpdateTimeToLiveRequest& request) {
  TablePtr table = find_control_table(ctx, scope, *request.table_name);
  const std::optional<TimeToLive>& current = table->schema.ttl;
  const bool enable = *request.enabled;
  const std::string& attribute = *request.attribute_name;
  const bool active = current && current->enabled;
  if (!enable && !active) throw ApiError::validation("TimeToLive is already disabled");
  if (active && current->attribute != attribute) {
    throw ApiError::validation("TimeToLive is active on a different AttributeName: current AttributeName is " +
                               current->attribute);
  }
  if (enable && active) throw ApiError::validation("TimeToLive is already enabled");
  const std::int64_t now = ctx.store().now_ms();
  // Checked after the content checks: a refused change does not restart the window.
  if (current && now - current->changed_ms < ctx.store().ttl_cooldown_ms()) {
    throw ApiError::validation("Time to live has been modified multiple times within a fixed interval");
  }
  TableSchema next = table->schema;
  next.ttl = TimeToLive{attribute, enable, now};
  auto updated = std::make_shared<Table>(Table{table->ns, next, table->stats, table->index_stats});
  save_schema(ctx, *updated);
  ctx.stage_table(updated);
  return *next.ttl;
}

std::optional<TimeToLive> describe_time_to_live(Store& store, const Scope& scope, const std::string& name) {
  return find_control_table(store, scope, name)->schema.ttl;
}

ListTablesResult list_tables(Store& store, const Scope& scope, const ListTablesRequest& request) {
  auto limit = static_cast<std::size_t>(validate_list_tables_limit(request));
  ListTablesResult result;
  // One more than asked tells whether another page follows.
  result.names = store.catalog().list(scope.ns(), request.exclusive_start_table_name.value_or(""), limit + 1);
  if (result.names.size() > limit) {
    result.names.resize(limit);
    result.last_evaluated = result.names.back();
  }
  return result;
}

}  // namespace dynamod::ops
