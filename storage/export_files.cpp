#include "storage/export_files.h"

#include <map>
#include <optional>
#include <random>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/attribute_json.h"
#include "protocol/ion_text.h"
#include "protocol/json_writer.h"
#include "protocol/utc_time.h"
#include "storage/gzip_object.h"
#include "storage/item_codec.h"
#include "storage/key_codec.h"
#include "storage/pitr.h"

namespace dynamod::exports {
namespace {

std::string utc(double epoch_seconds) {
  return iso8601_millis(static_cast<std::int64_t>(epoch_seconds * 1000.0 + 0.5)) + "Z";
}

std::int64_t millis(double epoch_seconds) { return static_cast<std::int64_t>(epoch_seconds * 1000.0); }

struct DataFile {
  std::string key;  // from the bucket's root
  std::int64_t item_count = 0;
  std::string md5;
};

// The data files of one export: each a gzip object of whole lines, a new one
// every kItemsPerDataFile items, named like the service's (26 base32 characters).
class DataFiles {
 public:
  DataFiles(const storage::BucketStore& buckets, std::string bucket, std::string folder, std::string extension,
            const std::atomic<bool>& stopping)
      : stopping_(stopping),
        buckets_(buckets),
        bucket_(std::move(bucket)),
        folder_(std::move(folder)),
        extension_(std::move(extension)),
        random_(std::random_device{}()) {}

  void add(std::string_view line) {
    if (!current_ || files_.back().item_count == kItemsPerDataFile) open();
    if ((files_.back().item_count & 1023) == 0 && stopping_) throw Stopped{};
    current_->write(line);
    ++files_.back().item_count;
  }

  std::vector<DataFile> finish() {
    if (!current_) open();  // an empty table still has its (empty) data file
    close();
    return std::move(files_);
  }

 private:
  void open() {
    close();
    static constexpr char kBase32[] = "abcdefghijklmnopqrstuvwxyz234567";
    std::string name;
    for (int i = 0; i < 26; ++i) name.push_back(kBase32[random_() % 32]);
    files_.push_back({folder_ + name + extension_, 0, {}});
    current_.emplace(buckets_.path_of(bucket_, files_.back().key));
  }

  void close() {
    if (!current_) return;
    files_.back().md5 = current_->finish().md5;
    current_.reset();
  }

  const std::atomic<bool>& stopping_;
  const storage::BucketStore& buckets_;
  std::string bucket_;
  std::string folder_;
  std::string extension_;
  std::mt19937_64 random_;
  std::vector<DataFile> files_;
  std::optional<storage::GzipObject> current_;
};

// One line of a FULL export.
class ItemLines {
 public:
  ItemLines(ExportFormat format, const AttributeNames& names) : format_(format), names_(names) {}

  std::string line(std::string_view record) const {
    if (format_ == ExportFormat::Ion) {
      std::string out = "$ion_1_0 {Item:";
      ion::write_item(out, items::decode(record, names_));
      out += "}\n";
      return out;
    }
    JsonWriter out;
    out.begin_object();
    out.key("Item");
    items::write_json(out, record, names_);
    out.end_object();
    std::string text = out.take();
    text.push_back('\n');
    return text;
  }

 private:
  ExportFormat format_;
  const AttributeNames& names_;
};

struct Totals {
  std::int64_t items = 0;
  std::int64_t bytes = 0;  // metered item sizes: what the service bills an export by
};

Totals write_full(const lmdb::TxnBase& txn, Store& store, const TableSchema& table, const Export& record,
                  DataFiles& files) {
  const ItemLines lines(record.parameters.format, store.names());
  Totals totals;
  auto add = [&](std::string_view item) {
    files.add(lines.line(item));
    ++totals.items;
    totals.bytes += items::metered_size(item);
  };
  // The items now, each changed since ExportTime as it was then.
  std::map<std::string, std::optional<std::string>> then =
      pitr::states_before_changes(txn, store.dbs(), table.id, millis(record.export_time));
  const std::string prefix = keys::key_space_prefix(table.id);
  auto cursor = txn.cursor(store.dbs().items);
  for (auto entry = cursor.seek(prefix); entry && entry->first.substr(0, prefix.size()) == prefix;
       entry = cursor.next()) {
    if (!then.empty()) {
      auto it = then.find(std::string(entry->first.substr(prefix.size())));
      if (it != then.end()) {
        if (it->second) add(*it->second);
        then.erase(it);
        continue;
      }
    }
    add(entry->second);
  }
  for (const auto& [key, item] : then) {  // deleted since ExportTime
    if (item) add(*item);
  }
  return totals;
}

// An item's change in an incremental export's period.
struct Change {
  std::optional<std::string> old_image;  // at ExportFromTime
  std::optional<std::string> new_image;  // just before ExportToTime
  bool new_known = false;                // the history recorded the new image (else: the item now)
  std::int64_t last_write_ms = 0;
};

Item key_of(const TableSchema& table, const Item& item) {
  Item key;
  if (const AttributeValue* v = item.find(table.key.partition.name)) key.set(table.key.partition.name, *v);
  if (table.key.sort) {
    if (const AttributeValue* v = item.find(table.key.sort->name)) key.set(table.key.sort->name, *v);
  }
  return key;
}

std::string incremental_line(ExportFormat format, const TableSchema& table, const AttributeNames& names,
                             const Change& change, bool with_old) {
  const std::string& some = change.new_image ? *change.new_image : *change.old_image;
  const Item key = key_of(table, items::decode(some, names));
  const std::int64_t micros = change.last_write_ms * 1000;
  if (format == ExportFormat::Ion) {
    std::string out = "$ion_1_0 {Record:{Keys:";
    ion::write_item(out, key);
    out += ",Metadata:{WriteTimestampMicros:" + std::to_string(micros) + "}";
    if (with_old && change.old_image) {
      out += ",OldImage:";
      ion::write_item(out, items::decode(*change.old_image, names));
    }
    if (change.new_image) {
      out += ",NewImage:";
      ion::write_item(out, items::decode(*change.new_image, names));
    }
    out += "}}\n";
    return out;
  }
  JsonWriter out;
  out.begin_object();
  out.key("Metadata");
  out.begin_object();
  out.key("WriteTimestampMicros");
  out.begin_object();
  out.key("N");
  out.string(std::to_string(micros));
  out.end_object();
  out.end_object();
  out.key("Keys");
  encode_item(out, key);
  if (with_old && change.old_image) {
    out.key("OldImage");
    items::write_json(out, *change.old_image, names);
  }
  if (change.new_image) {
    out.key("NewImage");
    items::write_json(out, *change.new_image, names);
  }
  out.end_object();
  std::string text = out.take();
  text.push_back('\n');
  return text;
}

Totals write_incremental(const lmdb::TxnBase& txn, Store& store, const TableSchema& table, const Export& record,
                         DataFiles& files) {
  const IncrementalExportSpecification& spec = *record.parameters.incremental;
  const std::int64_t from = millis(spec.from);
  const std::int64_t to = millis(spec.to);
  // pitr_log: table id ‖ time (u64 BE) ‖ item key -> state before that millisecond's first change.
  const std::string prefix = keys::key_space_prefix(table.id);
  std::string start = prefix;
  keys::append_u64(start, static_cast<std::uint64_t>(from));
  std::map<std::string, Change> changes;
  auto cursor = txn.cursor(store.dbs().pitr_log);
  for (auto entry = cursor.seek(start); entry && entry->first.substr(0, prefix.size()) == prefix;
       entry = cursor.next()) {
    const auto at = static_cast<std::int64_t>(keys::read_u64(entry->first.substr(prefix.size())));
    std::string_view value = entry->second;
    const std::size_t length = (static_cast<unsigned char>(value[1]) << 8) | static_cast<unsigned char>(value[2]);
    std::string item_key(value.substr(3, length));
    std::optional<std::string> state;
    if (value[0] != 0) state.emplace(value.substr(3 + length));
    if (at < to) {
      auto [it, fresh] = changes.try_emplace(std::move(item_key));
      if (fresh) it->second.old_image = std::move(state);
      it->second.last_write_ms = at;
    } else if (auto it = changes.find(item_key); it != changes.end() && !it->second.new_known) {
      it->second.new_image = std::move(state);
      it->second.new_known = true;
    }
  }
  const bool with_old = spec.view == ExportViewType::NewAndOldImages;
  Totals totals;
  for (auto& [key, change] : changes) {
    if (!change.new_known) {
      if (auto now = txn.get(store.dbs().items, prefix + key)) change.new_image.emplace(*now);
    }
    // Created and deleted again within the period: nothing to tell.
    if (!change.old_image && !change.new_image) continue;
    files.add(incremental_line(record.parameters.format, table, store.names(), change, with_old));
    ++totals.items;
    if (change.new_image) totals.bytes += items::metered_size(*change.new_image);
    if (with_old && change.old_image) totals.bytes += items::metered_size(*change.old_image);
  }
  return totals;
}

void put_with_md5(const storage::BucketStore& buckets, const std::string& bucket, const std::string& key,
                  const std::string& body) {
  buckets.put(buckets.path_of(bucket, key + ".json"), body);
  buckets.put(buckets.path_of(bucket, key + ".md5"), storage::md5_base64(storage::md5_of(body)));
}

std::string manifest_files(const std::vector<DataFile>& files) {
  std::string body;
  for (const DataFile& file : files) {
    JsonWriter out;
    out.begin_object();
    out.key("itemCount");
    out.integer(file.item_count);
    out.key("md5Checksum");
    out.string(storage::md5_base64(file.md5));
    out.key("etag");
    out.string(storage::one_part_etag(file.md5));
    out.key("dataFileS3Key");
    out.string(file.key);
    out.end_object();
    body += out.take();
    body.push_back('\n');
  }
  return body;
}

void nullable(JsonWriter& out, std::string_view name, const std::optional<std::string>& value) {
  out.key(name);
  if (value) {
    out.string(*value);
  } else {
    out.null();
  }
}

std::string manifest_summary(const Export& record, const std::string& files_key, const Totals& totals, double end) {
  const ExportParameters& p = record.parameters;
  const bool incremental = p.type == ExportType::Incremental;
  JsonWriter out;
  out.begin_object();
  out.key("version");
  out.string(incremental ? "2023-08-01" : "2020-06-30");
  out.key("exportArn");
  out.string(export_arn(record));
  out.key("startTime");
  out.string(utc(record.start_time));
  out.key("endTime");
  out.string(utc(end));
  out.key("tableArn");
  out.string(p.table_arn);
  out.key("tableId");
  out.string(record.table_id);
  if (incremental) {
    out.key("exportFromTime");
    out.string(utc(p.incremental->from));
    out.key("exportToTime");
    out.string(utc(p.incremental->to));
  } else {
    out.key("exportTime");
    out.string(utc(record.export_time));
  }
  out.key("s3Bucket");
  out.string(p.s3_bucket);
  nullable(out, "s3Prefix", p.s3_prefix);
  out.key("s3SseAlgorithm");
  out.string(p.s3_sse_algorithm.value_or("AES256"));
  nullable(out, "s3SseKmsKeyId", p.s3_sse_kms_key_id);
  out.key("manifestFilesS3Key");
  out.string(files_key);
  out.key("billedSizeBytes");
  out.integer(totals.bytes);
  out.key("itemCount");
  out.integer(totals.items);
  out.key("outputFormat");
  out.string(export_format_name(p.format));
  if (incremental) {
    out.key("outputView");
    out.string(export_view_type_name(p.incremental->view));
    out.key("exportType");
    out.string(export_type_name(p.type));
  }
  out.end_object();
  return out.take();
}

}  // namespace

void write_export(Store& store, const storage::BucketStore& buckets, const TableSchema& table, Export& record,
                  const std::function<double()>& clock, const std::atomic<bool>& stopping) {
  const ExportParameters& p = record.parameters;
  std::filesystem::path bucket_folder;
  try {
    bucket_folder = buckets.path_of(p.s3_bucket, "");
  } catch (const ApiError&) {  // a bucket name no folder can have is no bucket
    throw ExportFailure{"S3NoSuchBucket", "The specified bucket does not exist"};
  }
  if (!std::filesystem::is_directory(bucket_folder)) {
    throw ExportFailure{"S3NoSuchBucket", "The specified bucket does not exist (bucket " + p.s3_bucket +
                                              ": no folder " + bucket_folder.string() + ")"};
  }
  const std::string folder = export_folder_key(record);
  try {
    buckets.put(buckets.path_of(p.s3_bucket, folder + "_started"), "");
    DataFiles files(buckets, p.s3_bucket, export_data_key(record),
                    p.format == ExportFormat::Ion ? ".ion.gz" : ".json.gz", stopping);
    Totals totals;
    {
      auto txn = store.read();  // the snapshot: everything below reads this one transaction
      totals = p.type == ExportType::Full ? write_full(txn, store, table, record, files)
                                          : write_incremental(txn, store, table, record, files);
    }
    const std::vector<DataFile> written = files.finish();
    put_with_md5(buckets, p.s3_bucket, folder + "manifest-files", manifest_files(written));
    const double end = clock();
    record.manifest = folder + "manifest-summary.json";
    record.item_count = totals.items;
    record.billed_size_bytes = totals.bytes;
    record.end_time = end;
    put_with_md5(buckets, p.s3_bucket, folder + "manifest-summary",
                 manifest_summary(record, folder + "manifest-files.json", totals, end));
  } catch (const ApiError& e) {
    throw ExportFailure{"S3InvalidKey", e.message()};
  } catch (const std::filesystem::filesystem_error& e) {
    throw ExportFailure{"S3AccessDenied", e.what()};
  } catch (const std::runtime_error& e) {
    throw ExportFailure{"S3AccessDenied", e.what()};
  }
}

}  // namespace dynamod::exports
