#include "storage/write_queue.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iterator>

namespace dynamod {
namespace {

// Sets MDB_NOMETASYNC on the environment while it lives, when asked and when
// the environment does not have it already (--durability relaxed).
class UnsyncedMeta {
 public:
  UnsyncedMeta(lmdb::Env& env, bool wanted) : env_(env) {
    unsigned flags = 0;
    lmdb::check(mdb_env_get_flags(env_.get(), &flags), "mdb_env_get_flags");
    set_ = wanted && (flags & (MDB_NOMETASYNC | MDB_NOSYNC)) == 0;
    if (set_) lmdb::check(mdb_env_set_flags(env_.get(), MDB_NOMETASYNC, 1), "mdb_env_set_flags");
  }
  ~UnsyncedMeta() {
    if (set_) mdb_env_set_flags(env_.get(), MDB_NOMETASYNC, 0);
  }
  UnsyncedMeta(const UnsyncedMeta&) = delete;
  UnsyncedMeta& operator=(const UnsyncedMeta&) = delete;

 private:
  lmdb::Env& env_;
  bool set_ = false;
};

}  // namespace

void WriteContext::add_stats(const std::shared_ptr<TableStats>& stats, std::uint32_t key_space, std::int64_t items,
                             std::int64_t bytes) {
  StatsDelta& delta = stats_[stats.get()];
  delta.stats = stats;
  delta.table_id = key_space;
  delta.items += items;
  delta.bytes += bytes;
}

TablePtr WriteContext::find_table(std::string_view ns, std::string_view name) const {
  auto it = staged_tables_.find(std::pair<std::string, std::string>(ns, name));
  if (it != staged_tables_.end()) return it->second;
  return store_.catalog().find(ns, name);
}

std::vector<TablePtr> WriteContext::tables_in(std::string_view ns) const {
  std::map<std::string, TablePtr, std::less<>> tables;
  for (TablePtr& table : store_.catalog().all()) {
    if (table->ns == ns) tables.emplace(table->schema.name, std::move(table));
  }
  for (const auto& [key, table] : staged_tables_) {
    if (key.first == ns) tables.insert_or_assign(key.second, table);  // nullptr: dropped in this group
  }
  std::vector<TablePtr> out;
  for (auto& [name, table] : tables) {
    if (table) out.push_back(std::move(table));
  }
  return out;
}

void WriteContext::stage_table(TablePtr table) { staged_tables_[{table->ns, table->schema.name}] = std::move(table); }

void WriteContext::stage_drop(const std::string& ns, const std::string& name) { staged_tables_[{ns, name}] = nullptr; }

void WriteContext::discard_stats_of(std::uint32_t key_space) {
  std::erase_if(stats_, [key_space](const auto& entry) { return entry.second.table_id == key_space; });
}

void WriteContext::replace_tables(const std::vector<TablePtr>& tables) {
  staged_tables_.clear();
  for (const TablePtr& table : store_.catalog().all()) stage_drop(table->ns, table->schema.name);
  for (const TablePtr& table : tables) stage_table(table);
}

void WriteContext::flush_stats() {
  if (used_sequence_numbers_) store_.save_sequence_number(txn_);
  // Every job of the group was encoded before this point, so this saves every
  // name its records refer to.
  names_saved_ = store_.names().save(txn_, store_.dbs().names);
  for (auto& [key, delta] : stats_) {
    // An overwrite with an item of the same size changes nothing: no page to write.
    if (delta.items == 0 && delta.bytes == 0) continue;
    std::int64_t values[2] = {delta.stats->item_count.load() + delta.items,
                              delta.stats->size_bytes.load() + delta.bytes};
    char buffer[16];
    std::memcpy(buffer, values, sizeof buffer);
    txn_.put(store_.dbs().stats, Store::stats_key(delta.table_id), std::string_view(buffer, sizeof buffer));
  }
}

void WriteContext::publish() {
  store_.names().saved(names_saved_);
  for (auto& [key, delta] : stats_) {
    delta.stats->item_count += delta.items;
    delta.stats->size_bytes += delta.bytes;
  }
  for (auto& [key, table] : staged_tables_) {
    if (table) {
      store_.catalog().put(table);
    } else {
      store_.catalog().erase(key.first, key.second);
    }
  }
  for (auto& action : after_commit_) action();
}

WriteQueue::WriteQueue(Store& store, RequestWrites request_writes)
    : store_(store), request_writes_(request_writes), thread_([this] { loop(); }) {}

WriteQueue::~WriteQueue() { stop(); }

void WriteQueue::submit(std::unique_ptr<WriteJob> job) {
  {
    std::lock_guard lock(mutex_);
    (job->defers_sync() ? deferred_ : background_).push_back(std::move(job));
  }
  wake_.notify_one();
}

void WriteQueue::submit_request(std::unique_ptr<WriteJob> job) {
  {
    std::lock_guard lock(mutex_);
    if (writing_ || request_writes_ == RequestWrites::on_writer_thread) {
      // Whoever writes now takes it when its group is done; an idle writer thread wakes for it.
      requests_.push_back(std::move(job));
      if (!writing_) wake_.notify_one();
      return;
    }
    writing_ = true;
  }
  std::vector<std::unique_ptr<WriteJob>> group;
  group.push_back(std::move(job));
  for (;;) {
    write_group(group);
    std::lock_guard lock(mutex_);
    if (requests_.empty()) {
      writing_ = false;
      if (!background_.empty() || !deferred_.empty() || stopping_) wake_.notify_one();
      return;
    }
    group.swap(requests_);
  }
}

void WriteQueue::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void WriteQueue::loop() {
  std::vector<std::unique_ptr<WriteJob>> group;
  for (;;) {
    bool synced = true;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] {
        return !writing_ && (stopping_ || !requests_.empty() || !background_.empty() || !deferred_.empty());
      });
      const bool others = !requests_.empty() || !background_.empty();
      if (!others && deferred_.empty()) return;  // stopping and drained
      // Jobs that defer their sync never share a group with those that do
      // not (a request's answer waits for its fsync); the two kinds take turns.
      if (!deferred_.empty() && (deferred_turn_ || !others)) {
        group.swap(deferred_);
        synced = false;
        deferred_turn_ = false;
      } else {
        group.swap(requests_);
        std::move(background_.begin(), background_.end(), std::back_inserter(group));
        background_.clear();
        deferred_turn_ = true;
      }
      writing_ = true;
    }
    write_group(group, synced);
    std::lock_guard lock(mutex_);
    writing_ = false;
  }
}

void WriteQueue::write_group(std::vector<std::unique_ptr<WriteJob>>& jobs, bool synced) {
  run_group(jobs, synced);
  for (auto& job : jobs) job->complete();
  jobs.clear();
}

WriteQueue::Totals WriteQueue::totals() const {
  return Totals{commits_.load(std::memory_order_relaxed), committed_requests_.load(std::memory_order_relaxed),
                static_cast<double>(commit_nanoseconds_.load(std::memory_order_relaxed)) / 1e9};
}

void WriteQueue::run_group(std::vector<std::unique_ptr<WriteJob>>& jobs, bool synced) {
  if (try_group(jobs, synced)) return;
  if (jobs.size() == 1) {
    jobs.front()->fail(ApiError::internal("Internal server error"));
    return;
  }
  // Retry one by one so that the job that failed the group fails alone.
  for (auto& job : jobs) {
    std::vector<std::unique_ptr<WriteJob>> single;
    single.push_back(std::move(job));
    if (!try_group(single, synced)) single.front()->fail(ApiError::internal("Internal server error"));
    job = std::move(single.front());
  }
}

bool WriteQueue::try_group(std::vector<std::unique_ptr<WriteJob>>& jobs, bool synced) {
  try {
    // MDB_NOMETASYNC is read when LMDB commits; only this thread commits, so
    // setting it for one commit affects no other.
    UnsyncedMeta unsynced_meta(store_.env(), !synced);
    // --consistency-lag: a commit that no view shows yet (it came within the
    // views' resolution of the last one) gets its view now, before this group
    // changes the store; without this, a quiet spell followed by a write would
    // leave that commit visible only from the later write's view on. view()
    // opens it as a side effect; the view it lends is handed back at once.
    if (store_.lagged_reads().active()) store_.lagged_reads().view(0);
    lmdb::WriteTxn txn(store_.env());
    WriteContext ctx(store_, txn, *this);
    for (auto& job : jobs) job->run(ctx);
    ctx.flush_stats();
    const std::uint64_t txn_id = mdb_txn_id(txn.get());
    const auto started = std::chrono::steady_clock::now();
    txn.commit();
    // --consistency-lag keeps views of the store as of its commits.
    if (store_.lagged_reads().active()) store_.lagged_reads().committed(txn_id);
    const auto took = std::chrono::steady_clock::now() - started;
    commits_.fetch_add(1, std::memory_order_relaxed);
    committed_requests_.fetch_add(jobs.size(), std::memory_order_relaxed);
    commit_nanoseconds_.fetch_add(
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(took).count()),
        std::memory_order_relaxed);
    ctx.publish();
    return true;
  } catch (const std::exception& e) {
    spdlog::error("write transaction of {} request(s) failed: {}", jobs.size(), e.what());
    return false;
  }
}

}  // namespace dynamod
