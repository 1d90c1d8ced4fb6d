#pragma once
// The imports of ImportTable: each runs on a thread of its own, reading every
// object under its S3 prefix from the local bucket store and writing the items
// through storage/import_load (sorted chunks, written by chains of writer
// jobs). Their records are kept in LMDB (storage/import_ops.h: the table is
// CREATING until the import ends, and an import a stop interrupted is FAILED
// at the next start) and in memory, where DescribeImport and ListImports read
// them and the import's thread updates its counts as it goes (the service
// keeps descriptions 90 days; here, until the data directory goes). A record
// that cannot be imported is counted in ErrorCount and written, as one JSON
// line, to the import's error log: CloudWatchLogGroupArn names that file.

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "protocol/import_records.h"
#include "protocol/import_requests.h"
#include "storage/bucket_store.h"
#include "storage/import_ops.h"
#include "storage/scope.h"
#include "storage/write_queue.h"

namespace dynamod {

class ImportJobs {
 public:
  // The service's quota: 50 imports in progress at a time per account.
  static constexpr std::size_t kMaxInProgress = 50;

  // Loads the imports kept, failing those a stop interrupted (a writer job).
  ImportJobs(Store& store, WriteQueue& writer, const storage::BucketStore& buckets, std::filesystem::path log_dir);
  ~ImportJobs();
  ImportJobs(const ImportJobs&) = delete;
  ImportJobs& operator=(const ImportJobs&) = delete;

  // The import an earlier request with this ClientToken started, if any;
  // ImportConflictException when it came with other parameters.
  std::optional<ImportDescription> find_by_token(const Scope& scope, const ImportTableRequest& request);
  // LimitExceededException when kMaxInProgress imports are running.
  void check_limit();
  // A new import's record (its id and error log; IN_PROGRESS), for
  // begin_in() to record with its table.
  ImportRecord prepare(const Scope& scope, const ImportTableRequest& request, double now);
  // ImportTable's writer job: creates the CREATING table and records the import.
  ops::TableDescription begin_in(WriteContext& ctx, const Scope& scope, TableSchema schema, double now,
                                 std::string table_uuid, ImportRecord& record) const;
  // Once begin_in() committed: registers the import and starts its thread.
  ImportDescription start(ImportRecord record, const Scope& scope, const ImportTableRequest& request);

  ImportDescription describe(const Scope& scope, const std::string& import_arn);
  struct Page {
    std::vector<ImportDescription> imports;
    bool more = false;
  };
  Page list(const Scope& scope, const ListImportsRequest& request);

  // Stops the imports in progress and waits for their threads. They stay
  // IN_PROGRESS on disk: the next start makes them FAILED.
  void stop();

 private:
  void run(std::string key, Scope scope, ImportTableRequest request);
  void update(const std::string& key, const std::function<void(ImportDescription&)>& change);
  // Records the import's end in a synced commit (its table made ACTIVE or
  // dropped), then in memory.
  void finish(const std::string& key, const std::function<void(ImportDescription&)>& change);

  Store& store_;
  WriteQueue& writer_;
  const storage::BucketStore& buckets_;
  const std::filesystem::path log_dir_;
  const ops::ImportRecords records_;
  std::mutex mutex_;
  std::map<std::string, ImportRecord> imports_;  // by ImportArn
  std::vector<std::thread> threads_;
  std::atomic<bool> stopping_{false};
  std::uint32_t sequence_ = 0;
};

}  // namespace dynamod
