// Handlers of the export operations: ExportTableToPointInTime (its record on
// the writer, its files on the ExportRunner's thread), DescribeExport and
// ListExports (reads).

#include <array>

#include "protocol/export_requests.h"
#include "protocol/json_writer.h"
#include "server/async_write.h"
#include "server/operations.h"
#include "storage/export_ops.h"
#include "storage/export_runner.h"

namespace dynamod {
namespace {

using boost::asio::awaitable;

std::string description_answer(const Export& e) {
  JsonWriter out;
  out.begin_object();
  out.key("ExportDescription");
  encode_export_description(out, e);
  out.end_object();
  return out.take();
}

awaitable<Reply> export_table_to_point_in_time(OperationContext& ctx, json::object body) {
  ExportTableRequest request = decode_export_table(body);
  Scope scope = ctx.scope;
  double now = ctx.clock();
  std::string token = request.client_token ? *request.client_token : ctx.make_uuid();
  std::string suffix = ctx.make_uuid().substr(0, 8);
  auto job = write_job([scope, request = std::move(request), now, token, suffix](WriteContext& w) {
    return ops::start_export(w, scope, request, now, token, suffix);
  });
  ops::StartedExport started = co_await async_write(ctx.writer, std::move(job));
  if (started.fresh) ctx.exports.submit(started.record);
  co_return description_answer(started.record);
}

awaitable<Reply> describe_export(OperationContext& ctx, json::object body) {
  DescribeExportRequest request = decode_describe_export(body);
  co_return description_answer(ops::describe_export(ctx.store, ctx.scope, request.export_arn));
}

awaitable<Reply> list_exports(OperationContext& ctx, json::object body) {
  ListExportsRequest request = decode_list_exports(body);
  ops::ListExportsResult result = ops::list_exports(ctx.store, ctx.scope, request);
  JsonWriter out;
  out.begin_object();
  out.key("ExportSummaries");
  out.begin_array();
  for (const Export& e : result.exports) encode_export_summary(out, e);
  out.end_array();
  if (result.last_id) {
    out.key("NextToken");
    out.string(encode_export_next_token(*result.last_id));
  }
  out.end_object();
  co_return out.take();
}

constexpr std::array<NamedOperation, 3> kExportOperations{{
    {"DescribeExport", describe_export},
    {"ExportTableToPointInTime", export_table_to_point_in_time},
    {"ListExports", list_exports},
}};

}  // namespace

std::span<const NamedOperation> export_operations() { return kExportOperations; }

}  // namespace dynamod
