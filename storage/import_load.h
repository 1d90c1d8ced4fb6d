#pragma once
// Loading imported items into a table: what ImportTable, `--seed` and the
// import of an export share. Records come from protocol/import_data's
// readers; each item is checked as PutItem checks it (keys and their types,
// index keys, sizes, names) and gathered into a chunk. A full chunk is sorted
// by stored key and written by a chain of writer jobs of a few thousand items
// each (each queues the next once committed), so that other writers wait at
// most one job, and each job fills neighbouring B-tree pages instead of
// rewriting pages all over the table; the jobs defer their sync
// (WriteJob::defers_sync), and finish() syncs once. An item that fails its
// checks is an error of the import, counted and logged, as the service counts
// records it cannot write.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "protocol/import_data.h"
#include "storage/bucket_store.h"
#include "storage/item_ops.h"
#include "storage/scope.h"
#include "storage/write_queue.h"

namespace dynamod::ops {

struct ImportCounts {
  std::int64_t processed_items = 0;  // records read: items and errors
  std::int64_t imported_items = 0;
  std::int64_t errors = 0;
  std::int64_t processed_bytes = 0;  // uncompressed bytes of the objects read
};

class ItemLoader final : public imports::ItemSink {
 public:
  // Called for each error: the object's name, the record's line (0: the whole
  // object), the message.
  using ErrorLog = std::function<void(const std::string& object, std::size_t line, const std::string& message)>;

  ItemLoader(Store& store, WriteQueue& writer, Scope scope, std::string table, ErrorLog log);

  // Reads one object (its bytes as stored) into the table.
  void load_object(const std::string& name, std::string_view stored, imports::InputFormat format,
                   imports::Compression compression, const imports::CsvOptions& csv);
  // A JSON array of items (`--seed`'s .json files that are not DYNAMODB_JSON lines).
  void load_item_array(const std::string& name, std::string_view text);
  // Writes what is still gathered, waits for it and syncs the store, so that
  // every item loaded is on disk. Throws an ApiError if the table is gone.
  void finish();
  ~ItemLoader() override;

  const ImportCounts& counts() const { return counts_; }

  void item(Item item, std::size_t line, std::size_t source_bytes) override;
  void error(std::size_t line, std::string message) override;

 private:
  struct Put {
    std::uint32_t object;  // in objects_, for the log of its failure
    std::size_t line;
    PreparedPut put;
  };
  using Chunk = std::vector<Put>;
  using Failures = std::vector<std::pair<const Put*, std::string>>;
  class ChainJob;
  // Sorts the chunk and starts its chain of jobs; the chain started before is
  // waited for first, so reading and preparing the next chunk overlaps the
  // writing of this one.
  void flush();
  void wait_in_flight();

  Store& store_;
  WriteQueue& writer_;
  TablePtr table_;
  ErrorLog log_;
  std::vector<std::string> objects_;  // the objects read, the last one being read
  Chunk chunk_;
  std::size_t chunk_bytes_ = 0;
  std::optional<std::future<Outcome<Failures>>> in_flight_;
  std::shared_ptr<const Chunk> in_flight_chunk_;
  ImportCounts counts_;
};

// The objects of a bucket whose keys start with `prefix` (every object of it
// without one), in key order: their keys and local paths. Throws the
// bucket store's ValidationException for a name it cannot hold.
std::vector<std::pair<std::string, std::filesystem::path>> objects_under(const storage::BucketStore& buckets,
                                                                         const std::string& bucket,
                                                                         const std::string& prefix);

// A file's bytes; a runtime_error naming it if it cannot be read.
std::string read_file(const std::filesystem::path& path);

}  // namespace dynamod::ops
