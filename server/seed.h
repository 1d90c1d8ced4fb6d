#pragma once
// --seed DIR: tables and their items for a test environment, created at start
// before the first request is answered. Each `NAME.table.json` in DIR is a
// CreateTable request (the JSON the API takes, checked as CreateTable checks
// it); the data files beside it with the same NAME are loaded into the table:
//   NAME.json        DYNAMODB_JSON lines ({"Item":{...}} per line), or a JSON
//                    array of items ({"Item":{...}} or the item itself)
//   NAME.csv         CSV with a header line (keys typed by the table's
//                    AttributeDefinitions, the rest strings, as ImportTable)
//   NAME.json.gz, NAME.csv.gz, NAME.json.zst, NAME.csv.zst   the same, compressed
// A table that already exists (a data directory seeded before) is left as it
// is, items and all, so a restart does not overwrite what was changed since.

#include <filesystem>

#include "storage/scope.h"
#include "storage/write_queue.h"

namespace dynamod {

struct SeedTotals {
  int tables_created = 0;
  int tables_kept = 0;
  std::int64_t items = 0;
  std::int64_t errors = 0;  // records that could not be loaded (logged as warnings)
};

// Throws std::runtime_error naming the file for a table file that is not a
// valid CreateTable request, or a folder that cannot be read.
SeedTotals seed_tables(Store& store, WriteQueue& writer, const Scope& scope, const std::filesystem::path& dir);

}  // namespace dynamod
