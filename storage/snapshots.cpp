#include "storage/snapshots.h"

#include <cstring>
#include <set>

#include "storage/index_builds.h"
#include "storage/key_codec.h"
#include "storage/pitr.h"
#include "storage/streams.h"
#include "storage/table_ops.h"
#include "storage/vector_memory.h"

namespace dynamod {
namespace {

constexpr std::size_t kItemsDatabase = 2;

// The databases an image holds, in a fixed order (see snapshots.h for those it leaves out).
std::array<lmdb::Dbi, 12> image_databases(const Databases& d) {
  return {d.catalog, d.stats,          d.items,   d.indexes,      d.collections, d.tokens,
          d.streams, d.stream_records, d.backups, d.backup_items, d.pitr_log,    d.vectors};
}

void append_u32(std::string& out, std::uint32_t v) {
  char bytes[4];
  std::memcpy(bytes, &v, 4);
  out.append(bytes, 4);
}

std::uint32_t read_u32(const char* p) {
  std::uint32_t v = 0;
  std::memcpy(&v, p, 4);
  return v;
}

// Items, index entries, item collections, counters and point-in-time history of a table.
void empty_table(WriteContext& ctx, const Table& table) {
  const Databases& dbs = ctx.dbs();
  ctx.txn().del(dbs.stats, Store::stats_key(table.schema.id));
  ctx.discard_stats_of(table.schema.id);
  ops::delete_prefix(ctx, dbs.items, keys::key_space_prefix(table.schema.id));
  ops::delete_prefix(ctx, dbs.collections, keys::key_space_prefix(table.schema.id));
  for (const auto* family : {&table.schema.local_indexes, &table.schema.global_indexes}) {
    for (const auto& index : *family) {
      ctx.txn().del(dbs.stats, Store::stats_key(index.id));
      ctx.discard_stats_of(index.id);
      ops::delete_prefix(ctx, dbs.indexes, keys::key_space_prefix(index.id));
    }
  }
  for (const auto& index : table.schema.vector_indexes) {
    ctx.txn().del(dbs.stats, Store::stats_key(index.id));
    ctx.discard_stats_of(index.id);
    ops::delete_prefix(ctx, dbs.vectors, keys::key_space_prefix(index.id));
    ctx.store().vector_memory().stage_forget(ctx, index.id);
  }
  pitr::drop(ctx, table.schema.id);
}

// The table with zeroed counters, as a reset that keeps it leaves it.
TablePtr emptied(const Table& table) {
  auto copy = std::make_shared<Table>(Table{table.ns, table.schema, std::make_shared<TableStats>(), {}});
  for (const auto& [id, stats] : table.index_stats) copy->index_stats[id] = std::make_shared<TableStats>();
  return copy;
}

}  // namespace

StoreImage StoreImage::take(Store& store) {
  StoreImage image;
  auto txn = store.read();
  auto databases = image_databases(store.dbs());
  for (std::size_t i = 0; i < kDatabases; ++i) {
    Database& db = image.dbs_[i];
    MDB_stat stat{};
    lmdb::check(mdb_stat(txn.get(), databases[i], &stat), "mdb_stat");
    // Pages hold a little more than the entries: enough room to copy without regrowing.
    db.entries.reserve(static_cast<std::size_t>(stat.ms_psize) * (stat.ms_leaf_pages + stat.ms_overflow_pages));
    auto cursor = txn.cursor(databases[i]);
    for (auto entry = cursor.first(); entry; entry = cursor.next()) {
      append_u32(db.entries, static_cast<std::uint32_t>(entry->first.size()));
      append_u32(db.entries, static_cast<std::uint32_t>(entry->second.size()));
      db.entries += entry->first;
      db.entries += entry->second;
      ++db.count;
    }
  }
  return image;
}

std::uint64_t StoreImage::items() const { return dbs_[kItemsDatabase].count; }

std::uint64_t StoreImage::bytes() const {
  std::uint64_t total = 0;
  for (const Database& db : dbs_) total += db.entries.size();
  return total;
}

std::uint64_t StoreImage::tables() const { return dbs_[0].count; }

void StoreImage::restore(WriteContext& ctx) const {
  // Every counter earlier jobs of the group changed is replaced.
  ctx.discard_stats();
  // Every vector index's entries are replaced too: the next search loads them again.
  ctx.store().vector_memory().stage_forget_all(ctx);
  auto databases = image_databases(ctx.dbs());
  for (std::size_t i = 0; i < kDatabases; ++i) {
    ctx.txn().clear(databases[i]);
    const std::string& entries = dbs_[i].entries;
    for (std::size_t at = 0; at < entries.size();) {
      const std::uint32_t key_size = read_u32(entries.data() + at);
      const std::uint32_t value_size = read_u32(entries.data() + at + 4);
      const std::string_view key(entries.data() + at + 8, key_size);
      const std::string_view value(entries.data() + at + 8 + key_size, value_size);
      ctx.txn().append(databases[i], key, value);
      at += 8 + key_size + value_size;
    }
  }
  ctx.replace_tables(ctx.store().read_catalog(ctx.txn()));
  // An image taken while an index was backfilling goes on backfilling it.
  ctx.after_commit([&store = ctx.store(), &queue = ctx.queue()] { resume_index_jobs(store, queue); });
}

std::size_t reset_store(WriteContext& ctx, const ResetScope& scope) {
  if (!scope.ns && !scope.keep_tables) {
    const std::size_t tables = ctx.store().catalog().all().size();
    StoreImage().restore(ctx);
    return tables;
  }
  std::set<std::string> namespaces;
  if (scope.ns) {
    namespaces.insert(*scope.ns);
  } else {
    for (const TablePtr& table : ctx.store().catalog().all()) namespaces.insert(table->ns);
  }
  const Databases& dbs = ctx.dbs();
  const std::vector<streams::StreamInfo> all_streams = streams::all_streams(ctx.txn(), dbs.streams);
  std::size_t count = 0;
  for (const std::string& ns : namespaces) {
    for (const TablePtr& table : ctx.tables_in(ns)) {
      empty_table(ctx, *table);
      if (scope.keep_tables) {
        ctx.stage_table(emptied(*table));
      } else {
        ctx.txn().del(dbs.catalog, Store::catalog_key(ns, table->schema.name));
        ctx.stage_drop(ns, table->schema.name);
      }
      ++count;
    }
    for (const streams::StreamInfo& stream : all_streams) {
      if (stream.ns != ns) continue;
      // A kept table keeps its streams, without their records.
      if (scope.keep_tables && !ctx.find_table(ns, stream.table)) continue;
      ops::delete_prefix(ctx, dbs.stream_records, streams::stream_key(stream.id));
      if (!scope.keep_tables) ctx.txn().del(dbs.streams, streams::stream_key(stream.id));
    }
    ops::delete_prefix(ctx, dbs.tokens, Store::catalog_key(ns, ""));
  }
  return count;
}

}  // namespace dynamod
