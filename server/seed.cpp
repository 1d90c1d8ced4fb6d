#include "server/seed.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>

#include "protocol/table_requests.h"
#include "server/random_uuid.h"
#include "storage/import_load.h"
#include "storage/table_ops.h"

namespace dynamod {
namespace {

namespace fs = std::filesystem;
using imports::Compression;
using imports::InputFormat;

constexpr std::string_view kTableSuffix = ".table.json";

struct DataFile {
  std::string_view suffix;
  InputFormat format;
  Compression compression;
};

constexpr std::array<DataFile, 6> kDataFiles{{
    {".json", InputFormat::DynamoDbJson, Compression::None},
    {".json.gz", InputFormat::DynamoDbJson, Compression::Gzip},
    {".json.zst", InputFormat::DynamoDbJson, Compression::Zstd},
    {".csv", InputFormat::Csv, Compression::None},
    {".csv.gz", InputFormat::Csv, Compression::Gzip},
    {".csv.zst", InputFormat::Csv, Compression::Zstd},
}};

TableSchema read_table_file(const fs::path& path) {
  std::string text = ops::read_file(path);
  try {
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    return validate_create_table(decode_create_table(json::request_object(parser, text, doc)));
  } catch (const ApiError& e) {
    throw std::runtime_error("--seed: " + path.string() + " is not a CreateTable request: " +
                             (e.message().empty() ? std::string(error_type_name(e.code())) : e.message()));
  }
}

// A .json data file holds a JSON array of items when its first character (past blanks) opens one.
bool is_item_array(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '[';
}

void load_data(ops::ItemLoader& loader, const fs::path& path, const DataFile& kind) {
  const std::string stored = ops::read_file(path);
  const std::string name = path.filename().string();
  if (kind.format == InputFormat::DynamoDbJson) {
    std::string why;
    std::optional<std::string> text = kind.compression == Compression::None
                                          ? std::optional<std::string>(stored)
                                          : imports::decompress(stored, kind.compression, why);
    if (text && is_item_array(*text)) {
      loader.load_item_array(name, *text);
      return;
    }
  }
  loader.load_object(name, stored, kind.format, kind.compression, imports::CsvOptions{});
}

}  // namespace

SeedTotals seed_tables(Store& store, WriteQueue& writer, const Scope& scope, const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw std::runtime_error("--seed: " + dir.string() + " is not a folder");
  std::vector<fs::path> tables;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() > kTableSuffix.size() && name.ends_with(kTableSuffix)) {
      tables.push_back(entry.path());
    }
  }
  std::sort(tables.begin(), tables.end());
  SeedTotals totals;
  for (const fs::path& table_file : tables) {
    TableSchema schema = read_table_file(table_file);
    const std::string table = schema.name;
    std::optional<QualifiedName> qualified = scope.qualify(table);
    if (qualified && store.catalog().find(qualified->ns, qualified->name)) {
      ++totals.tables_kept;
      spdlog::info("seed: table {} exists, left as it is", table);
      continue;
    }
    const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    writer.run_sync([&](WriteContext& w) { return ops::create_table(w, scope, schema, now, random_uuid()); });
    ++totals.tables_created;
    auto log = [&](const std::string& object, std::size_t line, const std::string& message) {
      spdlog::warn("seed: {} line {}: {}", object, line, message);
    };
    ops::ItemLoader loader(store, writer, scope, table, log);
    const std::string base = table_file.filename().string();
    const std::string stem = base.substr(0, base.size() - kTableSuffix.size());
    for (const DataFile& kind : kDataFiles) {
      const fs::path data = dir / (stem + std::string(kind.suffix));
      if (fs::is_regular_file(data, ec)) load_data(loader, data, kind);
    }
    loader.finish();
    totals.items += loader.counts().imported_items;
    totals.errors += loader.counts().errors;
    spdlog::info("seed: table {} created with {} items ({} records not loaded)", table, loader.counts().imported_items,
                 loader.counts().errors);
  }
  return totals;
}

}  // namespace dynamod
