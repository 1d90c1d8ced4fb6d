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

// USER: made by CreateBackup. SYSTEM: made by DeleteTable of a table with
// point-in-time recovery enabled, named "<table>$DeletedTableBackup" and kept
// 35 days (the developer guide's "Before you begin using point-in-time recovery").
enum class BackupType : std::uint8_t { User, System };
std::string_view backup_type_name(BackupType type);

struct Backup {
  // The ARN's last part: the creation time in milliseconds (14 digits), '-',
  // 8 hex digits, as the service writes it (01576616366715-b4e58d3a).
  std::string id;
  std::string name;
  BackupType type = BackupType::User;
  double created = 0;           // epoch seconds
  double expires = 0;           // epoch seconds, SYSTEM backups only
  std::uint32_t key_space = 0;  // storage: where its copy of the items is kept
  TableSchema table;            // the source table when the backup was taken
  TableCounters counters;       // and its items then
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
