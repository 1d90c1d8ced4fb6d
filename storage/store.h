#pragma once
// Store: the LMDB environment of one data directory, its databases, and the
// in-memory catalog loaded from it.
//
// Databases: "meta" (format version, next key-space id), "catalog"
// (namespace \0 table name -> schema JSON), "stats" (table or index id ->
// counters), "items" (encoded primary key -> item record), "indexes" (encoded
// index key -> projected entry), "collections" (table id ‖ partition hash ->
// item collection size, for tables with local secondary indexes), "tokens"
// (namespace \0 ClientRequestToken -> expiry and request digest), "streams"
// and "stream_records" (see streams.h), "names" (the attribute name
// dictionary, see attribute_names.h), "backups" and "backup_items" (on-demand
// backups, see backup_ops.h), "pitr_log" (point-in-time recovery, see pitr.h),
// "vectors" (vector index entries, see vector_entries.h), "exports" (table
// exports, see export_ops.h).

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "storage/attribute_names.h"
#include "storage/catalog.h"
#include "storage/directory_lock.h"
#include "storage/lagged_reads.h"
#include "storage/lmdb.h"
#include "storage/vector_search_mode.h"

namespace dynamod {

namespace vectors {
class VectorMemory;
}

struct StoreOptions {
  enum class Durability : std::uint8_t { Full, Relaxed, None };
  std::string path;        // ignored when in_memory
  bool in_memory = false;  // a temporary environment, unlinked as soon as it is open
  Durability durability = Durability::Full;
  std::size_t map_size = 64ull << 30;
  std::function<std::int64_t()> clock_ms;  // default: the system clock
  // Item collections (tables with local secondary indexes) may not grow past this.
  std::uint64_t item_collection_limit = 10ull << 30;
  // After a Time to Live change the service refuses another for about 31 minutes.
  std::int64_t ttl_cooldown_ms = 31 * 60 * 1000;
  // CloudWatch's default quota of Contributor Insights rules per region.
  std::int64_t contributor_insights_rule_limit = 100;
  // After a change of a resource policy the service refuses another for 15 seconds.
  std::int64_t resource_policy_cooldown_ms = 15000;
  // --consistency-lag: eventually consistent reads see the store as it was this long ago.
  std::int64_t consistency_lag_ms = 0;
  // --vector-search: how SearchVectors searches large partitions (storage/vector_partition.h).
  vectors::SearchMode vector_search = vectors::SearchMode::Approximate;
};

struct Databases {
  lmdb::Dbi meta;
  lmdb::Dbi catalog;
  lmdb::Dbi stats;
  lmdb::Dbi items;
  lmdb::Dbi indexes;
  lmdb::Dbi collections;
  lmdb::Dbi tokens;          // ClientRequestToken -> expiry, request digest
  lmdb::Dbi streams;         // stream id -> stream descriptor
  lmdb::Dbi stream_records;  // stream id ‖ sequence number -> record
  lmdb::Dbi ledger;          // consumed capacity and access patterns (see ledger.h)
  lmdb::Dbi names;           // attribute name number -> name
  lmdb::Dbi backups;         // namespace \0 backup id -> the backup's descriptor (see backup_ops.h)
  lmdb::Dbi backup_items;    // backup key space ‖ item key (after the table id) -> item record
  lmdb::Dbi pitr_log;        // point-in-time recovery's history (see pitr.h)
  lmdb::Dbi vectors;         // vector index entries (see vector_entries.h)
  lmdb::Dbi exports;         // namespace \0 export id -> the export's record (see export_ops.h)
};

class Store {
 public:
  explicit Store(const StoreOptions& options);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  lmdb::Env& env() { return *env_; }
  const Databases& dbs() const { return dbs_; }
  Catalog& catalog() { return catalog_; }
  // Item records refer to top-level attribute names by number (item_codec.h).
  AttributeNames& names() { return names_; }
  lmdb::ReadTxn read() { return read_pool_->begin(); }
  // An eventually consistent read of `table`: with --consistency-lag, the
  // store as it was that long ago (storage/lagged_reads.h); otherwise read().
  lmdb::ReadTxn read_eventually(const Table& table);
  LaggedReads& lagged_reads() { return *lagged_reads_; }
  // Vector indexes' vectors in memory, for SearchVectors (storage/vector_memory.h).
  vectors::VectorMemory& vector_memory() { return *vector_memory_; }
  const std::filesystem::path& path() const { return path_; }
  std::uint64_t item_collection_limit() const { return item_collection_limit_; }
  std::int64_t ttl_cooldown_ms() const { return ttl_cooldown_ms_; }
  std::int64_t contributor_insights_rule_limit() const { return contributor_insights_rule_limit_; }
  std::int64_t resource_policy_cooldown_ms() const { return resource_policy_cooldown_ms_; }

  // Stream sequence numbers: only the writer thread takes them; the next one
  // is saved with every commit that used one (a failed commit leaves a gap).
  std::uint64_t take_sequence_number() { return next_sequence_++; }
  std::uint64_t peek_sequence_number() const { return next_sequence_.load(); }
  void save_sequence_number(lmdb::WriteTxn& txn) const;

  // Milliseconds since the epoch (a function, so tests can move time).
  std::int64_t now_ms() const { return clock_(); }

  static std::string catalog_key(std::string_view ns, std::string_view name);
  static std::string stats_key(std::uint32_t table_id);

  // Every table the catalog database of `txn` holds, with its counters (at
  // open, and after a snapshot's restore).
  std::vector<TablePtr> read_catalog(const lmdb::TxnBase& txn) const;

 private:
  void load_catalog();
  std::shared_ptr<TableStats> load_stats(const lmdb::TxnBase& txn, std::uint32_t key_space) const;

  std::filesystem::path path_;
  std::optional<DirectoryLock> lock_;  // on disk only
  std::uint64_t item_collection_limit_;
  std::int64_t ttl_cooldown_ms_;
  std::int64_t contributor_insights_rule_limit_;
  std::int64_t resource_policy_cooldown_ms_;
  std::function<std::int64_t()> clock_;
  std::atomic<std::uint64_t> next_sequence_{0};
  std::unique_ptr<lmdb::Env> env_;
  std::unique_ptr<lmdb::ReadTxnPool> read_pool_;
  Databases dbs_{};
  Catalog catalog_;
  AttributeNames names_;
  std::unique_ptr<LaggedReads> lagged_reads_;
  std::unique_ptr<vectors::VectorMemory> vector_memory_;
};

}  // namespace dynamod
