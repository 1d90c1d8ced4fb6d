#include "server/imports.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>

#include "protocol/json_writer.h"
#include "storage/background_priority.h"
#include "storage/import_load.h"

namespace dynamod {
namespace {

// Thrown out of a batch when the server stops during an import.
struct ImportStopped {};

ArnContext arn_context(const ImportDescription& d, const std::string& account) { return {d.region, account}; }

// The service's form: creation time in ms (14 digits), '-', 8 hex digits.
std::string make_import_id(double now, std::uint32_t sequence) {
  auto ms = static_cast<long long>(now * 1000.0 + 0.5);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%014lld-%08x", ms, (sequence * 2654435761u) ^ static_cast<std::uint32_t>(ms));
  return buffer;
}

double epoch_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

ImportJobs::ImportJobs(Store& store, WriteQueue& writer, const storage::BucketStore& buckets,
                       std::filesystem::path log_dir)
    : store_(store), writer_(writer), buckets_(buckets), log_dir_(std::move(log_dir)), records_(writer) {
  std::vector<ImportRecord> kept =
      writer_.run_sync([this](WriteContext& ctx) { return ops::recover_imports(ctx, records_, epoch_seconds()); });
  for (ImportRecord& record : kept) {
    std::string key = import_arn(arn_context(record.description, record.account), record.description);
    imports_.emplace(std::move(key), std::move(record));
  }
}

ImportJobs::~ImportJobs() { stop(); }

void ImportJobs::stop() {
  stopping_ = true;
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    threads.swap(threads_);
  }
  for (auto& t : threads) t.join();
}

std::optional<ImportDescription> ImportJobs::find_by_token(const Scope& scope, const ImportTableRequest& request) {
  if (!request.client_token) return std::nullopt;
  std::lock_guard lock(mutex_);
  for (const auto& [arn, entry] : imports_) {
    if (entry.ns != scope.ns() || entry.account != scope.account_id) continue;
    if (entry.description.client_token != request.client_token) continue;
    if (entry.digest != request.digest()) {
      throw ApiError(ErrorCode::ImportConflictException,
                     "There was a conflict when importing from the specified S3 source. This can occur when the "
                     "current import conflicts with a previous import request that had the same client token.");
    }
    return entry.description;
  }
  return std::nullopt;
}

void ImportJobs::check_limit() {
  std::lock_guard lock(mutex_);
  std::size_t running = 0;
  for (const auto& [arn, entry] : imports_) running += entry.description.status == ImportStatus::InProgress;
  if (running >= kMaxInProgress) {
    throw ApiError::limit_exceeded("Subscriber limit exceeded: Only " + std::to_string(kMaxInProgress) +
                                   " concurrent import table operations are allowed");
  }
}

ImportRecord ImportJobs::prepare(const Scope& scope, const ImportTableRequest& request, double now) {
  ImportRecord record;
  record.ns = std::string(scope.ns());
  record.account = scope.account_id;
  record.digest = request.digest();
  ImportDescription& d = record.description;
  d.table_name = request.table.table_name.value_or("");  // present: validate_create_table checked it
  d.region = scope.region;
  d.client_token = request.client_token;
  d.source = request.source;
  d.format = request.format;
  d.compression = request.compression.value_or(imports::Compression::None);
  d.format_options_json = request.format_options_json;
  d.table_parameters_json = request.table_parameters_json;
  d.start_time = now;
  std::lock_guard lock(mutex_);
  d.id = make_import_id(now, ++sequence_);
  d.error_log = (log_dir_ / (d.table_name + "-" + d.id + ".log")).string();
  return record;
}

ops::TableDescription ImportJobs::begin_in(WriteContext& ctx, const Scope& scope, TableSchema schema, double now,
                                           std::string table_uuid, ImportRecord& record) const {
  return ops::start_import(ctx, records_, scope, std::move(schema), now, std::move(table_uuid), record);
}

ImportDescription ImportJobs::start(ImportRecord record, const Scope& scope, const ImportTableRequest& request) {
  ImportDescription d = record.description;
  std::string key = import_arn(arn_context(d, scope.account_id), d);
  std::lock_guard lock(mutex_);
  imports_[key] = std::move(record);
  threads_.emplace_back([this, key, scope, request] { run(key, scope, request); });
  return d;
}

void ImportJobs::update(const std::string& key, const std::function<void(ImportDescription&)>& change) {
  std::lock_guard lock(mutex_);
  change(imports_.at(key).description);
}

void ImportJobs::finish(const std::string& key, const std::function<void(ImportDescription&)>& change) {
  ImportRecord record;
  {
    std::lock_guard lock(mutex_);
    record = imports_.at(key);
  }
  change(record.description);
  record.description.end_time = epoch_seconds();
  writer_.run_sync([this, &record](WriteContext& ctx) {
    ops::finish_import(ctx, records_, record);
    return true;
  });
  std::lock_guard lock(mutex_);
  imports_.at(key) = std::move(record);
}

void ImportJobs::run(std::string key, Scope scope, ImportTableRequest request) {
  // Reading and preparing items is background work that can keep a core busy
  // for minutes: at a lower priority, the I/O threads and the writer get the
  // cores first on a busy machine (bench/import.py measures PutItem meanwhile).
  lower_this_thread_priority("import");
  ImportDescription d;
  {
    std::lock_guard lock(mutex_);
    d = imports_.at(key).description;
  }
  std::error_code ec;
  std::filesystem::create_directories(log_dir_, ec);
  std::ofstream log(d.error_log, std::ios::trunc);
  const std::string location = "s3://" + d.source.bucket + "/";
  auto log_error = [&](const std::string& object, std::size_t line, const std::string& message) {
    JsonWriter entry;
    entry.begin_object();
    entry.key("object");
    entry.string(location + object);
    entry.key("line");
    entry.unsigned_integer(line);
    entry.key("message");
    entry.string(message);
    entry.end_object();
    log << entry.str() << '\n';
  };
  auto publish = [&](const ops::ImportCounts& counts) {
    update(key, [&](ImportDescription& out) {
      out.processed_items = counts.processed_items;
      out.imported_items = counts.imported_items;
      out.errors = counts.errors;
      out.processed_size_bytes = counts.processed_bytes;
    });
  };
  std::optional<ops::ItemLoader> loader;
  std::function<void(ImportDescription&)> outcome;  // FAILED or CANCELLED, with why
  try {
    loader.emplace(store_, writer_, scope, d.table_name, log_error);
    const std::string prefix = d.source.key_prefix.value_or("");
    if (!std::filesystem::is_directory(buckets_.path_of(d.source.bucket, ""))) {
      throw ApiError(ErrorCode::ValidationException, "The specified bucket does not exist: " + d.source.bucket);
    }
    const imports::CsvOptions csv = request.csv.value_or(imports::CsvOptions{});
    for (const auto& [object, path] : ops::objects_under(buckets_, d.source.bucket, prefix)) {
      if (stopping_) throw ImportStopped{};
      loader->load_object(object, ops::read_file(path), d.format, d.compression, csv);
      publish(loader->counts());
    }
    loader->finish();
    publish(loader->counts());
    log.flush();
    // DescribeImport says COMPLETED only once the end is committed (a synced
    // commit, after finish() synced the items): a crash before leaves the import
    // IN_PROGRESS on disk, and the next start makes it FAILED.
    finish(key, [](ImportDescription& out) { out.status = ImportStatus::Completed; });
    spdlog::info("import {} into {}: {} items imported, {} errors", d.id, d.table_name, loader->counts().imported_items,
                 loader->counts().errors);
    return;
  } catch (const ImportStopped&) {
    return;  // stays IN_PROGRESS on disk: FAILED at the next start
  } catch (const ApiError& e) {
    const bool gone = e.code() == ErrorCode::ResourceNotFoundException;
    outcome = [gone, code = std::string(error_type_name(e.code())), message = e.message()](ImportDescription& out) {
      out.status = gone ? ImportStatus::Cancelled : ImportStatus::Failed;
      if (!gone) {
        out.failure_code = code;
        out.failure_message = message;
      }
    };
  } catch (const std::exception& e) {
    outcome = [message = std::string(e.what())](ImportDescription& out) {
      out.status = ImportStatus::Failed;
      out.failure_code = "InternalFailure";
      out.failure_message = message;
    };
  }
  if (loader) {
    publish(loader->counts());
    loader.reset();  // waits for the chunk being written
  }
  finish(key, outcome);
  spdlog::warn("import {} into {} ended early", d.id, d.table_name);
}

ImportDescription ImportJobs::describe(const Scope& scope, const std::string& import_arn) {
  std::lock_guard lock(mutex_);
  auto it = imports_.find(import_arn);
  if (it == imports_.end() || it->second.ns != scope.ns() || it->second.account != scope.account_id) {
    throw ApiError(ErrorCode::ImportNotFoundException, "Import not found: " + import_arn);
  }
  return it->second.description;
}

ImportJobs::Page ImportJobs::list(const Scope& scope, const ListImportsRequest& request) {
  std::optional<std::string> after;
  if (request.next_token) {
    after = import_after_token(*request.next_token);
    if (!after) throw ApiError::validation("Invalid NextToken");
  }
  std::lock_guard lock(mutex_);
  // Oldest first: ids begin with their start time, and the map is by ARN, so
  // gather and order by (start, id).
  std::vector<const ImportRecord*> matching;
  for (const auto& [arn, entry] : imports_) {
    if (entry.ns != scope.ns() || entry.account != scope.account_id) continue;
    if (request.table_arn &&
        *request.table_arn != table_arn(arn_context(entry.description, entry.account), entry.description.table_name)) {
      continue;
    }
    matching.push_back(&entry);
  }
  std::sort(matching.begin(), matching.end(),
            [](const ImportRecord* a, const ImportRecord* b) { return a->description.id < b->description.id; });
  Page page;
  bool started = !after;
  for (const ImportRecord* entry : matching) {
    if (!started) {
      started = import_arn(arn_context(entry->description, entry->account), entry->description) == *after;
      continue;
    }
    if (page.imports.size() == static_cast<std::size_t>(request.page_size)) {
      page.more = true;
      break;
    }
    page.imports.push_back(entry->description);
  }
  return page;
}

}  // namespace dynamod
