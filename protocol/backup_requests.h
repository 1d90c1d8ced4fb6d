#pragma once
// Requests of the backup operations (CreateBackup, DescribeBackup,
// DeleteBackup, ListBackups, RestoreTableFromBackup, RestoreTableToPointInTime),
// decoded and checked against the API's constraints, and the schema a restore
// creates.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/json_reader.h"
#include "protocol/table_requests.h"
#include "protocol/table_schema.h"
#include "protocol/vector_index_raw.h"

namespace dynamod {

struct CreateBackupRequest {
  std::string table_name;  // a name or a table ARN
  std::string backup_name;
};

struct BackupArnRequest {  // DescribeBackup, DeleteBackup
  std::string backup_arn;
};

struct ListBackupsRequest {
  std::optional<std::string> table_name;
  std::int64_t limit = 100;              // the service's page size when none is asked for
  std::optional<double> created_from;    // TimeRangeLowerBound, inclusive
  std::optional<double> created_before;  // TimeRangeUpperBound, exclusive
  std::optional<std::string> exclusive_start_backup_arn;
  std::string backup_type = "USER";
};

// What a restore may change of the table it restores.
struct RestoreOverrides {
  std::optional<std::string> billing_mode;
  std::optional<std::vector<RawIndex>> global_indexes;  // replace the source's
  std::optional<std::vector<RawIndex>> local_indexes;
  std::optional<RawThroughput> throughput;
  std::optional<std::vector<RawVectorIndex>> vector_indexes;  // those of the source's to keep
};

struct RestoreTableFromBackupRequest {
  std::string target_table_name;
  std::string backup_arn;
  RestoreOverrides overrides;
};

struct RestoreTableToPointInTimeRequest {
  std::optional<std::string> source_table;  // SourceTableArn, or else SourceTableName
  std::string target_table_name;
  bool use_latest_restorable_time = false;
  std::optional<double> restore_time;  // epoch seconds
  RestoreOverrides overrides;
};

// Each throws the service's ValidationException (or SerializationException
// for a value of the wrong JSON type).
CreateBackupRequest decode_create_backup(json::object body);
BackupArnRequest decode_backup_arn_request(json::object body);
ListBackupsRequest decode_list_backups(json::object body);
RestoreTableFromBackupRequest decode_restore_table_from_backup(json::object body);
RestoreTableToPointInTimeRequest decode_restore_table_to_point_in_time(json::object body);

// The table a restore creates: the source's keys, attribute definitions,
// indexes, billing mode, capacity and table class, with the request's
// overrides, checked as CreateTable checks a new table. Streams, Time to
// Live, tags, deletion protection and point-in-time recovery are not
// restored (the developer guide lists them as settings to set again).
TableSchema restored_schema(const TableSchema& source, const std::string& target_table_name,
                            const RestoreOverrides& overrides);

}  // namespace dynamod
