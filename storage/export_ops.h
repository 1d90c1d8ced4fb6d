#pragma once
// Exports' records: ExportTableToPointInTime's checks and its IN_PROGRESS
// record (a writer job), DescribeExport, ListExports, and an export's end.
// Each export is kept in "exports" under namespace \0 export id, as
// protocol/exports.h's record; the files are written by export_runner.h.

#include <optional>
#include <string>
#include <vector>

#include "protocol/export_requests.h"
#include "protocol/exports.h"
#include "storage/scope.h"
#include "storage/write_queue.h"

namespace dynamod::ops {

// The service keeps ClientTokens of exports for 8 hours.
inline constexpr double kExportTokenSeconds = 8 * 3600;
// Exports in progress at once, per account and region (the service's quota).
inline constexpr std::size_t kMaxExportsInProgress = 300;

struct StartedExport {
  Export record;
  bool fresh = false;  // false: the ClientToken's earlier export, answered again
};

// Checks the request against its table (the point-in-time recovery window,
// the export times, the ClientToken's earlier use) and records the export as
// IN_PROGRESS. `token` is the request's ClientToken or one made for it;
// `id_suffix` the 8 hex digits of the new export's id.
StartedExport start_export(WriteContext& ctx, const Scope& scope, const ExportTableRequest& request, double now,
                           const std::string& token, const std::string& id_suffix);

Export describe_export(Store& store, const Scope& scope, const std::string& export_arn);

struct ListExportsResult {
  std::vector<Export> exports;         // newest first
  std::optional<std::string> last_id;  // when another page follows
};
ListExportsResult list_exports(Store& store, const Scope& scope, const ListExportsRequest& request);

// Records an export's end (COMPLETED or FAILED), as `record` holds it.
void finish_export(WriteContext& ctx, const Export& record);

// The exports left IN_PROGRESS by a stop, to run again at start.
std::vector<Export> unfinished_exports(Store& store);

}  // namespace dynamod::ops
