#include "storage/import_ops.h"

#include <spdlog/spdlog.h>

namespace dynamod::ops {
namespace {

std::string record_key(const ImportRecord& record) { return record.ns + '\0' + record.description.id; }

// The import's table, if it is still the one the import created and fills.
TablePtr table_of(WriteContext& ctx, const ImportRecord& record) {
  TablePtr table = ctx.find_table(record.ns, record.description.table_name);
  if (!table || table->schema.table_id != record.description.table_id) return nullptr;
  if (table->schema.status != TableStatus::Creating) return nullptr;
  return table;
}

}  // namespace

ImportRecords::ImportRecords(WriteQueue& writer)
    : dbi_(writer.run_sync([](WriteContext& ctx) { return ctx.txn().open_db("imports"); })) {}

void ImportRecords::save(WriteContext& ctx, const ImportRecord& record) const {
  ctx.txn().put(dbi_, record_key(record), encode_import_record(record));
}

std::vector<ImportRecord> ImportRecords::load(const lmdb::TxnBase& txn) const {
  std::vector<ImportRecord> records;
  auto cursor = txn.cursor(dbi_);
  for (auto entry = cursor.first(); entry; entry = cursor.next())
    records.push_back(decode_import_record(entry->second));
  return records;
}

TableDescription start_import(WriteContext& ctx, const ImportRecords& records, const Scope& scope, TableSchema schema,
                              double now, std::string table_uuid, ImportRecord& record) {
  TableDescription created = create_table(ctx, scope, std::move(schema), now, std::move(table_uuid));
  TablePtr table = ctx.find_table(scope.ns(), created.schema.name);
  TableSchema creating = table->schema;
  creating.status = TableStatus::Creating;
  replace_schema(ctx, *table, std::move(creating));
  record.description.table_id = created.schema.table_id;
  records.save(ctx, record);
  return created;
}

void finish_import(WriteContext& ctx, const ImportRecords& records, const ImportRecord& record) {
  if (TablePtr table = table_of(ctx, record)) {
    if (record.description.status == ImportStatus::Completed) {
      TableSchema active = table->schema;
      active.status = TableStatus::Active;
      replace_schema(ctx, *table, std::move(active));
    } else {
      drop_table(ctx, table);
    }
  }
  records.save(ctx, record);
}

std::vector<ImportRecord> recover_imports(WriteContext& ctx, const ImportRecords& records, double now) {
  std::vector<ImportRecord> all = records.load(ctx.txn());
  for (ImportRecord& record : all) {
    ImportDescription& d = record.description;
    if (d.status != ImportStatus::InProgress) continue;
    d.status = ImportStatus::Failed;
    d.failure_code = "InternalFailure";
    d.failure_message = "The import was interrupted: dynamod stopped before it completed";
    d.end_time = now;
    spdlog::warn("import {} into {} was interrupted by a stop: FAILED, its table dropped", d.id, d.table_name);
    finish_import(ctx, records, record);
  }
  // No import runs yet, so a table still CREATING has none to end it (a
  // snapshot taken during an import and restored after it): it goes as a
  // FAILED import's table goes, rather than stay unusable.
  for (const TablePtr& table : ctx.store().catalog().all()) {
    TablePtr now = ctx.find_table(table->ns, table->schema.name);
    if (!now || now->schema.status != TableStatus::Creating) continue;
    spdlog::warn("table {} was CREATING with no import to fill it: dropped", now->schema.name);
    drop_table(ctx, now);
  }
  return all;
}

}  // namespace dynamod::ops
