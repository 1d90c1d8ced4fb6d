// Handlers of the backup operations: on-demand backups and restores
// (CreateBackup, DescribeBackup, ListBackups, DeleteBackup,
// RestoreTableFromBackup) and point-in-time recovery (DescribeContinuousBackups,
// UpdateContinuousBackups, RestoreTableToPointInTime).

#include <array>

#include "protocol/backup_requests.h"
#include "protocol/backups.h"
#include "protocol/json_writer.h"
#include "protocol/responses.h"
#include "protocol/settings_requests.h"
#include "protocol/table_requests.h"
#include "server/async_write.h"
#include "server/operations.h"
#include "storage/backup_ops.h"

namespace dynamod {
namespace {

using boost::asio::awaitable;

// A backup's ARNs name the region of its table.
ArnContext arn_of(const OperationContext& ctx, const Backup& backup) {
  return {backup.table.region, ctx.scope.account_id};
}

std::string backup_description_answer(const OperationContext& ctx, const Backup& backup, BackupStatus status) {
  JsonWriter out;
  out.begin_object();
  encode_backup_description(out, backup, arn_of(ctx, backup), status);
  out.end_object();
  return out.take();
}

// ---------------------------------------------------------------- on-demand backups

awaitable<Reply> create_backup(OperationContext& ctx, json::object body) {
  CreateBackupRequest request = decode_create_backup(body);
  ctx.table_name = request.table_name;
  Scope scope = ctx.scope;
  double now = ctx.clock();
  auto job = write_job([scope, request = std::move(request), now](WriteContext& w) {
    return ops::create_backup(w, scope, request, now);
  });
  Backup backup = co_await async_write(ctx.writer, std::move(job));
  // The service answers CREATING; the copy is complete once this returns.
  JsonWriter out;
  out.begin_object();
  encode_backup_details(out, backup, arn_of(ctx, backup), BackupStatus::Creating);
  out.end_object();
  co_return out.take();
}

awaitable<Reply> describe_backup(OperationContext& ctx, json::object body) {
  BackupArnRequest request = decode_backup_arn_request(body);
  Backup backup = ops::describe_backup(ctx.store, ctx.scope, request.backup_arn);
  ctx.table_name = backup.table.name;
  co_return backup_description_answer(ctx, backup, BackupStatus::Available);
}

awaitable<Reply> delete_backup(OperationContext& ctx, json::object body) {
  BackupArnRequest request = decode_backup_arn_request(body);
  Scope scope = ctx.scope;
  auto job =
      write_job([scope, arn = request.backup_arn](WriteContext& w) { return ops::delete_backup(w, scope, arn); });
  Backup backup = co_await async_write(ctx.writer, std::move(job));
  ctx.table_name = backup.table.name;
  co_return backup_description_answer(ctx, backup, BackupStatus::Deleted);
}

awaitable<Reply> list_backups(OperationContext& ctx, json::object body) {
  ListBackupsRequest request = decode_list_backups(body);
  if (request.table_name) ctx.table_name = *request.table_name;
  ops::ListBackupsResult result = ops::list_backups(ctx.store, ctx.scope, request);
  JsonWriter out;
  out.begin_object();
  out.key("BackupSummaries");
  out.begin_array();
  for (const Backup& backup : result.backups) encode_backup_summary(out, backup, arn_of(ctx, backup));
  out.end_array();
  if (result.last_evaluated) {
    out.key("LastEvaluatedBackupArn");
    out.string(backup_arn(arn_of(ctx, *result.last_evaluated), *result.last_evaluated));
  }
  out.end_object();
  co_return out.take();
}

// A restore (from a backup or to a point in time) on the writer, answered
// with the new table's description. (`restore` is a plain function pointer:
// a coroutine must not take a closure by value, g++ 12 miscompiles it.)
template <typename Request>
using RestoreFn = ops::TableDescription (*)(WriteContext&, const Scope&, const Request&, double, std::string);

template <typename Request>
awaitable<Reply> run_restore(OperationContext& ctx, Request request, RestoreFn<Request> restore) {
  ctx.table_name = request.target_table_name;
  Scope scope = ctx.scope;
  double now = ctx.clock();
  std::string uuid = ctx.make_uuid();
  auto job = write_job([scope, request = std::move(request), now, uuid, restore](WriteContext& w) {
    return restore(w, scope, request, now, uuid);
  });
  ops::TableDescription table = co_await async_write(ctx.writer, std::move(job));
  JsonWriter out;
  out.begin_object();
  out.key("TableDescription");
  encode_table_description(out, table.schema, table.counters, table.index_counters,
                           ArnContext{ctx.scope.region, ctx.scope.account_id}, DescriptionShape::Full);
  out.end_object();
  co_return out.take();
}

awaitable<Reply> restore_table_from_backup(OperationContext& ctx, json::object body) {
  return run_restore(ctx, decode_restore_table_from_backup(body), &ops::restore_table_from_backup);
}

// ---------------------------------------------------------------- point-in-time recovery

awaitable<Reply> restore_table_to_point_in_time(OperationContext& ctx, json::object body) {
  return run_restore(ctx, decode_restore_table_to_point_in_time(body), &ops::restore_table_to_point_in_time);
}

std::string continuous_backups_answer(const PointInTimeRecovery& pitr, double now) {
  JsonWriter out;
  out.begin_object();
  out.key("ContinuousBackupsDescription");
  out.begin_object();
  out.key("ContinuousBackupsStatus");
  out.string("ENABLED");
  out.key("PointInTimeRecoveryDescription");
  out.begin_object();
  out.key("PointInTimeRecoveryStatus");
  out.string(pitr.enabled ? "ENABLED" : "DISABLED");
  if (pitr.enabled) {
    out.key("RecoveryPeriodInDays");
    out.integer(pitr.recovery_period_days);
    out.key("EarliestRestorableDateTime");
    out.real(pitr.earliest_restorable(now));
    out.key("LatestRestorableDateTime");
    out.real(now);
  }
  out.end_object();
  out.end_object();
  out.end_object();
  return out.take();
}

awaitable<Reply> describe_continuous_backups(OperationContext& ctx, json::object body) {
  const std::string name = checked_table_name(decode_table_name_request(body));
  ctx.table_name = name;
  co_return continuous_backups_answer(ops::describe_continuous_backups(ctx.store, ctx.scope, name), ctx.clock());
}

awaitable<Reply> update_continuous_backups(OperationContext& ctx, json::object body) {
  UpdateContinuousBackupsRequest request = decode_update_continuous_backups(body);
  ctx.table_name = *request.table_name;
  Scope scope = ctx.scope;
  double now = ctx.clock();
  auto job = write_job([scope, request = std::move(request), now](WriteContext& w) {
    return ops::update_continuous_backups(w, scope, request, now);
  });
  PointInTimeRecovery pitr = co_await async_write(ctx.writer, std::move(job));
  co_return continuous_backups_answer(pitr, now);
}

constexpr std::array<NamedOperation, 8> kBackupOperations{{
    {"CreateBackup", create_backup},
    {"DeleteBackup", delete_backup},
    {"DescribeBackup", describe_backup},
    {"DescribeContinuousBackups", describe_continuous_backups},
    {"ListBackups", list_backups},
    {"RestoreTableFromBackup", restore_table_from_backup},
    {"RestoreTableToPointInTime", restore_table_to_point_in_time},
    {"UpdateContinuousBackups", update_continuous_backups},
}};

}  // namespace

std::span<const NamedOperation> backup_operations() { return kBackupOperations; }

}  // namespace dynamod
