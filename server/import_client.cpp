#include "server/import_client.h"

#include <simdjson.h>
#include <boost/program_options.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "protocol/attribute_json.h"
#include "protocol/import_data.h"
#include "protocol/json_writer.h"
#include "server/dynamo_client.h"
#include "storage/import_load.h"

namespace dynamod {
namespace {

namespace fs = std::filesystem;
namespace po = boost::program_options;
using imports::Compression;
using imports::InputFormat;
using simdjson::dom::element;

constexpr const char* kUsage =
    "dynamod import: load items into a table of a running dynamod (BatchWriteItem)\n\n"
    "  dynamod import PATH [--table NAME] [--create-from DescribeTable.json]\n\n"
    "PATH is an export folder (its AWSDynamoDB/<id>/data/*.json.gz files are read) or one data file:\n"
    "NAME.json (DYNAMODB_JSON lines, or a JSON array of items), NAME.csv (a header line; keys typed by\n"
    "the table), each also as .gz or .zst. --create-from creates the table first from a DescribeTable\n"
    "answer ({\"Table\": {...}}); the table name is then its own unless --table says otherwise.\n"
    "Requests are signed with AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY (placeholders otherwise) for\n"
    "AWS_REGION (default us-east-1).\n\nOptions";

struct DataFile {
  fs::path path;
  InputFormat format;
  Compression compression;
};

std::optional<DataFile> classify(const fs::path& path) {
  std::string name = path.filename().string();
  Compression compression = Compression::None;
  if (name.ends_with(".gz")) {
    compression = Compression::Gzip;
    name.resize(name.size() - 3);
  } else if (name.ends_with(".zst")) {
    compression = Compression::Zstd;
    name.resize(name.size() - 4);
  }
  if (name.ends_with(".json")) return DataFile{path, InputFormat::DynamoDbJson, compression};
  if (name.ends_with(".csv")) return DataFile{path, InputFormat::Csv, compression};
  return std::nullopt;
}

// An export folder's data files (any folder holding `data/` folders), or the one file given.
std::vector<DataFile> data_files(const fs::path& path) {
  std::vector<DataFile> files;
  if (fs::is_regular_file(path)) {
    if (auto f = classify(path)) return {*f};
    throw std::runtime_error(path.string() + ": not a .json, .csv, .json.gz, .csv.gz, .json.zst or .csv.zst file");
  }
  if (!fs::is_directory(path)) throw std::runtime_error(path.string() + ": no such file or folder");
  for (const auto& entry : fs::recursive_directory_iterator(path)) {
    if (!entry.is_regular_file() || entry.path().parent_path().filename() != "data") continue;
    if (auto f = classify(entry.path())) files.push_back(*f);
  }
  std::sort(files.begin(), files.end(), [](const DataFile& a, const DataFile& b) { return a.path < b.path; });
  if (files.empty()) throw std::runtime_error(path.string() + ": no data/*.json.gz files (an export folder?)");
  return files;
}

void copy_member(JsonWriter& out, element from, const char* name) {
  element v;
  if (from[name].get(v) != simdjson::SUCCESS) return;
  out.key(name);
  out.raw(simdjson::to_string(v));
}

void write_throughput(JsonWriter& out, element from) {
  element t;
  if (from["ProvisionedThroughput"].get(t) != simdjson::SUCCESS) return;
  out.key("ProvisionedThroughput");
  out.begin_object();
  for (const char* units : {"ReadCapacityUnits", "WriteCapacityUnits"}) {
    std::int64_t n = 0;
    if (t[units].get(n) == simdjson::SUCCESS) {
      out.key(units);
      out.integer(n);
    }
  }
  out.end_object();
}

// CreateTable's request for the table a DescribeTable answer describes.
std::string create_table_request(const std::string& describe_json, const std::string& table_name) {
  simdjson::dom::parser parser;
  element root = parser.parse(describe_json);
  element table;
  if (root["Table"].get(table) != simdjson::SUCCESS) table = root;
  std::string_view billing = "PROVISIONED";
  element summary;
  // A table that was never on demand has no BillingModeSummary: PROVISIONED.
  if (table["BillingModeSummary"].get(summary) == simdjson::SUCCESS &&
      summary["BillingMode"].get(billing) != simdjson::SUCCESS) {
    billing = "PROVISIONED";
  }
  const bool provisioned = billing == "PROVISIONED";
  JsonWriter out;
  out.begin_object();
  out.key("TableName");
  out.string(table_name);
  copy_member(out, table, "AttributeDefinitions");
  copy_member(out, table, "KeySchema");
  out.key("BillingMode");
  out.string(billing);
  if (provisioned) write_throughput(out, table);
  for (const char* family : {"GlobalSecondaryIndexes", "LocalSecondaryIndexes"}) {
    simdjson::dom::array indexes;
    if (table[family].get(indexes) != simdjson::SUCCESS) continue;
    out.key(family);
    out.begin_array();
    for (element index : indexes) {
      out.begin_object();
      copy_member(out, index, "IndexName");
      copy_member(out, index, "KeySchema");
      copy_member(out, index, "Projection");
      if (provisioned && std::string_view(family) == "GlobalSecondaryIndexes") write_throughput(out, index);
      out.end_object();
    }
    out.end_array();
  }
  out.end_object();
  return out.take();
}

std::string name_in(const std::string& describe_json) {
  simdjson::dom::parser parser;
  element root = parser.parse(describe_json);
  element table;
  if (root["Table"].get(table) != simdjson::SUCCESS) table = root;
  std::string_view name;
  if (table["TableName"].get(name) != simdjson::SUCCESS) throw std::runtime_error("no TableName in --create-from");
  return std::string(name);
}

// Items go out in BatchWriteItem requests of 25; what the server leaves
// unprocessed is sent again.
class BatchSender final : public imports::ItemSink {
 public:
  BatchSender(DynamoClient& client, std::string table) : client_(client), table_(std::move(table)) {}

  void begin(std::string file) { file_ = std::move(file); }
  void item(Item item, std::size_t, std::size_t) override {
    pending_.push_back(std::move(item));
    if (pending_.size() == 25) flush();
  }
  void error(std::size_t line, std::string message) override {
    ++errors_;
    std::cerr << file_ << ":" << line << ": " << message << "\n";
  }
  void flush() {
    if (pending_.empty()) return;
    JsonWriter out;
    out.begin_object();
    out.key("RequestItems");
    out.begin_object();
    out.key(table_);
    out.begin_array();
    for (const Item& item : pending_) {
      out.begin_object();
      out.key("PutRequest");
      out.begin_object();
      out.key("Item");
      encode_item(out, item);
      out.end_object();
      out.end_object();
    }
    out.end_array();
    out.end_object();
    out.end_object();
    const std::size_t count = pending_.size();
    pending_.clear();
    send(out.take(), count);
  }
  std::int64_t sent() const { return sent_; }
  std::int64_t errors() const { return errors_; }

 private:
  void send(std::string body, std::size_t count) {
    for (int attempt = 0;; ++attempt) {
      DynamoClient::Answer answer = client_.call("BatchWriteItem", body);
      if (answer.status != 200) {
        const std::string code = answer.error_code();
        if ((code == "ProvisionedThroughputExceededException" || code == "ThrottlingException") && attempt < 10) {
          std::this_thread::sleep_for(std::chrono::milliseconds(50 << std::min(attempt, 5)));
          continue;
        }
        // One bad item refuses the whole batch: report it and go on with the next.
        errors_ += static_cast<std::int64_t>(count);
        std::cerr << file_ << ": a batch of " << count << " items was refused: " << answer.body << "\n";
        return;
      }
      simdjson::dom::parser parser;
      simdjson::dom::object left;
      std::size_t unprocessed = 0;
      if (parser.parse(answer.body)["UnprocessedItems"].get(left) == simdjson::SUCCESS && left.size() != 0) {
        simdjson::dom::array again = left[table_].get_array();
        unprocessed = again.size();
        JsonWriter retry;
        retry.begin_object();
        retry.key("RequestItems");
        retry.raw(simdjson::to_string(left));
        retry.end_object();
        body = retry.take();
      }
      sent_ += static_cast<std::int64_t>(count - unprocessed);
      if (unprocessed == 0) return;
      count = unprocessed;
      std::this_thread::sleep_for(std::chrono::milliseconds(20 << std::min(attempt, 5)));
    }
  }

  DynamoClient& client_;
  std::string table_;
  std::string file_;
  std::vector<Item> pending_;
  std::int64_t sent_ = 0;
  std::int64_t errors_ = 0;
};

// The table's key attributes (for CSV's types), from DescribeTable.
std::vector<AttributeDefinition> key_attributes(DynamoClient& client, const std::string& table) {
  JsonWriter request;
  request.begin_object();
  request.key("TableName");
  request.string(table);
  request.end_object();
  DynamoClient::Answer answer = client.call("DescribeTable", request.take());
  if (answer.status != 200) throw std::runtime_error("DescribeTable " + table + ": " + answer.body);
  simdjson::dom::parser parser;
  std::vector<AttributeDefinition> keys;
  for (element a : parser.parse(answer.body)["Table"]["AttributeDefinitions"].get_array()) {
    std::string_view name = a["AttributeName"], type = a["AttributeType"];
    keys.push_back({std::string(name), parse_scalar_type(type).value_or(ScalarType::S)});
  }
  return keys;
}

void send_file(BatchSender& sender, const DataFile& file, const std::vector<AttributeDefinition>& keys) {
  const std::string stored = ops::read_file(file.path);
  std::string why;
  std::optional<std::string> text = file.compression == Compression::None
                                        ? std::optional<std::string>(stored)
                                        : imports::decompress(stored, file.compression, why);
  sender.begin(file.path.string());
  if (!text) {
    sender.error(0, why);
    return;
  }
  const std::size_t first = text->find_first_not_of(" \t\r\n");
  if (file.format == InputFormat::Csv) {
    imports::read_csv(*text, imports::CsvOptions{}, keys, sender);
  } else if (first != std::string::npos && (*text)[first] == '[') {
    imports::read_item_array(*text, sender);
  } else {
    imports::read_dynamodb_json(*text, sender);
  }
}

}  // namespace

int run_import_command(int argc, char** argv) {
  std::string endpoint = "http://127.0.0.1:8000";
  if (const char* env = std::getenv("DYNAMOD_ENDPOINT")) endpoint = env;
  std::string table, create_from;
  std::vector<std::string> paths;
  po::options_description desc(kUsage);
  // clang-format off
  desc.add_options()
    ("help,h", "Print this help and exit.")
    ("endpoint", po::value(&endpoint)->default_value(endpoint), "The server's URL (or DYNAMOD_ENDPOINT).")
    ("table", po::value(&table), "The table to load (default: the --create-from table's name).")
    ("create-from", po::value(&create_from), "A DescribeTable answer (JSON file) to create the table from first.");
  // clang-format on
  po::options_description hidden;
  hidden.add_options()("path", po::value(&paths));
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description positional;
  positional.add("path", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc - 1, argv + 1).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "dynamod import: " << e.what() << " (see --help)\n";
    return 2;
  }
  if (vm.count("help") != 0 || paths.size() != 1 || (table.empty() && create_from.empty())) {
    std::cout << desc << "\n";
    return vm.count("help") != 0 ? 0 : 2;
  }
  try {
    DynamoClient client(parse_endpoint(endpoint));
    if (!create_from.empty()) {
      const std::string describe = ops::read_file(create_from);
      if (table.empty()) table = name_in(describe);
      DynamoClient::Answer created = client.call("CreateTable", create_table_request(describe, table));
      if (created.status == 200) {
        std::cout << "created table " << table << "\n";
      } else if (created.error_code() == "ResourceInUseException") {
        std::cout << "table " << table << " exists: loading into it\n";
      } else {
        throw std::runtime_error("CreateTable " + table + ": " + created.body);
      }
    }
    const std::vector<DataFile> files = data_files(paths[0]);
    const std::vector<AttributeDefinition> keys = key_attributes(client, table);
    BatchSender sender(client, table);
    for (const DataFile& file : files) {
      send_file(sender, file, keys);
      sender.flush();
    }
    std::cout << "imported " << sender.sent() << " items into " << table << " from " << files.size() << " file"
              << (files.size() == 1 ? "" : "s")
              << (sender.errors() ? "; " + std::to_string(sender.errors()) + " records not imported (see above)" : "")
              << "\n";
    return sender.errors() != 0 ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "dynamod import: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace dynamod
