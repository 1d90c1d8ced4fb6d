#pragma once
// Requests of the export operations (ExportTableToPointInTime, DescribeExport,
// ListExports), decoded and checked against the API reference's constraints.

#include <cstdint>
#include <optional>
#include <string>

#include "protocol/exports.h"
#include "protocol/json_reader.h"

namespace dynamod {

struct ExportTableRequest {
  ExportParameters parameters;
  std::optional<std::string> client_token;  // none: the service makes one (a UUID)
};

struct DescribeExportRequest {
  std::string export_arn;
};

struct ListExportsRequest {
  std::optional<std::string> table_arn;
  std::int64_t max_results = 25;  // the API's maximum, and the page when none is asked for
  std::optional<std::string> next_token;
};

// Each throws the service's ValidationException (or SerializationException
// for a value of the wrong JSON type).
ExportTableRequest decode_export_table(json::object body);
DescribeExportRequest decode_describe_export(json::object body);
ListExportsRequest decode_list_exports(json::object body);

// ListExports' NextToken: the hex of the last listed export's id, so a token
// is opaque and (as the API's pattern asks) whole groups of 16 hex digits.
std::string encode_export_next_token(std::string_view export_id);
// nullopt for a token no listing made.
std::optional<std::string> decode_export_next_token(std::string_view token);

}  // namespace dynamod
