#pragma once
// Snapshots and resets of the whole store, for test suites (POST
// /dynamod/snapshots/NAME, .../restore, POST /dynamod/reset).
//
// An image copies every entry of the databases that hold tables and what
// hangs off them (catalog, stats, items, indexes, collections, tokens, streams,
// stream_records, backups, backup_items, pitr_log, vectors) out of one read
// transaction, into memory. Left out, and never moved back by a restore:
// `meta` (key-space ids and stream sequence numbers only grow, so nothing
// restored can meet a newer id or sequence number), `names` (the attribute
// name dictionary only grows, so every name an image's records use stays
// numbered) and `ledger` (usage has a reset of its own).
//
// A restore is one writer job: it empties those databases, refills them in
// key order (MDB_APPEND, no search), and stages the image's tables in place
// of the current ones, so later jobs of its group already see them. Readers
// in flight keep their transaction's view; connections stay open.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/store.h"
#include "storage/write_queue.h"

namespace dynamod {

class StoreImage {
 public:
  // Copies the store as one read transaction sees it.
  static StoreImage take(Store& store);

  std::uint64_t items() const;  // item records
  std::uint64_t bytes() const;  // keys and values held
  std::uint64_t tables() const;

  // Within a write job: the store becomes this image (an empty image: no tables).
  void restore(WriteContext& ctx) const;

 private:
  struct Database {
    std::string entries;  // u32 key size, u32 value size, key, value; in key order
    std::uint64_t count = 0;
  };
  static constexpr std::size_t kDatabases = 12;
  std::array<Database, kDatabases> dbs_{};
};

// POST /dynamod/reset: which tables go (or are emptied).
struct ResetScope {
  std::optional<std::string> ns;  // one namespace (a region); every one when absent
  bool keep_tables = false;       // empty the tables, keep them (and their settings)
};

// Deletes or empties the tables of the scope with what hangs off them: items,
// index entries, item collections, counters, point-in-time history, stream
// records (and, for deleted tables, their streams), idempotency tokens. A
// reset of every namespace that keeps no table also drops every backup.
// Returns the number of tables it deleted or emptied.
std::size_t reset_store(WriteContext& ctx, const ResetScope& scope);

}  // namespace dynamod
