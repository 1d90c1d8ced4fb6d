#pragma once
// --consistency-lag: eventual consistency on demand. While a lag is set (for
// every table, or for some at run time), an eventually consistent read of a
// table (GetItem, Query, Scan, BatchGetItem without ConsistentRead; every read
// of a global secondary index) sees the store as it was `lag` milliseconds
// before, and a stream's GetRecords returns a record only once it is that old.
// Strongly consistent reads and transactions always see the latest state.
//
// How: LMDB's read transactions are views of the store as of the commit they
// began after. The writer opens one after a commit (at most one per
// `resolution`, a hundredth of the largest lag, at least 1 ms) and labels it
// with the commit's time; a lagged read takes the newest view labelled at or
// before now - lag. A commit that came within the resolution of the last view
// is caught by the next view, opened by the next commit or lagged read; so a
// write is never visible before its lag has passed, and in the worst case up
// to one resolution later. Views older than every lag needs are closed (LMDB
// cannot reuse the pages an open view still sees, so the store grows by what
// is written within one lag).
//
// A view is one read transaction, used by one reader at a time.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "storage/lmdb.h"

namespace dynamod {

class LaggedReads {
 public:
  LaggedReads(lmdb::Env& env, std::int64_t default_lag_ms, std::function<std::int64_t()> clock_ms);
  ~LaggedReads();
  LaggedReads(const LaggedReads&) = delete;
  LaggedReads& operator=(const LaggedReads&) = delete;

  // Whether any table has a lag: one relaxed load (the writer asks after every commit).
  bool active() const { return active_.load(std::memory_order_relaxed); }

  // The lag of every table without one of its own (0: off).
  void set_default_lag(std::int64_t ms);
  // A table's own lag; nullopt returns it to the default.
  void set_table_lag(const std::string& ns, const std::string& table, std::optional<std::int64_t> ms);
  std::int64_t lag_of(std::string_view ns, std::string_view table) const;
  // {"default_lag_ms": N, "tables": [{"region": ..., "table": ..., "lag_ms": N}]}
  std::string settings_json() const;

  // The writer, after committing the write transaction `txn_id`.
  void committed(std::uint64_t txn_id);
  // The store as it was `lag_ms` ago.
  lmdb::ReadTxn view(std::int64_t lag_ms);

 private:
  struct View;
  void reconfigure();  // under mutex_
  std::shared_ptr<View> open_view(std::int64_t as_of_ms);
  void prune(std::int64_t now_ms);  // under mutex_
  std::int64_t resolution_ms() const { return std::max<std::int64_t>(1, max_lag_ms_ / 100); }

  lmdb::Env& env_;
  std::function<std::int64_t()> clock_ms_;
  mutable std::mutex mutex_;
  std::int64_t default_lag_ms_ = 0;
  std::map<std::pair<std::string, std::string>, std::int64_t, std::less<>> table_lags_;
  std::int64_t max_lag_ms_ = 0;
  std::deque<std::shared_ptr<View>> views_;  // oldest first
  bool pending_ = false;                     // a commit no view shows yet
  std::uint64_t last_commit_id_ = 0;
  std::int64_t last_commit_ms_ = 0;
  std::atomic<bool> active_{false};
};

}  // namespace dynamod
