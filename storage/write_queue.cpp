#include "storage/write_queue.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstring>

namespace dynamod {

namespace {

std::uint64_t nanoseconds_since(std::chrono::steady_clock::time_point start) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
}

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

void WriteContext::stage_table(TablePtr table) {
  staged_tables_[{table->ns, table->schema.name}] = std::move(table);
}

void WriteContext::stage_drop(const std::string& ns, const std::string& name) { staged_tables_[{ns, name}] = nullptr; }

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

WriteQueue::WriteQueue(Store& store) : store_(store) {
  if (store_.commits_wait_for_sync()) sync_thread_ = std::thread([this] { sync_loop(); });
  thread_ = std::thread([this] { loop(); });
}

WriteQueue::~WriteQueue() { stop(); }

void WriteQueue::submit(std::unique_ptr<WriteJob> job) {
  {
    std::lock_guard lock(mutex_);
    pending_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void WriteQueue::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  {
    std::lock_guard lock(mutex_);
    sync_stopping_ = true;
  }
  sync_wake_.notify_one();
  if (sync_thread_.joinable()) sync_thread_.join();
}

void WriteQueue::loop() {
  std::vector<std::unique_ptr<WriteJob>> group;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
      if (pending_.empty()) return;  // stopping and drained
      group.swap(pending_);
    }
    run_group(group);
    if (sync_thread_.joinable()) {
      hand_to_syncer(group);
    } else {
      for (auto& job : group) job->complete();
    }
    group.clear();
    try {
      if (store_.checkpoint_due()) {
        const auto started = std::chrono::steady_clock::now();
        // A checkpoint syncs LMDB's pages and replaces the log: the syncer must be done with it.
        wait_until_synced();
        store_.checkpoint();
        checkpoints_.fetch_add(1, std::memory_order_relaxed);
        checkpoint_nanoseconds_.fetch_add(nanoseconds_since(started), std::memory_order_relaxed);
      }
    } catch (const std::exception& e) {
      // The log keeps every acknowledged write meanwhile; the next group tries again.
      spdlog::error("checkpoint failed: {}", e.what());
    }
  }
}

bool WriteQueue::syncer_idle() const { return unsynced_.empty() && !syncing_; }

bool WriteQueue::gather(std::vector<std::unique_ptr<WriteJob>>& more) {
  std::unique_lock lock(mutex_);
  wake_.wait(lock, [&] { return stopping_ || !pending_.empty() || syncer_idle(); });
  if (pending_.empty()) return false;
  more.swap(pending_);
  return true;
}

void WriteQueue::hand_to_syncer(std::vector<std::unique_ptr<WriteJob>>& jobs) {
  {
    std::lock_guard lock(mutex_);
    for (auto& job : jobs) unsynced_.push_back(std::move(job));
  }
  sync_wake_.notify_one();
}

void WriteQueue::wait_until_synced() {
  std::unique_lock lock(mutex_);
  wake_.wait(lock, [&] { return syncer_idle(); });
}

void WriteQueue::sync_loop() {
  std::vector<std::unique_ptr<WriteJob>> batch;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      sync_wake_.wait(lock, [&] { return sync_stopping_ || !unsynced_.empty(); });
      if (unsynced_.empty()) return;  // stopping and drained
      batch.swap(unsynced_);
      syncing_ = true;
    }
    bool synced = true;
    const auto started = std::chrono::steady_clock::now();
    try {
      store_.sync_log();
    } catch (const std::exception& e) {
      // Committed but perhaps not durable: the outcome is unknown, as after any
      // InternalServerError.
      spdlog::error("change log sync for {} request(s) failed: {}", batch.size(), e.what());
      synced = false;
    }
    syncs_.fetch_add(1, std::memory_order_relaxed);
    sync_nanoseconds_.fetch_add(nanoseconds_since(started), std::memory_order_relaxed);
    // Idle before answering: the writer may commit its next group meanwhile.
    {
      std::lock_guard lock(mutex_);
      syncing_ = false;
    }
    wake_.notify_one();  // the writer may be gathering, or waiting to checkpoint
    for (auto& job : batch) {
      if (!synced) job->fail(ApiError::internal("Internal server error"));
      job->complete();
    }
    batch.clear();
  }
}

WriteQueue::Totals WriteQueue::totals() const {
  return Totals{commits_.load(std::memory_order_relaxed), committed_requests_.load(std::memory_order_relaxed),
                static_cast<double>(commit_nanoseconds_.load(std::memory_order_relaxed)) / 1e9,
                syncs_.load(std::memory_order_relaxed),
                static_cast<double>(sync_nanoseconds_.load(std::memory_order_relaxed)) / 1e9,
                checkpoints_.load(std::memory_order_relaxed),
                static_cast<double>(checkpoint_nanoseconds_.load(std::memory_order_relaxed)) / 1e9};
}

void WriteQueue::run_group(std::vector<std::unique_ptr<WriteJob>>& jobs) {
  if (try_group(jobs, sync_thread_.joinable() ? Gathering::WhileSyncing : Gathering::Off)) return;
  if (jobs.size() == 1) {
    jobs.front()->fail(ApiError::internal("Internal server error"));
    return;
  }
  // Retry one by one so that the job that failed the group fails alone.
  for (auto& job : jobs) {
    std::vector<std::unique_ptr<WriteJob>> single;
    single.push_back(std::move(job));
    if (!try_group(single, Gathering::Off)) single.front()->fail(ApiError::internal("Internal server error"));
    job = std::move(single.front());
  }
}

bool WriteQueue::try_group(std::vector<std::unique_ptr<WriteJob>>& jobs, Gathering gathering) {
  try {
    lmdb::WriteTxn txn = store_.begin_write();
    WriteContext ctx(store_, txn, *this);
    for (auto& job : jobs) job->run(ctx);
    // While the syncer is busy a commit would only wait for it: the group takes
    // in the requests that arrive meanwhile, so that one commit and one sync
    // carry them all.
    std::vector<std::unique_ptr<WriteJob>> more;
    while (gathering == Gathering::WhileSyncing && jobs.size() < kMaxGathered && gather(more)) {
      for (auto& job : more) {
        job->run(ctx);
        jobs.push_back(std::move(job));
      }
      more.clear();
    }
    ctx.flush_stats();
    const auto started = std::chrono::steady_clock::now();
    store_.commit(txn);
    commit_nanoseconds_.fetch_add(nanoseconds_since(started), std::memory_order_relaxed);
    commits_.fetch_add(1, std::memory_order_relaxed);
    committed_requests_.fetch_add(jobs.size(), std::memory_order_relaxed);
    ctx.publish();
    return true;
  } catch (const std::exception& e) {
    spdlog::error("write transaction of {} request(s) failed: {}", jobs.size(), e.what());
    return false;
  }
}

}  // namespace dynamod
