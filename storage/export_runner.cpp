#include "storage/export_runner.h"

#include <spdlog/spdlog.h>

#include "protocol/table_requests.h"
#include "storage/background_priority.h"
#include "storage/export_files.h"
#include "storage/export_ops.h"

namespace dynamod {

ExportRunner::ExportRunner(Store& store, WriteQueue& writer, const storage::BucketStore& buckets,
                           std::function<double()> clock)
    : store_(store), writer_(writer), buckets_(buckets), clock_(std::move(clock)), thread_([this] { loop(); }) {}

ExportRunner::~ExportRunner() { stop(); }

void ExportRunner::submit(Export record) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(record));
  }
  wake_.notify_one();
}

void ExportRunner::resume() {
  for (Export& e : ops::unfinished_exports(store_)) submit(std::move(e));
}

void ExportRunner::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void ExportRunner::loop() {
  // An export renders, compresses and hashes for seconds: below the threads
  // that answer requests (PutItem's p99 during an export, bench/export.py).
  lower_this_thread_priority("export");
  for (;;) {
    Export next;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      next = std::move(queue_.front());
      queue_.pop_front();
    }
    run(std::move(next));
  }
}

void ExportRunner::run(Export record) {
  // The table as it is now: dropped (or dropped and created again) since the
  // export began, there is nothing left to export.
  std::optional<TableArn> arn = parse_table_arn(record.parameters.table_arn);
  TablePtr table = arn ? store_.catalog().find(record.ns, arn->name) : nullptr;
  try {
    if (!table || table->schema.table_id != record.table_id) {
      throw exports::ExportFailure{"TableNotFound", "Table not found: " + record.parameters.table_arn};
    }
    exports::write_export(store_, buckets_, table->schema, record, clock_, stopping_);
    record.status = ExportStatus::Completed;
  } catch (const exports::Stopped&) {
    return;  // stays IN_PROGRESS: resumed at the next start
  } catch (const exports::ExportFailure& failure) {
    record.status = ExportStatus::Failed;
    record.failure_code = failure.code;
    record.failure_message = failure.message;
    record.end_time = clock_();
  } catch (const std::exception& e) {
    spdlog::error("export {} failed: {}", export_arn(record), e.what());
    record.status = ExportStatus::Failed;
    record.failure_code = "UNKNOWN";
    record.failure_message = "Internal error";
    record.end_time = clock_();
  }
  writer_.run_sync([&record](WriteContext& ctx) {
    ops::finish_export(ctx, record);
    return true;
  });
}

}  // namespace dynamod
