#include "protocol/exports.h"

#include <simdjson.h>

#include <stdexcept>

#include "protocol/stored_json.h"

namespace dynamod {
namespace {

using stored_json::integer;
using stored_json::number;
using stored_json::optional_member;
using stored_json::optional_text;
using stored_json::text;

template <typename Enum, std::size_t N>
Enum enum_named(const std::string_view (&names)[N], std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<Enum>(i);
  }
  throw std::runtime_error("stored export: unknown value " + std::string(name));
}

constexpr std::string_view kStatusNames[] = {"IN_PROGRESS", "COMPLETED", "FAILED"};
constexpr std::string_view kFormatNames[] = {"DYNAMODB_JSON", "ION"};
constexpr std::string_view kTypeNames[] = {"FULL_EXPORT", "INCREMENTAL_EXPORT"};
constexpr std::string_view kViewNames[] = {"NEW_IMAGE", "NEW_AND_OLD_IMAGES"};

void encode_incremental(JsonWriter& out, const IncrementalExportSpecification& spec) {
  out.begin_object();
  out.key("ExportFromTime");
  out.real(spec.from);
  out.key("ExportToTime");
  out.real(spec.to);
  out.key("ExportViewType");
  out.string(export_view_type_name(spec.view));
  out.end_object();
}

}  // namespace

std::string_view export_status_name(ExportStatus status) { return kStatusNames[static_cast<int>(status)]; }
std::string_view export_format_name(ExportFormat format) { return kFormatNames[static_cast<int>(format)]; }
std::string_view export_type_name(ExportType type) { return kTypeNames[static_cast<int>(type)]; }
std::string_view export_view_type_name(ExportViewType view) { return kViewNames[static_cast<int>(view)]; }

std::string export_arn(const Export& e) { return e.parameters.table_arn + "/export/" + e.id; }

std::optional<ExportArnParts> parse_export_arn(std::string_view arn) {
  const std::size_t at = arn.rfind("/export/");
  if (arn.rfind("arn:", 0) != 0 || at == std::string_view::npos) return std::nullopt;
  std::string_view id = arn.substr(at + 8);
  // 14 digits, '-', 8 hex digits.
  if (id.size() != 23 || id[14] != '-') return std::nullopt;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool ok = i < 14 ? (c >= '0' && c <= '9') : i == 14 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    if (!ok) return std::nullopt;
  }
  return ExportArnParts{arn.substr(0, at), id};
}

namespace {

std::string prefix_key(const Export& e) {
  const std::optional<std::string>& prefix = e.parameters.s3_prefix;
  if (!prefix || prefix->empty()) return {};
  return prefix->back() == '/' ? *prefix : *prefix + "/";
}

}  // namespace

std::string export_folder_key(const Export& e) { return prefix_key(e) + "AWSDynamoDB/" + e.id + "/"; }

std::string export_data_key(const Export& e) {
  if (e.parameters.type == ExportType::Incremental) return prefix_key(e) + "AWSDynamoDB/data/";
  return export_folder_key(e) + "data/";
}

void encode_export_description(JsonWriter& out, const Export& e) {
  const ExportParameters& p = e.parameters;
  out.begin_object();
  out.key("ExportArn");
  out.string(export_arn(e));
  out.key("ExportStatus");
  out.string(export_status_name(e.status));
  out.key("StartTime");
  out.real(e.start_time);
  if (e.status != ExportStatus::InProgress) {
    out.key("EndTime");
    out.real(e.end_time);
  }
  if (e.status == ExportStatus::Completed) {
    out.key("ExportManifest");
    out.string(e.manifest);
  }
  out.key("TableArn");
  out.string(p.table_arn);
  out.key("TableId");
  out.string(e.table_id);
  if (p.type == ExportType::Full) {
    out.key("ExportTime");
    out.real(e.export_time);
  }
  out.key("ClientToken");
  out.string(e.client_token);
  out.key("S3Bucket");
  out.string(p.s3_bucket);
  optional_member(out, "S3BucketOwner", p.s3_bucket_owner);
  optional_member(out, "S3Prefix", p.s3_prefix);
  optional_member(out, "S3SseAlgorithm", p.s3_sse_algorithm);
  optional_member(out, "S3SseKmsKeyId", p.s3_sse_kms_key_id);
  if (e.status == ExportStatus::Failed) {
    out.key("FailureCode");
    out.string(e.failure_code);
    out.key("FailureMessage");
    out.string(e.failure_message);
  }
  out.key("ExportFormat");
  out.string(export_format_name(p.format));
  if (e.status == ExportStatus::Completed) {
    out.key("BilledSizeBytes");
    out.integer(e.billed_size_bytes);
    out.key("ItemCount");
    out.integer(e.item_count);
  }
  if (p.type_named) {
    out.key("ExportType");
    out.string(export_type_name(p.type));
  }
  if (p.incremental) {
    out.key("IncrementalExportSpecification");
    encode_incremental(out, *p.incremental);
  }
  out.end_object();
}

void encode_export_summary(JsonWriter& out, const Export& e) {
  out.begin_object();
  out.key("ExportArn");
  out.string(export_arn(e));
  out.key("ExportStatus");
  out.string(export_status_name(e.status));
  out.key("ExportType");
  out.string(export_type_name(e.parameters.type));
  out.end_object();
}

std::string encode_export_record(const Export& e) {
  const ExportParameters& p = e.parameters;
  JsonWriter out;
  out.begin_object();
  out.key("id");
  out.string(e.id);
  out.key("ns");
  out.string(e.ns);
  out.key("table_id");
  out.string(e.table_id);
  out.key("client_token");
  out.string(e.client_token);
  out.key("table_arn");
  out.string(p.table_arn);
  out.key("s3_bucket");
  out.string(p.s3_bucket);
  optional_member(out, "s3_bucket_owner", p.s3_bucket_owner);
  optional_member(out, "s3_prefix", p.s3_prefix);
  optional_member(out, "s3_sse_algorithm", p.s3_sse_algorithm);
  optional_member(out, "s3_sse_kms_key_id", p.s3_sse_kms_key_id);
  out.key("format");
  out.string(export_format_name(p.format));
  out.key("type");
  out.string(export_type_name(p.type));
  out.key("type_named");
  out.boolean(p.type_named);
  if (p.export_time) {
    out.key("asked_export_time");
    out.real(*p.export_time);
  }
  if (p.incremental) {
    out.key("incremental");
    encode_incremental(out, *p.incremental);
    out.key("to_given");
    out.boolean(p.incremental->to_given);
  }
  out.key("status");
  out.string(export_status_name(e.status));
  out.key("start_time");
  out.real(e.start_time);
  out.key("end_time");
  out.real(e.end_time);
  out.key("export_time");
  out.real(e.export_time);
  out.key("manifest");
  out.string(e.manifest);
  out.key("billed_size_bytes");
  out.integer(e.billed_size_bytes);
  out.key("item_count");
  out.integer(e.item_count);
  out.key("failure_code");
  out.string(e.failure_code);
  out.key("failure_message");
  out.string(e.failure_message);
  out.end_object();
  return out.take();
}

Export decode_export_record(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::object o = stored_json::parse_object(parser, json, "export");
  Export e;
  e.id = text(o, "id");
  e.ns = text(o, "ns");
  e.table_id = text(o, "table_id");
  e.client_token = text(o, "client_token");
  ExportParameters& p = e.parameters;
  p.table_arn = text(o, "table_arn");
  p.s3_bucket = text(o, "s3_bucket");
  p.s3_bucket_owner = optional_text(o, "s3_bucket_owner");
  p.s3_prefix = optional_text(o, "s3_prefix");
  p.s3_sse_algorithm = optional_text(o, "s3_sse_algorithm");
  p.s3_sse_kms_key_id = optional_text(o, "s3_sse_kms_key_id");
  p.format = enum_named<ExportFormat>(kFormatNames, text(o, "format"));
  p.type = enum_named<ExportType>(kTypeNames, text(o, "type"));
  bool named = false;
  if (o["type_named"].get(named) == simdjson::SUCCESS) p.type_named = named;
  double asked = 0;
  if (o["asked_export_time"].get(asked) == simdjson::SUCCESS) p.export_time = asked;
  simdjson::dom::object incremental;
  if (o["incremental"].get(incremental) == simdjson::SUCCESS) {
    bool to_given = true;
    if (o["to_given"].get(to_given) != simdjson::SUCCESS) to_given = true;
    p.incremental = IncrementalExportSpecification{
        number(incremental, "ExportFromTime"), number(incremental, "ExportToTime"), to_given,
        enum_named<ExportViewType>(kViewNames, text(incremental, "ExportViewType"))};
  }
  e.status = enum_named<ExportStatus>(kStatusNames, text(o, "status"));
  e.start_time = number(o, "start_time");
  e.end_time = number(o, "end_time");
  e.export_time = number(o, "export_time");
  e.manifest = text(o, "manifest");
  e.billed_size_bytes = integer(o, "billed_size_bytes");
  e.item_count = integer(o, "item_count");
  e.failure_code = text(o, "failure_code");
  e.failure_message = text(o, "failure_message");
  return e;
}

}  // namespace dynamod
