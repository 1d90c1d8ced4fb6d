// Handlers of ImportTable, DescribeImport and ListImports (server/imports.h
// runs the imports).

#include <array>

#include "protocol/import_requests.h"
#include "protocol/json_writer.h"
#include "server/async_write.h"
#include "server/imports.h"
#include "server/operations.h"
#include "storage/table_ops.h"

namespace dynamod {
namespace {

using boost::asio::awaitable;

std::string description_answer(const OperationContext& ctx, const ImportDescription& d) {
  JsonWriter out;
  out.begin_object();
  out.key("ImportTableDescription");
  out.begin_object();
  encode_import_description(out, d, ArnContext{d.region, ctx.scope.account_id});
  out.end_object();
  out.end_object();
  return out.take();
}

awaitable<Reply> import_table(OperationContext& ctx, json::object body) {
  ImportTableRequest request = decode_import_table(body);
  // The table is checked as CreateTable checks it, with CreateTable's messages.
  TableSchema schema = validate_create_table(request.table);
  ctx.table_name = schema.name;
  if (std::optional<ImportDescription> earlier = ctx.imports.find_by_token(ctx.scope, request)) {
    co_return description_answer(ctx, *earlier);
  }
  ctx.imports.check_limit();
  // The bucket and prefix must name something the bucket store can hold.
  ctx.buckets.path_of(request.source.bucket, request.source.key_prefix.value_or(""));
  double now = ctx.clock();
  std::string uuid = ctx.make_uuid();
  Scope scope = ctx.scope;
  // The table (CREATING) and the import's record are committed together.
  ImportJobs& imports = ctx.imports;
  auto job = write_job([&imports, schema = std::move(schema), scope, now, uuid,
                        record = imports.prepare(scope, request, now)](WriteContext& w) mutable {
    imports.begin_in(w, scope, schema, now, uuid, record);
    return record;
  });
  ImportRecord record = co_await async_write(ctx.writer, std::move(job));
  co_return description_answer(ctx, ctx.imports.start(std::move(record), ctx.scope, request));
}

awaitable<Reply> describe_import(OperationContext& ctx, json::object body) {
  DescribeImportRequest request = decode_describe_import(body);
  ImportDescription d = ctx.imports.describe(ctx.scope, request.import_arn);
  ctx.table_name = d.table_name;
  co_return description_answer(ctx, d);
}

awaitable<Reply> list_imports(OperationContext& ctx, json::object body) {
  ListImportsRequest request = decode_list_imports(body);
  ImportJobs::Page page = ctx.imports.list(ctx.scope, request);
  JsonWriter out;
  out.begin_object();
  out.key("ImportSummaryList");
  out.begin_array();
  for (const ImportDescription& d : page.imports) {
    encode_import_summary(out, d, ArnContext{d.region, ctx.scope.account_id});
  }
  out.end_array();
  if (page.more) {
    const ImportDescription& last = page.imports.back();
    out.key("NextToken");
    out.string(next_import_token(import_arn(ArnContext{last.region, ctx.scope.account_id}, last)));
  }
  out.end_object();
  co_return out.take();
}

constexpr std::array<NamedOperation, 3> kImportOperations{{
    {"DescribeImport", describe_import},
    {"ImportTable", import_table},
    {"ListImports", list_imports},
}};

}  // namespace

std::span<const NamedOperation> import_operations() { return kImportOperations; }

}  // namespace dynamod
