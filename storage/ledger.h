#pragma once
// The ledger: capacity consumed per region, table, index and operation, and
// per access pattern, since the ledger was started or last reset. It is what
// the cost and access-pattern reports read. Requests record into memory (one
// short lock); the maintenance rounds save what changed into the "ledger"
// database, and a clean shutdown saves the rest, so a crash loses at most
// one round's usage, never the data itself.
//
//   "ledger"  'u' ns \0 table \0 index \0 operation -> UsageTotals
//             'p' ns \0 table \0 shape             -> PatternTotals
//             's'                                   -> since (ms)
//
// TTL deletions and index backfills never pass through here: the service
// does not bill them.
//
// For the console it also keeps, in memory only (they start again with the
// process, and reset() clears them), each table's and index's units over time
// (metering::UsageSeries: the last hour by the second, the last day by the
// minute, with throttled requests) and each table's hottest partition keys
// (metering::HotKeys).

#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>

#include "metering/hot_keys.h"
#include "metering/usage_series.h"
#include "protocol/consumed_capacity.h"

namespace dynamod {

class Store;
class WriteContext;

// The operation of the entries that sum every operation of a table or index
// (a table's also holds its local indexes' units, which use its capacity).
inline constexpr std::string_view kAllOperations = "*";

struct UsageKey {
  std::string ns;  // the region (empty with --shared-db)
  std::string table;
  std::string index;      // empty: the table itself
  std::string operation;  // GetItem, Query, ..., or kAllOperations
  auto operator<=>(const UsageKey&) const = default;
};

struct UsageTotals {
  std::uint64_t requests = 0;
  double read_units = 0;
  double write_units = 0;
  // The busiest second seen, for sizing provisioned capacity.
  double peak_read_per_second = 0;
  double peak_write_per_second = 0;
  // A vector index's units (VectorCapacity), metered in bytes.
  double vector_search_bytes = 0;
  double vector_write_bytes = 0;
};

struct PatternKey {
  std::string ns;
  std::string table;
  std::string shape;  // e.g. "Query GSI1: GSI1PK = STATUS#* AND begins_with(GSI1SK, …)"
  auto operator<=>(const PatternKey&) const = default;
};

struct PatternTotals {
  std::string operation;
  std::string index;  // empty: the table
  std::uint64_t count = 0;
  double read_units = 0;
  double write_units = 0;
  std::uint64_t items_read = 0;
  std::uint64_t items_returned = 0;
  double vector_search_bytes = 0;
  double vector_write_bytes = 0;
};

// One request, as the ledger records it.
struct PatternUse {
  std::string_view operation;
  std::string_view table;
  std::string_view index;
  std::string shape;
  std::uint64_t items_read = 0;
  std::uint64_t items_returned = 0;
};

class Ledger {
 public:
  // Loads what an earlier run saved. A ledger that does not record (dynamod
  // --metering off) ignores every request.
  Ledger(Store& store, bool recording);

  bool recording() const { return recording_; }
  Ledger(const Ledger&) = delete;
  Ledger& operator=(const Ledger&) = delete;

  // The units of one request against one table and its indexes;
  // `partition_key` (the table's, if the request had one) counts toward the hot keys.
  void record(std::string_view ns, std::string_view operation, const ConsumedCapacity& consumed, std::int64_t now_ms,
              const AttributeValue* partition_key = nullptr);
  // A request the throughput model refused (--throttle), against a table or
  // one of its global indexes (index empty: the table).
  void record_throttled(std::string_view ns, std::string_view table, std::string_view index, std::int64_t now_ms);
  void record_pattern(std::string_view ns, PatternUse use, const ConsumedCapacity& consumed);

  // Saves what changed since the last save (on the writer thread).
  void save(WriteContext& ctx);
  // Forgets everything: the ledger starts again at `now_ms`.
  void reset(WriteContext& ctx, std::int64_t now_ms);

  struct Snapshot {
    std::int64_t since_ms = 0;
    std::map<UsageKey, UsageTotals> usage;
    std::map<PatternKey, PatternTotals> patterns;
  };
  Snapshot snapshot() const;

  struct SeriesLine {
    std::string ns, table, index;
    std::vector<metering::UsageSeries::Point> points;
  };
  // Every table's and index's series in the window ending at now_ms.
  std::vector<SeriesLine> series(metering::UsageSeries::Resolution resolution, std::int64_t now_ms) const;

  struct HotKeysLine {
    std::string ns, table;
    std::vector<metering::HotKeys::Entry> keys;
  };
  std::vector<HotKeysLine> hot_keys() const;

 private:
  struct LiveUsage {
    UsageTotals totals;
    std::int64_t second = -1;  // the second the two counters below belong to
    double second_read = 0;
    double second_write = 0;
    std::uint64_t version = 0;        // bumped by every change
    std::uint64_t saved_version = 0;  // the version a committed save holds
    // Only the all-operations entries keep these (and hot keys only a table's).
    std::unique_ptr<metering::UsageSeries> series;
    std::unique_ptr<metering::HotKeys> hot_keys;
  };
  struct LivePattern {
    PatternTotals totals;
    std::uint64_t version = 0;
    std::uint64_t saved_version = 0;
  };
  // Ordering over keys and views of keys, so that recording a request finds
  // its entry without building strings.
  struct UsageOrder {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      return views(a) < views(b);
    }
    // Both sides as tuples of views: clang 14 rejects comparing a tuple of
    // std::string with one of std::string_view (g++ accepts it), and clang-tidy
    // runs on clang.
    template <class K>
    static auto views(const K& k) {
      return std::tuple<std::string_view, std::string_view, std::string_view, std::string_view>(k.ns, k.table, k.index,
                                                                                                k.operation);
    }
  };
  struct UsageView {
    std::string_view ns, table, index, operation;
  };
  LiveUsage& entry(const UsageView& key);
  void add(LiveUsage& live, double read, double write, bool count_request, std::int64_t second);
  // The all-operations entry of a table or index, with its series.
  LiveUsage& all_operations(std::string_view ns, std::string_view table, std::string_view index);

  Store& store_;
  const bool recording_;
  mutable std::mutex mutex_;
  std::int64_t since_ms_ = 0;
  bool since_dirty_ = false;
  std::uint64_t generation_ = 0;  // bumped by reset()
  std::map<UsageKey, LiveUsage, UsageOrder> usage_;
  std::map<PatternKey, LivePattern> patterns_;
};

}  // namespace dynamod
