#pragma once
// Backups: on-demand backups (CreateBackup, DescribeBackup, ListBackups,
// DeleteBackup, RestoreTableFromBackup) and point-in-time recovery
// (DescribeContinuousBackups, UpdateContinuousBackups,
// RestoreTableToPointInTime; its history is pitr.h's).
//
// A backup copies the table's item records, as they are, into "backup_items"
// under a key space of its own, and keeps its descriptor (name, time, the
// table's schema and counters) in "backups" under namespace \0 backup id. The
// copy is made in the writer job that answers CreateBackup, so the backup
// holds exactly the items committed before it. A restore (of a backup, or of
// a table to a point in time) creates the table and writes every item through
// ItemChange, as a PutItem would (its indexes, item collections and
// counters), in one job too.

#include <optional>
#include <string>
#include <vector>

#include "protocol/backup_requests.h"
#include "protocol/backups.h"
#include "protocol/settings_requests.h"
#include "storage/scope.h"
#include "storage/table_ops.h"
#include "storage/write_queue.h"

namespace dynamod::ops {

Backup create_backup(WriteContext& ctx, const Scope& scope, const CreateBackupRequest& request, double now);
// DeleteTable's backup of a table with point-in-time recovery enabled (before its items go).
void take_system_backup(WriteContext& ctx, const Table& table, double now);
// Deletes the SYSTEM backups whose 35 days are over (the upkeep job).
void expire_system_backups(WriteContext& ctx, double now);
Backup describe_backup(Store& store, const Scope& scope, const std::string& arn);
Backup delete_backup(WriteContext& ctx, const Scope& scope, const std::string& arn);

struct ListBackupsResult {
  std::vector<Backup> backups;
  std::optional<Backup> last_evaluated;  // when another page follows
};
ListBackupsResult list_backups(Store& store, const Scope& scope, const ListBackupsRequest& request);

// The new table as RestoreTableFromBackup's answer describes it (CREATING).
TableDescription restore_table_from_backup(WriteContext& ctx, const Scope& scope,
                                           const RestoreTableFromBackupRequest& request, double now,
                                           std::string table_uuid);

// RestoreTableToPointInTime: the source table's items as they were at the
// time asked (see pitr.h), into a new table.
TableDescription restore_table_to_point_in_time(WriteContext& ctx, const Scope& scope,
                                                const RestoreTableToPointInTimeRequest& request, double now,
                                                std::string table_uuid);

PointInTimeRecovery describe_continuous_backups(Store& store, const Scope& scope, const std::string& table);
PointInTimeRecovery update_continuous_backups(WriteContext& ctx, const Scope& scope,
                                              const UpdateContinuousBackupsRequest& request, double now);

}  // namespace dynamod::ops
