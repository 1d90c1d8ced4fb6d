#pragma once
// Runs exports in the background, one after the other on a thread of its
// own: each reads its snapshot in a read transaction (export_files.h), so the
// writer thread is held only by the two small jobs that record an export's
// start (export_ops.h's start_export, in the request) and its end.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "protocol/exports.h"
#include "storage/bucket_store.h"
#include "storage/store.h"
#include "storage/write_queue.h"

namespace dynamod {

class ExportRunner {
 public:
  // `clock`: epoch seconds (the summary's endTime, DescribeExport's EndTime).
  ExportRunner(Store& store, WriteQueue& writer, const storage::BucketStore& buckets, std::function<double()> clock);
  ExportRunner(const ExportRunner&) = delete;
  ExportRunner& operator=(const ExportRunner&) = delete;
  ~ExportRunner();

  const storage::BucketStore& buckets() const { return buckets_; }

  // Queues an IN_PROGRESS export.
  void submit(Export record);
  // Queues the exports a stop left IN_PROGRESS.
  void resume();
  // Abandons the export under way (it stays IN_PROGRESS, and runs again at
  // the next start) and ends the thread. Call before the writer stops.
  void stop();

 private:
  void loop();
  void run(Export record);

  Store& store_;
  WriteQueue& writer_;
  const storage::BucketStore& buckets_;
  std::function<double()> clock_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Export> queue_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace dynamod
