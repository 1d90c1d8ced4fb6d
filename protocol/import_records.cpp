#include "protocol/import_records.h"

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

ImportStatus status_named(std::string_view name) {
  for (ImportStatus s : {ImportStatus::InProgress, ImportStatus::Completed, ImportStatus::Cancelling,
                         ImportStatus::Cancelled, ImportStatus::Failed}) {
    if (import_status_name(s) == name) return s;
  }
  throw std::runtime_error("stored import: unknown status " + std::string(name));
}

void string_member(JsonWriter& out, std::string_view name, std::string_view value) {
  out.key(name);
  out.string(value);
}

void integer_member(JsonWriter& out, std::string_view name, std::int64_t value) {
  out.key(name);
  out.integer(value);
}

}  // namespace

std::string encode_import_record(const ImportRecord& record) {
  const ImportDescription& d = record.description;
  JsonWriter out;
  out.begin_object();
  string_member(out, "ns", record.ns);
  string_member(out, "account", record.account);
  string_member(out, "digest", record.digest);
  string_member(out, "id", d.id);
  string_member(out, "table_name", d.table_name);
  string_member(out, "table_id", d.table_id);
  string_member(out, "region", d.region);
  string_member(out, "status", import_status_name(d.status));
  optional_member(out, "client_token", d.client_token);
  string_member(out, "s3_bucket", d.source.bucket);
  optional_member(out, "s3_bucket_owner", d.source.owner);
  optional_member(out, "s3_key_prefix", d.source.key_prefix);
  string_member(out, "format", imports::input_format_name(d.format));
  string_member(out, "compression", imports::compression_name(d.compression));
  string_member(out, "format_options", d.format_options_json);
  string_member(out, "table_parameters", d.table_parameters_json);
  string_member(out, "error_log", d.error_log);
  out.key("start_time");
  out.real(d.start_time);
  if (d.end_time) {
    out.key("end_time");
    out.real(*d.end_time);
  }
  integer_member(out, "processed_size_bytes", d.processed_size_bytes);
  integer_member(out, "processed_items", d.processed_items);
  integer_member(out, "imported_items", d.imported_items);
  integer_member(out, "errors", d.errors);
  optional_member(out, "failure_code", d.failure_code);
  optional_member(out, "failure_message", d.failure_message);
  out.end_object();
  return out.take();
}

ImportRecord decode_import_record(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::object o = stored_json::parse_object(parser, json, "import");
  ImportRecord record;
  record.ns = text(o, "ns");
  record.account = text(o, "account");
  record.digest = text(o, "digest");
  ImportDescription& d = record.description;
  d.id = text(o, "id");
  d.table_name = text(o, "table_name");
  d.table_id = text(o, "table_id");
  d.region = text(o, "region");
  d.status = status_named(text(o, "status"));
  d.client_token = optional_text(o, "client_token");
  d.source.bucket = text(o, "s3_bucket");
  d.source.owner = optional_text(o, "s3_bucket_owner");
  d.source.key_prefix = optional_text(o, "s3_key_prefix");
  const std::optional<imports::InputFormat> format = imports::parse_input_format(text(o, "format"));
  const std::optional<imports::Compression> compression = imports::parse_compression(text(o, "compression"));
  if (!format || !compression) throw std::runtime_error("stored import: unknown format or compression");
  d.format = *format;
  d.compression = *compression;
  d.format_options_json = text(o, "format_options");
  d.table_parameters_json = text(o, "table_parameters");
  d.error_log = text(o, "error_log");
  d.start_time = number(o, "start_time");
  double end = 0;
  if (o["end_time"].get(end) == simdjson::SUCCESS) d.end_time = end;
  d.processed_size_bytes = integer(o, "processed_size_bytes");
  d.processed_items = integer(o, "processed_items");
  d.imported_items = integer(o, "imported_items");
  d.errors = integer(o, "errors");
  d.failure_code = optional_text(o, "failure_code");
  d.failure_message = optional_text(o, "failure_message");
  return record;
}

}  // namespace dynamod
