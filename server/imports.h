#pragma once
// The imports of ImportTable: each runs on a thread of its own, reading every
// object under its S3 prefix from the local bucket store and writing the items
// through storage/import_load (batches, one writer job each). Their
// descriptions are kept in memory for DescribeImport and ListImports (the
// service keeps them 90 days; here, until the server stops). A record that
// cannot be imported is counted in ErrorCount and written, as one JSON line,
// to the import's error log: CloudWatchLogGroupArn names that file.

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "protocol/import_requests.h"
#include "storage/bucket_store.h"
#include "storage/scope.h"
#include "storage/write_queue.h"

namespace dynamod {

class ImportJobs {
 public:
  // The service's quota: 50 imports in progress at a time per account.
  static constexpr std::size_t kMaxInProgress = 50;

  ImportJobs(Store& store, WriteQueue& writer, const storage::BucketStore& buckets, std::filesystem::path log_dir);
  ~ImportJobs();
  ImportJobs(const ImportJobs&) = delete;
  ImportJobs& operator=(const ImportJobs&) = delete;

  // The import an earlier request with this ClientToken started, if any;
  // ImportConflictException when it came with other parameters.
  std::optional<ImportDescription> find_by_token(const Scope& scope, const ImportTableRequest& request);
  // LimitExceededException when kMaxInProgress imports are running.
  void check_limit();
  // Registers the import of a table just created and starts it.
  ImportDescription start(const Scope& scope, const ImportTableRequest& request, const TableSchema& table, double now);

  ImportDescription describe(const Scope& scope, const std::string& import_arn);
  struct Page {
    std::vector<ImportDescription> imports;
    bool more = false;
  };
  Page list(const Scope& scope, const ListImportsRequest& request);

  // Stops the imports in progress (CANCELLED) and waits for their threads.
  void stop();

 private:
  struct Entry {
    std::string ns;
    std::string account;
    ImportDescription description;
    std::string digest;  // the request's, for its ClientToken
  };
  void run(std::string key, Scope scope, ImportTableRequest request);
  void update(const std::string& key, const std::function<void(ImportDescription&)>& change);

  Store& store_;
  WriteQueue& writer_;
  const storage::BucketStore& buckets_;
  const std::filesystem::path log_dir_;
  std::mutex mutex_;
  std::map<std::string, Entry> imports_;  // by ImportArn
  std::vector<std::thread> threads_;
  std::atomic<bool> stopping_{false};
  std::uint32_t sequence_ = 0;
};

}  // namespace dynamod
