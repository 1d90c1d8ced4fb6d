#include "storage/import_load.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

#include "storage/item_change.h"

namespace dynamod::ops {
namespace {

// A chunk is this many bytes of encoded records (about 40,000 items of 200
// bytes): the more items one sort covers, the fewer pages each job dirties.
constexpr std::size_t kChunkBytes = 8 * 1024 * 1024;
// A job writes at most this many items or bytes of records, so that a client
// write queued behind it waits for about one job (bench/import.py measures
// how long). In a large table a chunk's keys are sparse, a page or more
// apart, so a job's commit writes about one page per item: 2,048 items kept
// PutItem's p99 during a 1,000,000-item import at 77 ms where 4,096 gave 132.
constexpr std::size_t kJobItems = 2048;
constexpr std::size_t kJobBytes = 2 * 1024 * 1024;

}  // namespace

// One job of a chunk's chain: writes the puts from `begin` (sorted by key), at
// most kJobItems or kJobBytes of them, and once committed queues the next job
// of the chain, or hands the chunk's failures to the loader. Each put is
// planned (its item collection checked) before it is applied, so one that fails
// leaves nothing half-written; the job may run twice (the writer retries a
// failed group job by job), so it only reads the chunk.
class ItemLoader::ChainJob final : public WriteJob {
 public:
  struct Chain {
    std::shared_ptr<const Chunk> chunk;
    std::vector<std::uint32_t> order;  // the chunk's puts in key order
    Failures failures;
    std::promise<Outcome<Failures>> done;
  };

  ChainJob(WriteQueue& writer, std::shared_ptr<Chain> chain, std::size_t begin)
      : writer_(writer), chain_(std::move(chain)), begin_(begin) {
    const Chunk& chunk = *chain_->chunk;
    std::size_t bytes = 0;
    end_ = begin_;
    while (end_ < chunk.size() && end_ - begin_ < kJobItems && bytes < kJobBytes) {
      bytes += chunk[chain_->order[end_]].put.record.size();
      ++end_;
    }
  }

  void run(WriteContext& ctx) override {
    failed_.clear();
    error_.reset();
    const Chunk& chunk = *chain_->chunk;
    CollectionSizes sizes;
    try {
      for (std::size_t i = begin_; i < end_; ++i) {
        const Put& put = chunk[chain_->order[i]];
        try {
          PlannedWrite planned = plan_put_item(ctx, put.put, sizes);
          apply_write(ctx, planned);
        } catch (const ApiError& e) {
          if (e.code() == ErrorCode::ResourceNotFoundException) throw;  // the table is gone
          failed_.emplace_back(&put, e.message());
        }
      }
    } catch (ApiError& e) {
      error_.emplace(std::move(e));
    }
  }
  void fail(ApiError error) override { error_.emplace(std::move(error)); }
  void complete() override {
    if (error_) {
      chain_->done.set_value(std::move(*error_));
      return;
    }
    std::move(failed_.begin(), failed_.end(), std::back_inserter(chain_->failures));
    if (end_ < chain_->chunk->size()) {
      writer_.submit(std::make_unique<ChainJob>(writer_, chain_, end_));
    } else {
      chain_->done.set_value(std::move(chain_->failures));
    }
  }
  bool defers_sync() const override { return true; }

 private:
  WriteQueue& writer_;
  std::shared_ptr<Chain> chain_;
  std::size_t begin_;
  std::size_t end_;
  Failures failed_;
  std::optional<ApiError> error_;
};

ItemLoader::ItemLoader(Store& store, WriteQueue& writer, Scope scope, std::string table, ErrorLog log)
    : store_(store), writer_(writer), log_(std::move(log)) {
  // Not resolve_table: ImportTable's table is CREATING while it is loaded.
  std::optional<QualifiedName> qualified = scope.qualify(table);
  table_ = qualified ? store_.catalog().find(qualified->ns, qualified->name) : nullptr;
  if (!table_) throw ApiError::resource_not_found();
}

void ItemLoader::load_object(const std::string& name, std::string_view stored, imports::InputFormat format,
                             imports::Compression compression, const imports::CsvOptions& csv) {
  objects_.push_back(name);
  std::string inflated;
  std::string_view text = stored;
  if (compression != imports::Compression::None) {
    std::string why;
    std::optional<std::string> out = imports::decompress(stored, compression, why);
    if (!out) {
      error(0, why);
      return;
    }
    inflated = std::move(*out);
    text = inflated;
  }
  counts_.processed_bytes += static_cast<std::int64_t>(text.size());
  switch (format) {
    case imports::InputFormat::DynamoDbJson: imports::read_dynamodb_json(text, *this); break;
    case imports::InputFormat::Csv: imports::read_csv(text, csv, table_->schema.attribute_definitions, *this); break;
    case imports::InputFormat::Ion: imports::read_ion(text, *this); break;
  }
}

void ItemLoader::load_item_array(const std::string& name, std::string_view text) {
  objects_.push_back(name);
  counts_.processed_bytes += static_cast<std::int64_t>(text.size());
  imports::read_item_array(text, *this);
}

void ItemLoader::item(Item item, std::size_t line, std::size_t) {
  ++counts_.processed_items;
  try {
    PreparedPut put = prepare_loaded_put(store_, table_, std::move(item));
    chunk_bytes_ += put.record.size();
    chunk_.push_back(Put{static_cast<std::uint32_t>(objects_.size() - 1), line, std::move(put)});
  } catch (const ApiError& e) {
    ++counts_.errors;
    log_(objects_.back(), line, e.message());
    return;
  }
  if (chunk_bytes_ >= kChunkBytes) flush();
}

void ItemLoader::error(std::size_t line, std::string message) {
  ++counts_.processed_items;
  ++counts_.errors;
  log_(objects_.back(), line, message);
}

void ItemLoader::finish() {
  flush();
  wait_in_flight();
  // The jobs deferred their sync: one for all of them (none in memory, or with
  // --durability none, whose commits are never synced).
  unsigned flags = 0;
  lmdb::check(mdb_env_get_flags(store_.env().get(), &flags), "mdb_env_get_flags");
  if ((flags & MDB_NOSYNC) == 0) lmdb::check(mdb_env_sync(store_.env().get(), 1), "mdb_env_sync");
}

ItemLoader::~ItemLoader() {
  // A chain still running reads the chunk it holds; let it finish (an import
  // ended by an error must not leave it behind).
  if (in_flight_) in_flight_->wait();
}

void ItemLoader::wait_in_flight() {
  if (!in_flight_) return;
  Outcome<Failures> outcome = in_flight_->get();
  in_flight_.reset();
  std::shared_ptr<const Chunk> chunk = std::move(in_flight_chunk_);
  Failures failures = outcome.take();  // an ApiError (the table is gone) ends the import
  counts_.imported_items += static_cast<std::int64_t>(chunk->size() - failures.size());
  counts_.errors += static_cast<std::int64_t>(failures.size());
  for (const auto& [put, message] : failures) log_(objects_[put->object], put->line, message);
}

namespace {

// The puts of a chunk in stored-key order; of two with one key, the one read
// last comes last, as in the source. Sorting the puts themselves moved large
// objects and compared keys through a pointer each (a cache miss a
// comparison: a quarter of an import's time); this sorts 12-byte entries by
// the 8 bytes after the table id (the partition hash's first, the same table
// id leading every key), reading whole keys only on a tie.
std::vector<std::uint32_t> key_order(const std::vector<const std::string*>& keys) {
  struct Entry {
    std::uint64_t prefix;
    std::uint32_t index;
  };
  constexpr std::size_t kSkip = 4;  // the table id
  std::vector<Entry> entries(keys.size());
  for (std::uint32_t i = 0; i < keys.size(); ++i) {
    std::uint64_t prefix = 0;
    const std::string& key = *keys[i];
    for (std::size_t b = kSkip; b < kSkip + 8; ++b) {
      prefix = (prefix << 8) | (b < key.size() ? static_cast<unsigned char>(key[b]) : 0u);
    }
    entries[i] = Entry{prefix, i};
  }
  std::sort(entries.begin(), entries.end(), [&keys](const Entry& a, const Entry& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    const int c = keys[a.index]->compare(*keys[b.index]);
    return c != 0 ? c < 0 : a.index < b.index;
  });
  std::vector<std::uint32_t> order(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) order[i] = entries[i].index;
  return order;
}

}  // namespace

void ItemLoader::flush() {
  if (chunk_.empty()) return;
  auto chain = std::make_shared<ChainJob::Chain>();
  {
    std::vector<const std::string*> keys;
    keys.reserve(chunk_.size());
    for (const Put& put : chunk_) keys.push_back(&put.put.write.location.stored_key);
    chain->order = key_order(keys);
  }
  wait_in_flight();
  chain->chunk = std::make_shared<const Chunk>(std::move(chunk_));
  chunk_ = Chunk{};
  chunk_bytes_ = 0;
  in_flight_ = chain->done.get_future();
  in_flight_chunk_ = chain->chunk;
  writer_.submit(std::make_unique<ChainJob>(writer_, chain, 0));
}

std::vector<std::pair<std::string, std::filesystem::path>> objects_under(const storage::BucketStore& buckets,
                                                                         const std::string& bucket,
                                                                         const std::string& prefix) {
  namespace fs = std::filesystem;
  const fs::path root = buckets.path_of(bucket, "");
  std::vector<std::pair<std::string, fs::path>> objects;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return objects;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    std::string key = it->path().lexically_relative(root).generic_string();
    // An object the bucket store is still writing (storage/bucket_store.h).
    if (key.size() >= 8 && key.ends_with(".partial")) continue;
    if (key.rfind(prefix, 0) == 0) objects.emplace_back(std::move(key), it->path());
  }
  if (ec) throw std::runtime_error("cannot list " + root.string() + ": " + ec.message());
  std::sort(objects.begin(), objects.end());
  return objects;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream bytes;
  bytes << file.rdbuf();
  if (file.bad()) throw std::runtime_error("cannot read " + path.string());
  return std::move(bytes).str();
}

}  // namespace dynamod::ops
