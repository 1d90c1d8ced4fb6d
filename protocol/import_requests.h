#pragma once
// ImportTable, DescribeImport and ListImports: their requests, decoded and
// checked against the API's constraints, and the import's description as
// DescribeImport, ImportTable and ListImports answer it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/import_data.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"
#include "protocol/responses.h"
#include "protocol/table_requests.h"

namespace dynamod {

struct S3BucketSource {
  std::string bucket;
  std::optional<std::string> owner;       // S3BucketOwner: accepted and described, not checked
  std::optional<std::string> key_prefix;  // S3KeyPrefix
};

struct ImportTableRequest {
  std::optional<std::string> client_token;
  S3BucketSource source;
  imports::InputFormat format = imports::InputFormat::DynamoDbJson;
  std::optional<imports::Compression> compression;  // InputCompressionType (NONE when absent)
  std::optional<imports::CsvOptions> csv;           // InputFormatOptions.Csv
  // TableCreationParameters, as CreateTable takes them (the members it has:
  // TableName, AttributeDefinitions, KeySchema, BillingMode,
  // ProvisionedThroughput, GlobalSecondaryIndexes; SSESpecification and
  // OnDemandThroughput are only described).
  CreateTableRequest table;
  // The two members as sent, for the description's echo and the ClientToken's
  // comparison.
  std::string table_parameters_json;
  std::string format_options_json;
  // Everything but the ClientToken, in one string: a repeated token must come
  // with the same request.
  std::string digest() const;
};

// Throws the service's ValidationException (constraints, in the model's
// member order) or SerializationException (a member of the wrong JSON type).
ImportTableRequest decode_import_table(json::object body);

struct DescribeImportRequest {
  std::string import_arn;
};
DescribeImportRequest decode_describe_import(json::object body);

struct ListImportsRequest {
  std::optional<std::string> table_arn;
  std::int64_t page_size = 25;
  std::optional<std::string> next_token;  // as sent; import_after_token() reads it
};
ListImportsRequest decode_list_imports(json::object body);

// The ImportArn a NextToken continues after, or nullopt if it names none.
std::optional<std::string> import_after_token(std::string_view token);
// The NextToken of a page that ended with `import_arn`: its bytes in hex,
// padded to the pattern's 16-digit groups.
std::string next_import_token(std::string_view import_arn);

enum class ImportStatus { InProgress, Completed, Cancelling, Cancelled, Failed };
std::string_view import_status_name(ImportStatus status);

struct ImportDescription {
  std::string id;  // the ARN's last part: creation time in ms (14 digits), '-', 8 hex digits
  std::string table_name;
  std::string table_id;
  std::string region;
  ImportStatus status = ImportStatus::InProgress;
  std::optional<std::string> client_token;
  S3BucketSource source;
  imports::InputFormat format = imports::InputFormat::DynamoDbJson;
  imports::Compression compression = imports::Compression::None;
  std::string format_options_json;  // empty when none were sent
  std::string table_parameters_json;
  std::string error_log;  // CloudWatchLogGroupArn: here, the local file that holds the errors
  double start_time = 0;
  std::optional<double> end_time;
  std::int64_t processed_size_bytes = 0;
  std::int64_t processed_items = 0;
  std::int64_t imported_items = 0;
  std::int64_t errors = 0;
  std::optional<std::string> failure_code;
  std::optional<std::string> failure_message;
};

// arn:aws:dynamodb:<region>:<account>:table/<table>/import/<id>
std::string import_arn(const ArnContext& arn, const ImportDescription& d);

// ImportTableDescription's members (inside an object the caller opened).
void encode_import_description(JsonWriter& out, const ImportDescription& d, const ArnContext& arn);
// One ImportSummary object.
void encode_import_summary(JsonWriter& out, const ImportDescription& d, const ArnContext& arn);

}  // namespace dynamod
