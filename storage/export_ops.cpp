#include "storage/export_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "protocol/api_error.h"
#include "protocol/table_requests.h"

namespace dynamod::ops {
namespace {

constexpr double kMinIncrementalSeconds = 15 * 60;
constexpr double kMaxIncrementalSeconds = 24 * 3600;

std::string export_key(std::string_view ns, std::string_view id) {
  std::string key(ns);
  key.push_back('\0');
  key += id;
  return key;
}

std::string ns_prefix(std::string_view ns) { return export_key(ns, ""); }

template <typename Visit>
void for_each_export(const lmdb::TxnBase& txn, const Databases& dbs, std::string_view ns, Visit visit) {
  const std::string prefix = ns_prefix(ns);
  auto cursor = txn.cursor(dbs.exports);
  for (auto entry = cursor.seek(prefix); entry && entry->first.substr(0, prefix.size()) == prefix;
       entry = cursor.next()) {
    if (!visit(decode_export_record(entry->second))) return;
  }
}

ApiError invalid_time(std::string message) { return {ErrorCode::InvalidExportTimeException, std::move(message)}; }

// The texts of the time checks are not documented; these are dynamod's,
// in the shape of RestoreTableToPointInTime's.
void check_times(ExportParameters& p, const PointInTimeRecovery& recovery, double now, double& export_time) {
  const double earliest = recovery.earliest_restorable(now);
  if (p.type == ExportType::Full) {
    export_time = p.export_time.value_or(now);
    if (export_time < earliest || export_time > now) {
      throw invalid_time("ExportTime must be between EarliestRestorableDateTime and LatestRestorableDateTime");
    }
    return;
  }
  IncrementalExportSpecification& spec = *p.incremental;
  if (!spec.to_given) spec.to = now;
  const double to = spec.to;
  if (spec.from < earliest || spec.from > now) {
    throw invalid_time("ExportFromTime must be between EarliestRestorableDateTime and LatestRestorableDateTime");
  }
  if (to > now) throw invalid_time("ExportToTime must not be after LatestRestorableDateTime");
  if (to <= spec.from) throw invalid_time("ExportFromTime must be before ExportToTime");
  if (to - spec.from < kMinIncrementalSeconds) {
    throw invalid_time("Difference between export period start and end times must be at least 15 minutes");
  }
  if (to - spec.from > kMaxIncrementalSeconds) {
    throw invalid_time("Difference between export period start and end times must not be more than 24 hours");
  }
}

std::string export_id(double now, const std::string& suffix) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%014lld", static_cast<long long>(std::llround(now * 1000.0)));
  return std::string(digits) + "-" + suffix;
}

}  // namespace

StartedExport start_export(WriteContext& ctx, const Scope& scope, const ExportTableRequest& request, double now,
                           const std::string& token, const std::string& id_suffix) {
  ExportParameters p = request.parameters;
  std::optional<TableArn> arn = parse_table_arn(p.table_arn);
  if (!arn) throw ApiError::validation("Invalid TableArn: tableArn is not a valid ARN");
  std::optional<QualifiedName> name = scope.qualify(p.table_arn);
  TablePtr table = name ? ctx.find_table(name->ns, name->name) : nullptr;
  if (!table) throw ApiError(ErrorCode::TableNotFoundException, "Table not found: " + p.table_arn);

  // A ClientToken used in the last 8 hours: the same request is the same
  // export, another one a conflict.
  std::optional<Export> earlier;
  std::size_t in_progress = 0;
  for_each_export(ctx.txn(), ctx.dbs(), table->ns, [&](Export e) {
    if (e.status == ExportStatus::InProgress) ++in_progress;
    if (e.client_token == token && now - e.start_time < kExportTokenSeconds) earlier = std::move(e);
    return true;
  });
  if (earlier) {
    if (!(earlier->parameters == p)) {
      throw ApiError(ErrorCode::ExportConflictException,
                     "Duplicate request detected with different parameters for ClientToken " + token);
    }
    return {std::move(*earlier), false};
  }

  const PointInTimeRecovery& recovery = table->schema.point_in_time_recovery;
  if (!recovery.enabled) {
    throw ApiError(ErrorCode::PointInTimeRecoveryUnavailableException,
                   "Point in time recovery is not enabled for table '" + table->schema.name + "'");
  }
  Export e;
  check_times(p, recovery, now, e.export_time);
  if (in_progress >= kMaxExportsInProgress) {
    throw ApiError::limit_exceeded("There is a limit of " + std::to_string(kMaxExportsInProgress) +
                                   " exports in progress at once");
  }
  e.id = export_id(now, id_suffix);
  while (ctx.txn().get(ctx.dbs().exports, export_key(table->ns, e.id))) e.id = export_id(now += 0.001, id_suffix);
  e.ns = table->ns;
  e.table_id = table->schema.table_id;
  e.client_token = token;
  // With the times settled (an ExportToTime not given is now; the token's
  // comparison knows it was not given).
  e.parameters = std::move(p);
  e.status = ExportStatus::InProgress;
  e.start_time = now;
  ctx.txn().put(ctx.dbs().exports, export_key(e.ns, e.id), encode_export_record(e));
  return {std::move(e), true};
}

Export describe_export(Store& store, const Scope& scope, const std::string& export_arn) {
  std::optional<ExportArnParts> parts = parse_export_arn(export_arn);
  // The service's text for an ARN that names no export (a table's, say).
  if (!parts) throw ApiError::validation("Invalid Export ARN");
  std::optional<QualifiedName> name = scope.qualify(parts->table_arn);
  if (name) {
    auto txn = store.read();
    if (auto stored = txn.get(store.dbs().exports, export_key(name->ns, parts->id))) {
      Export e = decode_export_record(*stored);
      if (e.parameters.table_arn == parts->table_arn) return e;
    }
  }
  throw ApiError(ErrorCode::ExportNotFoundException, "Export not found: " + export_arn);
}

ListExportsResult list_exports(Store& store, const Scope& scope, const ListExportsRequest& request) {
  std::optional<std::string> after;
  if (request.next_token) {
    after = decode_export_next_token(*request.next_token);
    if (!after) throw ApiError::validation("Invalid Request: Provided nextToken is invalid: " + *request.next_token);
  }
  // Exports of a table that no longer is (or is another table of that name
  // now) are not listed under its ARN, as the service does not list them.
  std::optional<std::string> table_id;
  if (request.table_arn) {
    std::optional<QualifiedName> name = scope.qualify(*request.table_arn);
    TablePtr table = name ? store.catalog().find(name->ns, name->name) : nullptr;
    if (!table) return {};
    table_id = table->schema.table_id;
  }
  std::vector<Export> all;
  auto txn = store.read();
  for_each_export(txn, store.dbs(), scope.ns(), [&](Export e) {
    if (!request.table_arn || (e.parameters.table_arn == *request.table_arn && e.table_id == *table_id)) {
      all.push_back(std::move(e));
    }
    return true;
  });
  std::reverse(all.begin(), all.end());  // newest first: ids begin with the start time
  ListExportsResult result;
  for (Export& e : all) {
    if (after && e.id >= *after) continue;
    if (static_cast<std::int64_t>(result.exports.size()) == request.max_results) {
      result.last_id = result.exports.back().id;
      break;
    }
    result.exports.push_back(std::move(e));
  }
  return result;
}

void finish_export(WriteContext& ctx, const Export& record) {
  ctx.txn().put(ctx.dbs().exports, export_key(record.ns, record.id), encode_export_record(record));
}

std::vector<Export> unfinished_exports(Store& store) {
  std::vector<Export> unfinished;
  auto txn = store.read();
  auto cursor = txn.cursor(store.dbs().exports);
  for (auto entry = cursor.first(); entry; entry = cursor.next()) {
    Export e = decode_export_record(entry->second);
    if (e.status == ExportStatus::InProgress) unfinished.push_back(std::move(e));
  }
  return unfinished;
}

}  // namespace dynamod::ops
