#include "storage/backup_ops.h"

#include <simdjson.h>

#include <cstdio>
#include <map>
#include <stdexcept>

#include "protocol/key_validation.h"
#include "protocol/utc_time.h"
#include "storage/item_change.h"
#include "storage/item_codec.h"
#include "storage/item_ops.h"
#include "storage/key_codec.h"
#include "storage/pitr.h"
#include "storage/schema_codec.h"

namespace dynamod::ops {
namespace {

// Items copied or restored per cursor pass: the cursor is closed before the
// writes (a write transaction's cursor must not walk a database it changes).
constexpr std::size_t kChunk = 1000;
constexpr double kSystemBackupSeconds = 35 * 24 * 3600.0;

std::string backup_key(std::string_view ns, std::string_view id) {
  std::string key(ns);
  key.push_back('\0');
  key += id;
  return key;
}

std::string encode_descriptor(const Backup& b) {
  JsonWriter w;
  w.begin_object();
  w.key("id");
  w.string(b.id);
  w.key("name");
  w.string(b.name);
  w.key("type");
  w.integer(static_cast<int>(b.type));
  w.key("created");
  w.real(b.created);
  w.key("expires");
  w.real(b.expires);
  w.key("key_space");
  w.unsigned_integer(b.key_space);
  w.key("items");
  w.integer(b.counters.item_count);
  w.key("bytes");
  w.integer(b.counters.size_bytes);
  w.key("table");
  w.string(encode_schema(b.table));
  w.end_object();
  return w.take();
}

Backup decode_descriptor(std::string_view json) {
  simdjson::dom::parser parser;
  try {
    simdjson::dom::object o = parser.parse(simdjson::padded_string(json));
    Backup b;
    b.id = std::string(std::string_view(o["id"]));
    b.name = std::string(std::string_view(o["name"]));
    b.type = static_cast<BackupType>(std::int64_t(o["type"]));
    b.created = double(o["created"]);
    b.expires = double(o["expires"]);
    b.key_space = static_cast<std::uint32_t>(std::uint64_t(o["key_space"]));
    b.counters.item_count = std::int64_t(o["items"]);
    b.counters.size_bytes = std::int64_t(o["bytes"]);
    b.table = decode_schema(std::string_view(o["table"]));
    return b;
  } catch (const simdjson::simdjson_error& e) {
    throw std::runtime_error(std::string("corrupt backup descriptor: ") + e.what());
  }
}

// The service's id: creation time in milliseconds, 14 digits, and 8 hex
// digits: zeros for a SYSTEM backup (as the service's), else from the key
// space, so that two backups of one millisecond differ.
std::string make_backup_id(long long ms, BackupType type, std::uint32_t key_space) {
  std::uint32_t mixed = type == BackupType::System ? 0 : key_space * 2654435761u ^ static_cast<std::uint32_t>(ms);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%014lld-%08x", ms, mixed);
  return buffer;
}

// The key in a namespace that a BackupArn names, or nullopt when it cannot
// name one of this account's backups.
std::optional<std::string> key_of_arn(const Scope& scope, std::string_view arn, std::string* table = nullptr) {
  std::optional<BackupArnParts> parts = parse_backup_arn(arn);
  if (!parts || parts->account != scope.account_id) return std::nullopt;
  if (table) *table = parts->table;
  return backup_key(scope.shared_db ? std::string_view() : parts->region, parts->id);
}

ApiError backup_not_found(std::string_view arn) {
  return ApiError(ErrorCode::BackupNotFoundException, "Backup not found: " + std::string(arn));
}

std::optional<Backup> find_backup(const lmdb::TxnBase& txn, const Databases& dbs, const Scope& scope,
                                  std::string_view arn) {
  std::string table;
  std::optional<std::string> key = key_of_arn(scope, arn, &table);
  if (!key) return std::nullopt;
  std::optional<std::string_view> stored = txn.get(dbs.backups, *key);
  if (!stored) return std::nullopt;
  Backup backup = decode_descriptor(*stored);
  // The ARN's table part must be the backup's own.
  if (backup.table.name != table) return std::nullopt;
  return backup;
}

// Calls write(key after the key space prefix, record) for every record of key
// space `from` in `source`.
template <typename Write>
void copy_key_space(WriteContext& ctx, lmdb::Dbi source, std::uint32_t from, Write write) {
  const std::string prefix = keys::key_space_prefix(from);
  std::string resume = prefix;  // (no record's key is the bare prefix)
  for (;;) {
    std::vector<std::pair<std::string, std::string>> chunk;
    {
      auto cursor = ctx.txn().cursor(source);
      auto entry = cursor.seek(resume);
      if (entry && entry->first == resume) entry = cursor.next();
      for (; entry && entry->first.substr(0, prefix.size()) == prefix && chunk.size() < kChunk; entry = cursor.next()) {
        chunk.emplace_back(entry->first, entry->second);
      }
    }
    for (const auto& [key, record] : chunk) write(std::string_view(key).substr(prefix.size()), record);
    if (chunk.size() < kChunk) return;
    resume = chunk.back().first;
  }
}

TablePtr table_for_backups(const std::function<TablePtr(const QualifiedName&)>& find, const Scope& scope,
                           const std::string& name) {
  std::optional<QualifiedName> qualified = scope.qualify(name);
  TablePtr table = qualified ? find(*qualified) : nullptr;
  if (!table) throw ApiError(ErrorCode::TableNotFoundException, "Table not found: " + name);
  return table;
}

// Copies the table's items and records the backup.
Backup take_backup(WriteContext& ctx, const Table& table, std::string name, BackupType type, double now) {
  Backup backup;
  backup.key_space = allocate_id(ctx);
  auto ms = static_cast<long long>(now * 1000.0 + 0.5);
  backup.id = make_backup_id(ms, type, backup.key_space);
  // SYSTEM ids have no distinguishing digits: two tables of a namespace
  // dropped in one millisecond take the next free one.
  while (ctx.txn().get(ctx.dbs().backups, backup_key(table.ns, backup.id))) backup.id = make_backup_id(++ms, type, 0);
  backup.name = std::move(name);
  backup.type = type;
  backup.created = now;
  if (type == BackupType::System) backup.expires = now + kSystemBackupSeconds;
  backup.table = table.schema;
  // Counted as copied: the published counters miss the writes of earlier jobs of this group.
  const std::string target = keys::key_space_prefix(backup.key_space);
  copy_key_space(ctx, ctx.dbs().items, table.schema.id, [&](std::string_view key, std::string_view record) {
    ctx.txn().put(ctx.dbs().backup_items, target + std::string(key), record);
    ++backup.counters.item_count;
    backup.counters.size_bytes += items::metered_size(record);
  });
  ctx.txn().put(ctx.dbs().backups, backup_key(table.ns, backup.id), encode_descriptor(backup));
  return backup;
}

void drop_backup(WriteContext& ctx, std::string_view key, const Backup& backup) {
  ctx.txn().del(ctx.dbs().backups, key);
  delete_prefix(ctx, ctx.dbs().backup_items, keys::key_space_prefix(backup.key_space));
}

void refuse_existing_target(WriteContext& ctx, const Scope& scope, const std::string& target) {
  if (ctx.find_table(std::string(scope.ns()), target)) {
    throw ApiError(ErrorCode::TableAlreadyExistsException, "Table already exists: " + target);
  }
}

// Creates the restored table and writes every record `fill` hands over, as
// PutItem would (indexes, item collections, counters).
template <typename Fill>
TableDescription restore_table(WriteContext& ctx, const Scope& scope, TableSchema schema, double now,
                               std::string table_uuid, Fill fill) {
  const std::string name = schema.name;
  TableDescription answer = create_table(ctx, scope, std::move(schema), now, std::move(table_uuid));
  TablePtr table = ctx.find_table(std::string(scope.ns()), name);
  CollectionSizes sizes;
  fill([&](std::string_view record) {
    Item item = items::decode(record, ctx.store().names());
    const ItemLocation at = locate(table, key_from_item(table->schema.key, item));
    ItemChange change(*table, at);  // (it keeps a reference to `at`)
    change.set_old(false, std::nullopt, 0);
    const std::uint32_t size = items::metered_size(record);
    change.set_new(std::move(item), std::string(record), size);
    try {
      change.plan(ctx, sizes);
    } catch (const ApiError& e) {
      // Only an item collection over a limit lowered since the items were
      // written can fail here, after the table and earlier items were: abort
      // the whole group rather than leave a half-restored table.
      throw std::runtime_error("restore of " + name + " failed: " + e.message());
    }
    change.apply(ctx);
  });
  return answer;
}

}  // namespace

Backup create_backup(WriteContext& ctx, const Scope& scope, const CreateBackupRequest& request, double now) {
  TablePtr table = table_for_backups([&](const QualifiedName& n) { return ctx.find_table(n.ns, n.name); }, scope,
                                     request.table_name);
  return take_backup(ctx, *table, request.backup_name, BackupType::User, now);
}

void take_system_backup(WriteContext& ctx, const Table& table, double now) {
  take_backup(ctx, table, table.schema.name + "$DeletedTableBackup", BackupType::System, now);
}

void expire_system_backups(WriteContext& ctx, double now) {
  std::vector<std::pair<std::string, Backup>> expired;
  {
    auto cursor = ctx.txn().cursor(ctx.dbs().backups);
    for (auto entry = cursor.first(); entry; entry = cursor.next()) {
      Backup backup = decode_descriptor(entry->second);
      if (backup.type == BackupType::System && backup.expires <= now)
        expired.emplace_back(entry->first, std::move(backup));
    }
  }
  for (const auto& [key, backup] : expired) drop_backup(ctx, key, backup);
}

Backup describe_backup(Store& store, const Scope& scope, const std::string& arn) {
  lmdb::ReadTxn txn = store.read();
  std::optional<Backup> backup = find_backup(txn, store.dbs(), scope, arn);
  if (!backup) throw backup_not_found(arn);
  return std::move(*backup);
}

Backup delete_backup(WriteContext& ctx, const Scope& scope, const std::string& arn) {
  std::optional<Backup> backup = find_backup(ctx.txn(), ctx.dbs(), scope, arn);
  if (!backup) throw backup_not_found(arn);
  if (backup->type == BackupType::System) {
    throw ApiError::validation("Invalid Request: User is not allowed to delete the system backup with arn " + arn +
                               ". It will automatically expire on " +
                               iso8601_millis(static_cast<std::int64_t>(backup->expires * 1000.0 + 0.5)) + "Z");
  }
  drop_backup(ctx, *key_of_arn(scope, arn), *backup);
  return std::move(*backup);
}

ListBackupsResult list_backups(Store& store, const Scope& scope, const ListBackupsRequest& request) {
  std::optional<QualifiedName> table;
  if (request.table_name) {
    table = scope.qualify(*request.table_name);
    if (!table) return {};  // an ARN of another account: none of its backups are here
  }
  const std::string prefix = backup_key(table ? std::string_view(table->ns) : scope.ns(), "");
  std::string start = prefix;
  if (request.exclusive_start_backup_arn) {
    std::optional<std::string> key = key_of_arn(scope, *request.exclusive_start_backup_arn);
    if (key && key->substr(0, prefix.size()) == prefix) start = *key;
  }
  ListBackupsResult result;
  auto wanted = [&](const Backup& b) {
    return request.backup_type == "ALL" || request.backup_type == backup_type_name(b.type);  // (no AWS_BACKUP here)
  };
  lmdb::ReadTxn txn = store.read();
  auto cursor = txn.cursor(store.dbs().backups);
  auto entry = cursor.seek(start);
  if (entry && entry->first == start) entry = cursor.next();  // (no backup's key is the bare prefix)
  // Ids begin with the creation time, so the key order is the order of creation.
  for (; entry && entry->first.substr(0, prefix.size()) == prefix; entry = cursor.next()) {
    Backup backup = decode_descriptor(entry->second);
    if (table && backup.table.name != table->name) continue;
    if (!wanted(backup)) continue;
    if (request.created_from && backup.created < *request.created_from) continue;
    if (request.created_before && backup.created >= *request.created_before) continue;
    if (result.backups.size() == static_cast<std::size_t>(request.limit)) {
      result.last_evaluated = result.backups.back();
      break;
    }
    result.backups.push_back(std::move(backup));
  }
  return result;
}

TableDescription restore_table_from_backup(WriteContext& ctx, const Scope& scope,
                                           const RestoreTableFromBackupRequest& request, double now,
                                           std::string table_uuid) {
  std::optional<Backup> backup = find_backup(ctx.txn(), ctx.dbs(), scope, request.backup_arn);
  if (!backup) throw backup_not_found(request.backup_arn);
  refuse_existing_target(ctx, scope, request.target_table_name);
  TableSchema schema = restored_schema(backup->table, request.target_table_name, request.overrides);
  const ArnContext source_arn{backup->table.region, scope.account_id};
  schema.restore = RestoreSummary{request.backup_arn, table_arn(source_arn, backup->table.name), now};
  return restore_table(ctx, scope, std::move(schema), now, std::move(table_uuid), [&](auto write) {
    copy_key_space(ctx, ctx.dbs().backup_items, backup->key_space,
                   [&](std::string_view, std::string_view record) { write(record); });
  });
}

TableDescription restore_table_to_point_in_time(WriteContext& ctx, const Scope& scope,
                                                const RestoreTableToPointInTimeRequest& request, double now,
                                                std::string table_uuid) {
  TablePtr source = table_for_backups([&](const QualifiedName& n) { return ctx.find_table(n.ns, n.name); }, scope,
                                      *request.source_table);
  refuse_existing_target(ctx, scope, request.target_table_name);
  const PointInTimeRecovery& recovery = source->schema.point_in_time_recovery;
  if (!recovery.enabled) {
    throw ApiError(ErrorCode::PointInTimeRecoveryUnavailableException,
                   "Point in time recovery is not enabled for table '" + source->schema.name + "'");
  }
  const double time = request.use_latest_restorable_time ? now : *request.restore_time;
  if (time < recovery.earliest_restorable(now) || time > now) {
    throw ApiError(ErrorCode::InvalidRestoreTimeException,
                   "RestoreDateTime must be between EarliestRestorableDateTime and LatestRestorableDateTime");
  }
  TableSchema schema = restored_schema(source->schema, request.target_table_name, request.overrides);
  const ArnContext source_arn{source->schema.region, scope.account_id};
  schema.restore = RestoreSummary{"", table_arn(source_arn, source->schema.name), time};
  // The items now, each changed one as it was at `time`.
  std::map<std::string, std::optional<std::string>> then =
      pitr::states_before_changes(ctx.txn(), ctx.dbs(), source->schema.id, static_cast<std::int64_t>(time * 1000.0));
  return restore_table(ctx, scope, std::move(schema), now, std::move(table_uuid), [&](auto write) {
    copy_key_space(ctx, ctx.dbs().items, source->schema.id, [&](std::string_view key, std::string_view record) {
      auto it = then.find(std::string(key));
      if (it == then.end()) {
        write(record);
        return;
      }
      if (it->second) write(*it->second);
      then.erase(it);
    });
    for (const auto& [key, record] : then) {  // items deleted since
      if (record) write(*record);
    }
  });
}

PointInTimeRecovery describe_continuous_backups(Store& store, const Scope& scope, const std::string& name) {
  return table_for_backups([&](const QualifiedName& n) { return store.catalog().find(n.ns, n.name); }, scope, name)
      ->schema.point_in_time_recovery;
}

PointInTimeRecovery update_continuous_backups(WriteContext& ctx, const Scope& scope,
                                              const UpdateContinuousBackupsRequest& request, double now) {
  TablePtr table = table_for_backups([&](const QualifiedName& n) { return ctx.find_table(n.ns, n.name); }, scope,
                                     *request.table_name);
  TableSchema schema = table->schema;
  PointInTimeRecovery& pitr = schema.point_in_time_recovery;
  if (*request.enabled && !pitr.enabled) pitr.enabled_at = now;
  // Turned off, recovery forgets its history: turned on again, it starts anew.
  if (!*request.enabled && pitr.enabled) pitr::drop(ctx, schema.id);
  pitr.enabled = *request.enabled;
  if (request.recovery_period_days) pitr.recovery_period_days = *request.recovery_period_days;
  PointInTimeRecovery result = pitr;
  replace_schema(ctx, *table, std::move(schema));
  return result;
}

}  // namespace dynamod::ops
