#pragma once
// WriteQueue: the single writer thread and its group commit.
//
// LMDB allows one write transaction at a time. Requests that write are queued;
// the writer takes every queued job, runs them one after another in one write
// transaction, commits once (one fsync for the whole group), then completes
// each job. Without fsyncs to share (in memory), a request's write can instead
// run on the thread that submits it, when nothing else is writing: that thread
// becomes the writer for the moment, and also takes the requests queued while
// it writes. This spares a wake-up of the writer thread and a hand-over per
// write; on two cores a third runnable thread is what delays requests. A job either applies all of its changes or none:
// operations validate and read first and only then write, so an ApiError never leaves a half-applied change. An
// unexpected failure (an LMDB error) aborts the group, and its jobs are retried one by one so that one bad job cannot
// fail others.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/outcome.h"
#include "storage/store.h"

namespace dynamod {

// What a job sees: the write transaction, the store, and hooks that take
// effect only once the transaction is committed.
class WriteQueue;

class WriteContext {
 public:
  WriteContext(Store& store, lmdb::WriteTxn& txn, WriteQueue& queue) : store_(store), txn_(txn), queue_(queue) {}

  Store& store() { return store_; }
  // For jobs that schedule follow-up work (index builds), after commit.
  WriteQueue& queue() { return queue_; }
  lmdb::WriteTxn& txn() { return txn_; }
  const Databases& dbs() const { return store_.dbs(); }

  // The table as this group sees it: table changes made by earlier jobs of the
  // group are visible here before they reach the catalog view.
  TablePtr find_table(std::string_view ns, std::string_view name) const;
  // Every table of a namespace as this group sees it.
  std::vector<TablePtr> tables_in(std::string_view ns) const;
  void stage_table(TablePtr table);
  void stage_drop(const std::string& ns, const std::string& name);

  // Counts an item change against the live counters of a table or an index
  // (`key_space` is its id).
  void add_stats(const std::shared_ptr<TableStats>& stats, std::uint32_t key_space, std::int64_t items,
                 std::int64_t bytes);
  void add_stats(const Table& table, std::int64_t items, std::int64_t bytes) {
    add_stats(table.stats, table.schema.id, items, bytes);
  }
  // A restore replaces every table and its counters: the changes earlier jobs
  // of the group counted no longer apply to anything.
  void discard_stats() { stats_.clear(); }
  // A reset empties one table or index (`key_space`): the same, for its counters only.
  void discard_stats_of(std::uint32_t key_space);
  // A restore: the tables of the group become `tables`, and no others (the
  // tables staged by earlier jobs of the group go too).
  void replace_tables(const std::vector<TablePtr>& tables);
  // Runs after a successful commit (for in-memory state such as the catalog view).
  void after_commit(std::function<void()> action) { after_commit_.push_back(std::move(action)); }

  // A stream sequence number; the next one is saved with this commit.
  std::uint64_t take_sequence_number() {
    used_sequence_numbers_ = true;
    return store_.take_sequence_number();
  }

  // Writes the changed counters and the newly numbered attribute names into
  // the transaction; then, after commit, publishes them and runs the
  // after-commit actions.
  void flush_stats();
  void publish();

 private:
  struct StatsDelta {
    std::shared_ptr<TableStats> stats;
    std::uint32_t table_id = 0;
    std::int64_t items = 0;
    std::int64_t bytes = 0;
  };
  Store& store_;
  lmdb::WriteTxn& txn_;
  WriteQueue& queue_;
  bool used_sequence_numbers_ = false;
  std::uint32_t names_saved_ = 0;
  std::map<const TableStats*, StatsDelta> stats_;
  std::map<std::pair<std::string, std::string>, TablePtr, std::less<>> staged_tables_;  // nullptr: dropped
  std::vector<std::function<void()>> after_commit_;
};

class WriteJob {
 public:
  virtual ~WriteJob() = default;
  // Runs the job in the group's transaction; an ApiError becomes the job's
  // outcome, any other exception aborts the group.
  virtual void run(WriteContext& ctx) = 0;
  // The group could not commit: the job's outcome is this error.
  virtual void fail(ApiError error) = 0;
  // Hands the outcome to whoever waits (called after commit, once).
  virtual void complete() = 0;
  // True for a job whose commit need not reach the disk before it completes:
  // an import's batch, made durable by the synced commit that records the
  // import's end. Such jobs run in groups of their own, committed with
  // MDB_NOMETASYNC (one fdatasync of the data, none of the meta page: a crash
  // may undo the last of them, never corrupt), and take turns with the other
  // groups, so that neither waits behind the other for more than one group.
  virtual bool defers_sync() const { return false; }
};

class WriteQueue {
 public:
  // Who runs a request's write: always the writer thread (group commit, for
  // fsyncs), or the submitting thread when nothing else is writing.
  enum class RequestWrites { on_writer_thread, on_caller_when_idle };

  explicit WriteQueue(Store& store, RequestWrites request_writes = RequestWrites::on_writer_thread);
  ~WriteQueue();
  WriteQueue(const WriteQueue&) = delete;
  WriteQueue& operator=(const WriteQueue&) = delete;

  // Background work (index builds, maintenance): always on the writer thread,
  // so that its longer groups never hold up a request thread.
  void submit(std::unique_ptr<WriteJob> job);
  // A request's write: see RequestWrites. The job completes before this
  // returns when it ran on the caller.
  void submit_request(std::unique_ptr<WriteJob> job);
  // Finishes every queued job, then stops the thread.
  void stop();

  // Runs fn(WriteContext&) on the writer and waits for its outcome.
  template <typename Fn>
  auto run_sync(Fn fn) -> decltype(fn(std::declval<WriteContext&>()));

  // What the group commit has done since start: how many transactions it
  // committed, how many requests they carried, and the time spent in LMDB's
  // commit (writing the dirty pages and, when durable, syncing them).
  struct Totals {
    std::uint64_t commits = 0;
    std::uint64_t requests = 0;
    double commit_seconds = 0;
  };
  Totals totals() const;

 private:
  void loop();
  // Runs a group in one transaction, then completes its jobs. `synced`:
  // false for a group of jobs that defer their sync.
  void write_group(std::vector<std::unique_ptr<WriteJob>>& jobs, bool synced = true);
  void run_group(std::vector<std::unique_ptr<WriteJob>>& jobs, bool synced);
  bool try_group(std::vector<std::unique_ptr<WriteJob>>& jobs, bool synced);

  Store& store_;
  const RequestWrites request_writes_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::unique_ptr<WriteJob>> requests_;    // taken by whichever thread writes next
  std::vector<std::unique_ptr<WriteJob>> background_;  // taken by the writer thread only
  std::vector<std::unique_ptr<WriteJob>> deferred_;    // jobs that defer their sync (WriteJob::defers_sync)
  bool deferred_turn_ = false;                         // the writer's next group is deferred_'s, if any
  bool writing_ = false;                               // a group is running, on the writer thread or on a request's
  bool stopping_ = false;
  std::atomic<std::uint64_t> commits_{0};
  std::atomic<std::uint64_t> committed_requests_{0};
  std::atomic<std::uint64_t> commit_nanoseconds_{0};
  std::thread thread_;
};

// A job that runs a callable and hands its Outcome to a completion callback.
template <typename R, typename Fn, typename Complete>
class CallableJob final : public WriteJob {
 public:
  CallableJob(Fn fn, Complete complete, bool defers_sync = false)
      : fn_(std::move(fn)), complete_(std::move(complete)), defers_sync_(defers_sync) {}
  void run(WriteContext& ctx) override {
    try {
      outcome_.emplace(fn_(ctx));
    } catch (ApiError& e) {
      outcome_.emplace(std::move(e));
    }
  }
  void fail(ApiError error) override { outcome_.emplace(std::move(error)); }
  void complete() override { complete_(std::move(*outcome_)); }
  bool defers_sync() const override { return defers_sync_; }

 private:
  Fn fn_;
  Complete complete_;
  bool defers_sync_;
  std::optional<Outcome<R>> outcome_;
};

template <typename Fn>
auto WriteQueue::run_sync(Fn fn) -> decltype(fn(std::declval<WriteContext&>())) {
  using R = decltype(fn(std::declval<WriteContext&>()));
  std::mutex m;
  std::condition_variable cv;
  std::optional<Outcome<R>> result;
  auto done = [&](Outcome<R> outcome) {
    std::lock_guard lock(m);
    result.emplace(std::move(outcome));
    cv.notify_one();
  };
  submit(std::make_unique<CallableJob<R, Fn, decltype(done)>>(std::move(fn), done));
  std::unique_lock lock(m);
  cv.wait(lock, [&] { return result.has_value(); });
  return result->take();
}

}  // namespace dynamod
