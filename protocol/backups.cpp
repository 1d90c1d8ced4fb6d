#include "protocol/backups.h"

#include <algorithm>

#include "protocol/table_requests.h"
#include "protocol/vector_index.h"

namespace dynamod {
namespace {

constexpr std::string_view kBackupSegment = "/backup/";

std::string_view backup_status_name(BackupStatus status) {
  switch (status) {
    case BackupStatus::Creating: return "CREATING";
    case BackupStatus::Available: return "AVAILABLE";
    case BackupStatus::Deleted: return "DELETED";
  }
  return "AVAILABLE";
}

void write_expiry(JsonWriter& out, const Backup& backup) {
  if (backup.type != BackupType::System) return;
  out.key("BackupExpiryDateTime");
  out.real(backup.expires);
}

// Read and write units; an on-demand table reports zeros, as DescribeTable does.
void write_units(JsonWriter& out, const Throughput& t) {
  out.begin_object();
  out.key("ReadCapacityUnits");
  out.integer(t.read_units);
  out.key("WriteCapacityUnits");
  out.integer(t.write_units);
  out.end_object();
}

void write_source_table(JsonWriter& out, const Backup& backup, const ArnContext& arn) {
  const TableSchema& t = backup.table;
  out.begin_object();
  out.key("TableName");
  out.string(t.name);
  out.key("TableId");
  out.string(t.table_id);
  out.key("TableArn");
  out.string(table_arn(arn, t.name));
  out.key("TableSizeBytes");
  out.integer(backup.counters.size_bytes);
  out.key("KeySchema");
  encode_key_schema(out, t.key);
  out.key("TableCreationDateTime");
  out.real(t.creation_time);
  out.key("ProvisionedThroughput");
  write_units(out, t.throughput);
  out.key("ItemCount");
  out.integer(backup.counters.item_count);
  out.key("BillingMode");
  out.string(billing_mode_name(t.billing_mode));
  out.end_object();
}

void write_index_info(JsonWriter& out, const IndexSchema& index, bool with_units) {
  out.begin_object();
  encode_index_definition(out, index);
  if (with_units && index.throughput) {
    out.key("ProvisionedThroughput");
    write_units(out, *index.throughput);
  }
  out.end_object();
}

// The features a restore brings back (indexes) and those it reports but
// leaves to be set again (stream, Time to Live).
void write_features(JsonWriter& out, const TableSchema& t) {
  out.begin_object();
  if (!t.local_indexes.empty()) {
    out.key("LocalSecondaryIndexes");
    out.begin_array();
    for (const auto& index : t.local_indexes) write_index_info(out, index, false);
    out.end_array();
  }
  if (!t.global_indexes.empty()) {
    out.key("GlobalSecondaryIndexes");
    out.begin_array();
    for (const auto& index : t.global_indexes) write_index_info(out, index, true);
    out.end_array();
  }
  if (std::any_of(t.vector_indexes.begin(), t.vector_indexes.end(),
                  [](const VectorIndexSchema& index) { return index.status != IndexStatus::Deleting; })) {
    out.key("VectorIndexes");
    out.begin_array();
    for (const auto& index : t.vector_indexes) {
      if (index.status == IndexStatus::Deleting) continue;  // (a restore does not bring it back)
      out.begin_object();
      encode_vector_index_definition(out, index);
      out.end_object();
    }
    out.end_array();
  }
  if (t.stream && t.stream->enabled) {
    out.key("StreamDescription");
    out.begin_object();
    out.key("StreamEnabled");
    out.boolean(true);
    out.key("StreamViewType");
    out.string(stream_view_type_name(t.stream->view_type));
    out.end_object();
  }
  if (t.ttl && t.ttl->enabled) {
    out.key("TimeToLiveDescription");
    out.begin_object();
    out.key("TimeToLiveStatus");
    out.string("ENABLED");
    out.key("AttributeName");
    out.string(t.ttl->attribute);
    out.end_object();
  }
  out.end_object();
}

}  // namespace

std::string_view backup_type_name(BackupType type) { return type == BackupType::System ? "SYSTEM" : "USER"; }

std::string backup_arn(const ArnContext& arn, const Backup& backup) {
  std::string out = table_arn(arn, backup.table.name);
  out += kBackupSegment;
  out += backup.id;
  return out;
}

std::optional<BackupArnParts> parse_backup_arn(std::string_view arn) {
  std::size_t at = arn.rfind(kBackupSegment);
  if (at == std::string_view::npos) return std::nullopt;
  std::optional<TableArn> table = parse_table_arn(arn.substr(0, at));
  std::string_view id = arn.substr(at + kBackupSegment.size());
  if (!table || id.empty() || id.find('/') != std::string_view::npos) return std::nullopt;
  return BackupArnParts{table->region, table->account, table->name, id};
}

void encode_backup_details(JsonWriter& out, const Backup& backup, const ArnContext& arn, BackupStatus status) {
  out.key("BackupDetails");
  out.begin_object();
  out.key("BackupArn");
  out.string(backup_arn(arn, backup));
  out.key("BackupName");
  out.string(backup.name);
  out.key("BackupSizeBytes");
  out.integer(backup.counters.size_bytes);
  out.key("BackupStatus");
  out.string(backup_status_name(status));
  out.key("BackupType");
  out.string(backup_type_name(backup.type));
  out.key("BackupCreationDateTime");
  out.real(backup.created);
  write_expiry(out, backup);
  out.end_object();
}

void encode_backup_description(JsonWriter& out, const Backup& backup, const ArnContext& arn, BackupStatus status) {
  out.key("BackupDescription");
  out.begin_object();
  encode_backup_details(out, backup, arn, status);
  out.key("SourceTableDetails");
  write_source_table(out, backup, arn);
  out.key("SourceTableFeatureDetails");
  write_features(out, backup.table);
  out.end_object();
}

void encode_backup_summary(JsonWriter& out, const Backup& backup, const ArnContext& arn) {
  out.begin_object();
  out.key("TableName");
  out.string(backup.table.name);
  out.key("TableId");
  out.string(backup.table.table_id);
  out.key("TableArn");
  out.string(table_arn(arn, backup.table.name));
  out.key("BackupArn");
  out.string(backup_arn(arn, backup));
  out.key("BackupName");
  out.string(backup.name);
  out.key("BackupCreationDateTime");
  out.real(backup.created);
  write_expiry(out, backup);
  out.key("BackupStatus");
  out.string("AVAILABLE");
  out.key("BackupType");
  out.string(backup_type_name(backup.type));
  out.key("BackupSizeBytes");
  out.integer(backup.counters.size_bytes);
  out.end_object();
}

}  // namespace dynamod
