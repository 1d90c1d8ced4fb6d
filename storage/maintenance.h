#pragma once
// Background upkeep, run as writer jobs on a timer: the Time to Live sweeper
// (deletes expired items, with their index entries and a REMOVE stream record
// by the service's identity, and no capacity charged), the trimming of stream
// records older than 24 hours, the purge of expired idempotency tokens, of
// SYSTEM backups past their 35 days and of point-in-time recovery's history
// older than its recovery period, and saving the ledger's recent usage.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "storage/ledger.h"
#include "storage/write_queue.h"

namespace dynamod {

class Maintenance {
 public:
  Maintenance(Store& store, WriteQueue& queue, Ledger& ledger, std::chrono::milliseconds interval);
  ~Maintenance();
  Maintenance(const Maintenance&) = delete;
  Maintenance& operator=(const Maintenance&) = delete;

  void stop();

  // One round of upkeep, in the caller's write transaction (the timer's job
  // calls it; tests call it directly).
  void run_once(WriteContext& ctx);

 private:
  class Job;
  void loop();
  void sweep_table(WriteContext& ctx, const Table& table);
  void trim_streams(WriteContext& ctx);
  void purge_tokens(WriteContext& ctx);

  Store& store_;
  WriteQueue& queue_;
  Ledger& ledger_;
  std::chrono::milliseconds interval_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::atomic<bool> job_queued_{false};
  // Where each table's sweep goes on (only the writer thread touches it).
  std::map<std::uint32_t, std::string> sweep_position_;
  std::thread thread_;
};

}  // namespace dynamod
