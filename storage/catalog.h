#pragma once
// The in-memory view of the catalog: which tables exist in which namespace.
// The source of truth is the LMDB "catalog" database; the writer thread
// updates this view after each commit, and readers take shared snapshots.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/table_schema.h"

namespace dynamod {

// Live counters of a table or an index, shared by every version of its
// schema. Only the writer thread changes them, after the commit that made the
// change durable.
struct TableStats {
  std::atomic<std::int64_t> item_count{0};
  std::atomic<std::int64_t> size_bytes{0};
  TableCounters snapshot() const { return {item_count.load(), size_bytes.load()}; }
};

struct Table {
  std::string ns;  // namespace: the region, or "" with --shared-db
  TableSchema schema;
  std::shared_ptr<TableStats> stats;
  std::map<std::uint32_t, std::shared_ptr<TableStats>> index_stats;  // by index id

  // The counters of an index (created on first use by a new index).
  const std::shared_ptr<TableStats>& stats_of(const IndexSchema& index) const { return index_stats.at(index.id); }
};

using TablePtr = std::shared_ptr<const Table>;

class Catalog {
 public:
  TablePtr find(std::string_view ns, std::string_view name) const;
  // Table names of a namespace in ascending order, starting after `after`.
  std::vector<std::string> list(std::string_view ns, std::string_view after, std::size_t limit) const;
  std::size_t count(std::string_view ns) const;
  std::vector<TablePtr> all() const;

  void put(TablePtr table);
  void erase(std::string_view ns, std::string_view name);

 private:
  using Key = std::pair<std::string, std::string>;
  mutable std::mutex mutex_;
  std::map<Key, TablePtr, std::less<>> tables_;
};

}  // namespace dynamod
