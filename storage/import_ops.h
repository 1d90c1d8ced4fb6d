#pragma once
// ImportTable's records and its table's life: the database "imports" holds
// each import under namespace \0 import id, as protocol/import_records.h's
// JSON, so DescribeImport and ListImports still show an import after a
// restart. An import's table is CREATING while the import runs (its reads and
// writes answer ResourceNotFoundException, DeleteTable and UpdateTable
// ResourceInUseException); the commit that records the import's end makes it
// ACTIVE (COMPLETED) or drops it (FAILED, CANCELLED), and it is a synced
// commit, so an import is never COMPLETED on disk before its items are.

#include <string>
#include <vector>

#include "protocol/import_records.h"
#include "storage/scope.h"
#include "storage/table_ops.h"
#include "storage/write_queue.h"

namespace dynamod::ops {

class ImportRecords {
 public:
  // Opens the database (creating it), in a writer job of its own.
  explicit ImportRecords(WriteQueue& writer);

  void save(WriteContext& ctx, const ImportRecord& record) const;
  // Every import kept, in key order.
  std::vector<ImportRecord> load(const lmdb::TxnBase& txn) const;

 private:
  lmdb::Dbi dbi_ = 0;
};

// ImportTable's writer job: creates the table, CREATING, and records the
// import (IN_PROGRESS, its TableId filled in) in the same commit.
TableDescription start_import(WriteContext& ctx, const ImportRecords& records, const Scope& scope, TableSchema schema,
                              double now, std::string table_uuid, ImportRecord& record);

// Records an import's end as `record` holds it: COMPLETED makes its table
// ACTIVE, FAILED or CANCELLED drops it (when it is still the import's).
void finish_import(WriteContext& ctx, const ImportRecords& records, const ImportRecord& record);

// At start: the imports a stop (or a crash) interrupted become FAILED and
// their tables are dropped, as is any other table still CREATING (no import
// runs yet to end it). Returns every import kept, as it now is.
std::vector<ImportRecord> recover_imports(WriteContext& ctx, const ImportRecords& records, double now);

}  // namespace dynamod::ops
