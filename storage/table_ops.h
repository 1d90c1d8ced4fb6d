#pragma once
// Table operations: CreateTable, DescribeTable, ListTables, DeleteTable,
// UpdateTable. Writes run on the writer (WriteContext); reads anywhere.

#include <optional>
#include <string>
#include <vector>

#include "protocol/responses.h"
#include "protocol/table_requests.h"
#include "protocol/table_schema.h"
#include "protocol/ttl_requests.h"
#include "storage/scope.h"
#include "storage/write_queue.h"

namespace dynamod::ops {

// A table's description as an answer reports it.
struct TableDescription {
  TableSchema schema;
  TableCounters counters;
  IndexCounters index_counters;
};

TableDescription describe(const Table& table);

struct ListTablesResult {
  std::vector<std::string> names;
  std::optional<std::string> last_evaluated;
};

// `schema` comes from validate_create_table; the engine gives it its storage
// id, TableId, region and creation time.
TableDescription create_table(WriteContext& ctx, const Scope& scope, TableSchema schema, double now,
                              std::string table_uuid);
TableDescription describe_table(Store& store, const Scope& scope, const std::string& name);
TableDescription delete_table(WriteContext& ctx, const Scope& scope, const std::string& name);
// What DeleteTable does once its checks passed, whatever the table's status
// (a FAILED import's CREATING table goes this way).
void drop_table(WriteContext& ctx, const TablePtr& table);
// ResourceInUseException for a CREATING table (ImportTable's, until its
// import ends), which DeleteTable and UpdateTable may not change.
void check_not_creating(const Table& table);
TableDescription update_table(WriteContext& ctx, const Scope& scope, const UpdateTableRequest& request, double now);
ListTablesResult list_tables(Store& store, const Scope& scope, const ListTablesRequest& request);

// Time to live: the table's setting after the change, and as described.
TimeToLive update_time_to_live(WriteContext& ctx, const Scope& scope, const UpdateTimeToLiveRequest& request);
std::optional<TimeToLive> describe_time_to_live(Store& store, const Scope& scope, const std::string& name);

// Writes a changed schema of `table` to the catalog and stages it for the commit.
void replace_schema(WriteContext& ctx, const Table& table, TableSchema schema);

// A new key space id (tables, indexes, streams, backups), from one counter; ids are never reused.
std::uint32_t allocate_id(WriteContext& ctx);
// Deletes every key of `dbi` that starts with `prefix`.
void delete_prefix(WriteContext& ctx, lmdb::Dbi dbi, std::string_view prefix);

// "Requested resource not found: Table: <name> not found", the control plane's message.
ApiError table_not_found(std::string_view name);
// The table a control-plane TableName (a name or a table ARN) designates, as
// readers see it and as the writer's group sees it; else table_not_found.
TablePtr find_control_table(Store& store, const Scope& scope, const std::string& name);
TablePtr find_control_table(WriteContext& ctx, const Scope& scope, const std::string& name);

}  // namespace dynamod::ops
