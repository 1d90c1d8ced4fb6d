#include "storage/lagged_reads.h"

#include <algorithm>

#include "protocol/json_writer.h"

namespace dynamod {

struct LaggedReads::View {
  std::int64_t as_of_ms = 0;
  MDB_txn* txn = nullptr;
  std::mutex use;  // one reader at a time
  ~View() {
    if (txn != nullptr) mdb_txn_abort(txn);
  }
};

namespace {

// What a borrowed view holds: the view itself, and its use.
struct Borrow {
  std::shared_ptr<void> view;
  std::unique_lock<std::mutex> lock;
};

}  // namespace

LaggedReads::LaggedReads(lmdb::Env& env, std::int64_t default_lag_ms, std::function<std::int64_t()> clock_ms)
    : env_(env), clock_ms_(std::move(clock_ms)) {
  std::lock_guard lock(mutex_);
  default_lag_ms_ = default_lag_ms;
  reconfigure();
}

LaggedReads::~LaggedReads() = default;

std::shared_ptr<LaggedReads::View> LaggedReads::open_view(std::int64_t as_of_ms) {
  auto view = std::make_shared<View>();
  lmdb::check(mdb_txn_begin(env_.get(), nullptr, MDB_RDONLY, &view->txn), "mdb_txn_begin(lagged view)");
  view->as_of_ms = as_of_ms;
  return view;
}

void LaggedReads::reconfigure() {
  max_lag_ms_ = default_lag_ms_;
  for (const auto& [table, lag] : table_lags_) max_lag_ms_ = std::max(max_lag_ms_, lag);
  const bool on = max_lag_ms_ > 0;
  if (on && views_.empty()) {
    // Whatever was written before the lag was set counts as old (labelled the epoch).
    views_.push_back(open_view(0));
  } else if (!on) {
    views_.clear();
    pending_ = false;
  }
  active_.store(on, std::memory_order_relaxed);
}

void LaggedReads::set_default_lag(std::int64_t ms) {
  std::lock_guard lock(mutex_);
  default_lag_ms_ = std::max<std::int64_t>(0, ms);
  reconfigure();
}

void LaggedReads::set_table_lag(const std::string& ns, const std::string& table, std::optional<std::int64_t> ms) {
  std::lock_guard lock(mutex_);
  if (ms) {
    table_lags_[{ns, table}] = std::max<std::int64_t>(0, *ms);
  } else {
    table_lags_.erase({ns, table});
  }
  reconfigure();
}

std::int64_t LaggedReads::lag_of(std::string_view ns, std::string_view table) const {
  std::lock_guard lock(mutex_);
  if (table_lags_.empty()) return default_lag_ms_;
  auto it = table_lags_.find(std::pair<std::string, std::string>(ns, table));
  return it == table_lags_.end() ? default_lag_ms_ : it->second;
}

std::string LaggedReads::settings_json() const {
  std::lock_guard lock(mutex_);
  JsonWriter out;
  out.begin_object();
  out.key("default_lag_ms");
  out.integer(default_lag_ms_);
  out.key("tables");
  out.begin_array();
  for (const auto& [key, lag] : table_lags_) {
    out.begin_object();
    out.key("region");
    out.string(key.first);
    out.key("table");
    out.string(key.second);
    out.key("lag_ms");
    out.integer(lag);
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

void LaggedReads::prune(std::int64_t now_ms) {
  // Keep the newest view old enough for the largest lag, and every newer one.
  const std::int64_t oldest_needed = now_ms - max_lag_ms_;
  while (views_.size() >= 2 && views_[1]->as_of_ms <= oldest_needed) views_.pop_front();
}

void LaggedReads::committed(std::uint64_t txn_id) {
  const std::int64_t now = clock_ms_();
  std::lock_guard lock(mutex_);
  if (max_lag_ms_ == 0) return;
  last_commit_id_ = txn_id;
  last_commit_ms_ = now;
  if (views_.empty() || now - views_.back()->as_of_ms >= resolution_ms()) {
    // Still the writer: no other commit can come between this one and the view.
    views_.push_back(open_view(now));
    pending_ = false;
  } else {
    pending_ = true;
  }
  prune(now);
}

lmdb::ReadTxn LaggedReads::view(std::int64_t lag_ms) {
  const std::int64_t now = clock_ms_();
  std::shared_ptr<View> chosen;
  {
    std::lock_guard lock(mutex_);
    if (views_.empty()) {
      views_.push_back(open_view(0));
    }
    // A commit no view shows matters only to reads a whole lag after it, by when a
    // resolution has passed since the newest view: at most two views per resolution.
    if (pending_ && now - views_.back()->as_of_ms >= resolution_ms()) {
      auto view = open_view(now);
      // The view shows the last commit known here, or one after it that the
      // writer has not reported yet: then only the time now is a safe label.
      view->as_of_ms = mdb_txn_id(view->txn) == last_commit_id_ ? last_commit_ms_ : now;
      views_.push_back(std::move(view));
      pending_ = false;
    }
    prune(now);
    const std::int64_t as_of = now - lag_ms;
    chosen = views_.front();
    for (const auto& view : views_) {
      if (view->as_of_ms > as_of) break;
      chosen = view;
    }
  }
  // Waited for without mutex_: another reader may be using this view.
  auto borrow = std::make_shared<Borrow>();
  borrow->lock = std::unique_lock<std::mutex>(chosen->use);
  MDB_txn* txn = chosen->txn;
  borrow->view = std::move(chosen);
  return lmdb::ReadTxn::borrowed(txn, std::move(borrow));
}

}  // namespace dynamod
