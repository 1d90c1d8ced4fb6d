#pragma once
// On-demand backups: what one is, its ARN, and how answers describe it
// (BackupDetails, BackupDescription, BackupSummary).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/json_writer.h"
#include "protocol/responses.h"
#include "protocol/table_schema.h"

namespace dynamod {

struct Backup {
  // The ARN's last part: the creation time in milliseconds (14 digits), '-',
  // 8 hex digits, as the service writes it (01576616366715-b4e58d3a).
  std::string id;
  std::string name;
  double created = 0;             // epoch seconds
  std::uint32_t key_space = 0;    // storage: where its copy of the items is kept
  TableSchema table;              // the source table when the backup was taken
  TableCounters counters;         // and its items then
};

enum class BackupStatus : std::uint8_t { Creating, Available, Deleted };

// <table ARN>/backup/<id>
std::string backup_arn(const ArnContext& arn, const Backup& backup);

struct BackupArnParts {
  std::string_view region;
  std::string_view account;
  std::string_view table;
  std::string_view id;
};
std::optional<BackupArnParts> parse_backup_arn(std::string_view arn);

// "BackupDetails": {...}
void encode_backup_details(JsonWriter& out, const Backup& backup, const ArnContext& arn, BackupStatus status);
// "BackupDescription": {BackupDetails, SourceTableDetails, SourceTableFeatureDetails}
void encode_backup_description(JsonWriter& out, const Backup& backup, const ArnContext& arn, BackupStatus status);
// One entry of ListBackups' BackupSummaries.
void encode_backup_summary(JsonWriter& out, const Backup& backup, const ArnContext& arn);

}  // namespace dynamod
