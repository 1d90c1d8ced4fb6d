#include "storage/import_load.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "storage/item_change.h"

namespace dynamod::ops {
namespace {

// A batch is written in one writer job: at most this many items or bytes of
// records, so that a client write queued behind it waits for about one
// batch (bench/import.py measures how long).
constexpr std::size_t kBatchItems = 500;
constexpr std::size_t kBatchBytes = 2 * 1024 * 1024;

}  // namespace

ItemLoader::ItemLoader(Store& store, WriteQueue& writer, Scope scope, std::string table, ErrorLog log)
    : store_(store), writer_(writer), scope_(std::move(scope)), table_(std::move(table)), log_(std::move(log)) {
  key_attributes_ = resolve_table(store_, scope_, table_)->schema.attribute_definitions;
}

void ItemLoader::load_object(const std::string& name, std::string_view stored, imports::InputFormat format,
                             imports::Compression compression, const imports::CsvOptions& csv) {
  object_ = name;
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
    case imports::InputFormat::Csv: imports::read_csv(text, csv, key_attributes_, *this); break;
    case imports::InputFormat::Ion: imports::read_ion(text, *this); break;
  }
}

void ItemLoader::load_item_array(const std::string& name, std::string_view text) {
  object_ = name;
  counts_.processed_bytes += static_cast<std::int64_t>(text.size());
  imports::read_item_array(text, *this);
}

void ItemLoader::item(Item item, std::size_t line, std::size_t) {
  ++counts_.processed_items;
  PutItemRequest request;
  request.write.table_name = table_;
  request.item = std::move(item);
  try {
    PreparedPut put = prepare_put_item(store_, scope_, std::move(request));
    batch_bytes_ += put.record.size();
    batch_.emplace_back(line, std::move(put));
  } catch (const ApiError& e) {
    if (e.code() == ErrorCode::ResourceNotFoundException) throw;  // the table went away: the import fails
    ++counts_.errors;
    log_(object_, line, e.message());
    return;
  }
  if (batch_.size() >= kBatchItems || batch_bytes_ >= kBatchBytes) flush();
}

void ItemLoader::error(std::size_t line, std::string message) {
  ++counts_.processed_items;
  ++counts_.errors;
  log_(object_, line, message);
}

void ItemLoader::finish() {
  flush();
  wait_in_flight();
}

ItemLoader::~ItemLoader() {
  // A job still queued reads the batch it holds; let it finish (an import
  // ended by an error must not leave it behind).
  if (in_flight_) in_flight_->wait();
}

void ItemLoader::wait_in_flight() {
  if (!in_flight_) return;
  Outcome<Failures> outcome = in_flight_->get();
  in_flight_.reset();
  const std::size_t written = in_flight_batch_->size();
  const std::string object = object_of_in_flight_;
  in_flight_batch_.reset();
  Failures failures = outcome.take();  // an ApiError (the table is gone) ends the import
  counts_.imported_items += static_cast<std::int64_t>(written - failures.size());
  counts_.errors += static_cast<std::int64_t>(failures.size());
  for (const auto& [line, message] : failures) log_(object, line, message);
}

void ItemLoader::flush() {
  if (batch_.empty()) return;
  wait_in_flight();
  auto batch = std::make_shared<const Batch>(std::move(batch_));
  batch_ = Batch{};
  batch_bytes_ = 0;
  // Each put is planned (its item collection checked) before it is applied,
  // so one that fails leaves nothing half-written; the job may run twice
  // (the writer retries a failed group job by job), so it only reads the batch.
  auto write = [batch](WriteContext& ctx) {
    Failures failed;
    CollectionSizes sizes;
    for (const auto& [line, put] : *batch) {
      try {
        PlannedWrite planned = plan_put_item(ctx, put, sizes);
        apply_write(ctx, planned);
      } catch (const ApiError& e) {
        if (e.code() == ErrorCode::ResourceNotFoundException) throw;
        failed.emplace_back(line, e.message());
      }
    }
    return failed;
  };
  auto promise = std::make_shared<std::promise<Outcome<Failures>>>();
  in_flight_ = promise->get_future();
  in_flight_batch_ = batch;
  object_of_in_flight_ = object_;
  auto done = [promise](Outcome<Failures> outcome) { promise->set_value(std::move(outcome)); };
  writer_.submit(std::make_unique<CallableJob<Failures, decltype(write), decltype(done)>>(std::move(write), done));
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
