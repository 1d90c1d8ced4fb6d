#pragma once
// Table exports (ExportTableToPointInTime): what one is, its ARN, how answers
// describe it (ExportDescription, ExportSummary), and its stored form.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/json_writer.h"

namespace dynamod {

enum class ExportStatus : std::uint8_t { InProgress, Completed, Failed };
enum class ExportFormat : std::uint8_t { DynamoDbJson, Ion };
enum class ExportType : std::uint8_t { Full, Incremental };
enum class ExportViewType : std::uint8_t { NewImage, NewAndOldImages };

std::string_view export_status_name(ExportStatus status);
std::string_view export_format_name(ExportFormat format);
std::string_view export_type_name(ExportType type);
std::string_view export_view_type_name(ExportViewType view);

struct IncrementalExportSpecification {
  double from = 0;  // ExportFromTime, inclusive (epoch seconds)
  double to = 0;    // ExportToTime, exclusive: as asked, or the time of the request
  bool to_given = true;
  ExportViewType view = ExportViewType::NewAndOldImages;
  // Two requests ask the same when neither gave an ExportToTime, whatever time each was made.
  friend bool operator==(const IncrementalExportSpecification& a, const IncrementalExportSpecification& b) {
    return a.from == b.from && a.view == b.view && a.to_given == b.to_given && (!a.to_given || a.to == b.to);
  }
};

// What a request asked for: two requests with one ClientToken must ask for
// the same (else ExportConflictException).
struct ExportParameters {
  std::string table_arn;
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_prefix;
  std::optional<std::string> s3_sse_algorithm;  // AES256 | KMS
  std::optional<std::string> s3_sse_kms_key_id;
  ExportFormat format = ExportFormat::DynamoDbJson;
  ExportType type = ExportType::Full;
  bool type_named = false;            // the service echoes ExportType only when the request named it
  std::optional<double> export_time;  // FULL_EXPORT: ExportTime as asked (none: the time of the request)
  std::optional<IncrementalExportSpecification> incremental;
  friend bool operator==(const ExportParameters&, const ExportParameters&) = default;
};

struct Export {
  // The ARN's last part: the start time in milliseconds (14 digits), '-', 8 hex digits.
  std::string id;
  std::string ns;        // the table's namespace (storage scope)
  std::string table_id;  // the table's TableId when the export began
  std::string client_token;
  ExportParameters parameters;
  ExportStatus status = ExportStatus::InProgress;
  double start_time = 0;   // epoch seconds
  double end_time = 0;     // once COMPLETED or FAILED
  double export_time = 0;  // FULL: the point in time exported
  std::string manifest;    // ExportManifest: the key of manifest-summary.json
  std::int64_t billed_size_bytes = 0;
  std::int64_t item_count = 0;
  std::string failure_code;
  std::string failure_message;
};

// <table ARN>/export/<id>
std::string export_arn(const Export& e);
// The table ARN and id of an export ARN, or nullopt when it names no export.
struct ExportArnParts {
  std::string_view table_arn;
  std::string_view id;
};
std::optional<ExportArnParts> parse_export_arn(std::string_view arn);

// <prefix>/AWSDynamoDB/<id>/ (the prefix's trailing '/' is not doubled; no prefix: AWSDynamoDB/<id>/).
std::string export_folder_key(const Export& e);
// Where an export's data files go: the export's folder for a FULL export;
// for an INCREMENTAL one, the AWSDynamoDB/data/ folder its prefix shares.
std::string export_data_key(const Export& e);

// "ExportDescription": {...}
void encode_export_description(JsonWriter& out, const Export& e);
// One entry of ListExports' ExportSummaries.
void encode_export_summary(JsonWriter& out, const Export& e);

// The stored form (storage/export_ops keeps it in the "exports" database).
std::string encode_export_record(const Export& e);
Export decode_export_record(std::string_view json);

}  // namespace dynamod
