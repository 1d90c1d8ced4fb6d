#include "protocol/export_requests.h"

#include "protocol/api_error.h"
#include "protocol/item_requests.h"

namespace dynamod {
namespace {

// The model's member order, which orders the constraint messages.
enum Rank : int {
  kTableArn,
  kExportTime,
  kClientToken,
  kS3Bucket,
  kS3BucketOwner,
  kS3Prefix,
  kS3SseAlgorithm,
  kS3SseKmsKeyId,
  kExportFormat,
  kExportType,
  kIncremental,
};

std::optional<double> optional_timestamp(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  double seconds = 0;
  if (v.get_double().get(seconds) != simdjson::SUCCESS) throw json::type_mismatch(v, "Date");
  return seconds;
}

bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// ^[a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+$
bool bucket_pattern(std::string_view s) {
  if (s.size() < 2 || !alnum(s.front()) || !alnum(s.back())) return false;
  for (char c : s) {
    if (!alnum(c) && c != '.' && c != '-' && c != '_') return false;
  }
  return true;
}

void check_length(const std::string& value, std::string_view path, std::size_t min, std::size_t max,
                  ConstraintErrors& errors, int rank) {
  if (value.size() < min) {
    errors.add(value, path, "Member must have length greater than or equal to " + std::to_string(min), rank);
  }
  if (value.size() > max) {
    errors.add(value, path, "Member must have length less than or equal to " + std::to_string(max), rank);
  }
}

template <typename Enum>
std::optional<Enum> enum_member(const std::optional<std::string>& value, std::string_view path,
                                std::initializer_list<std::pair<std::string_view, Enum>> values,
                                std::string_view constraint, ConstraintErrors& errors, int rank) {
  if (!value) return std::nullopt;
  for (const auto& [name, e] : values) {
    if (*value == name) return e;
  }
  errors.add(*value, path, constraint, rank);
  return std::nullopt;
}

struct RawIncremental {
  std::optional<double> from;
  std::optional<double> to;
  std::optional<std::string> view;
};

RawIncremental decode_incremental(json::value& v) {
  RawIncremental r;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "ExportFromTime") r.from = optional_timestamp(value);
    else if (key == "ExportToTime") r.to = optional_timestamp(value);
    else if (key == "ExportViewType") r.view = decode::optional_string(value);
  }
  return r;
}

}  // namespace

ExportTableRequest decode_export_table(json::object body) {
  std::optional<std::string> table_arn, bucket, format, type, algorithm;
  std::optional<RawIncremental> incremental;
  ExportTableRequest r;
  ExportParameters& p = r.parameters;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableArn") table_arn = decode::optional_string(value);
    else if (key == "ExportTime") p.export_time = optional_timestamp(value);
    else if (key == "ClientToken") r.client_token = decode::optional_string(value);
    else if (key == "S3Bucket") bucket = decode::optional_string(value);
    else if (key == "S3BucketOwner") p.s3_bucket_owner = decode::optional_string(value);
    else if (key == "S3Prefix") p.s3_prefix = decode::optional_string(value);
    else if (key == "S3SseAlgorithm") algorithm = decode::optional_string(value);
    else if (key == "S3SseKmsKeyId") p.s3_sse_kms_key_id = decode::optional_string(value);
    else if (key == "ExportFormat") format = decode::optional_string(value);
    else if (key == "ExportType") type = decode::optional_string(value);
    else if (key == "IncrementalExportSpecification" && !json::is_null(value)) incremental = decode_incremental(value);
  }
  ConstraintErrors errors;
  if (!table_arn) errors.add_null("tableArn", "Member must not be null", kTableArn);
  else check_length(*table_arn, "tableArn", 1, 1024, errors, kTableArn);
  if (r.client_token && (r.client_token->empty() || r.client_token->find('$') != std::string::npos)) {
    errors.add(*r.client_token, "clientToken", "Member must satisfy regular expression pattern: ^[^\\$]+$",
               kClientToken);
  }
  if (!bucket) {
    errors.add_null("s3Bucket", "Member must not be null", kS3Bucket);
  } else {
    check_length(*bucket, "s3Bucket", 0, 255, errors, kS3Bucket);
    if (!bucket_pattern(*bucket)) {
      errors.add(*bucket, "s3Bucket",
                 "Member must satisfy regular expression pattern: ^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$", kS3Bucket);
    }
  }
  if (p.s3_bucket_owner &&
      (p.s3_bucket_owner->size() != 12 || p.s3_bucket_owner->find_first_not_of("0123456789") != std::string::npos)) {
    errors.add(*p.s3_bucket_owner, "s3BucketOwner", "Member must satisfy regular expression pattern: [0-9]{12}",
               kS3BucketOwner);
  }
  if (p.s3_prefix) check_length(*p.s3_prefix, "s3Prefix", 1, 1024, errors, kS3Prefix);
  if (auto a = enum_member<int>(algorithm, "s3SseAlgorithm", {{"AES256", 0}, {"KMS", 1}},
                                "Member must satisfy enum value set: [AES256, KMS]", errors, kS3SseAlgorithm)) {
    p.s3_sse_algorithm = algorithm;
  }
  if (p.s3_sse_kms_key_id) check_length(*p.s3_sse_kms_key_id, "s3SseKmsKeyId", 1, 2048, errors, kS3SseKmsKeyId);
  if (auto f = enum_member<ExportFormat>(
          format, "exportFormat", {{"DYNAMODB_JSON", ExportFormat::DynamoDbJson}, {"ION", ExportFormat::Ion}},
          "Member must satisfy enum value set: [DYNAMODB_JSON, ION]", errors, kExportFormat)) {
    p.format = *f;
  }
  if (auto t = enum_member<ExportType>(
          type, "exportType", {{"FULL_EXPORT", ExportType::Full}, {"INCREMENTAL_EXPORT", ExportType::Incremental}},
          "Member must satisfy enum value set: [FULL_EXPORT, INCREMENTAL_EXPORT]", errors, kExportType)) {
    p.type = *t;
    p.type_named = true;
  }
  std::optional<ExportViewType> view;
  if (incremental) {
    view = enum_member<ExportViewType>(
        incremental->view, "incrementalExportSpecification.exportViewType",
        {{"NEW_IMAGE", ExportViewType::NewImage}, {"NEW_AND_OLD_IMAGES", ExportViewType::NewAndOldImages}},
        "Member must satisfy enum value set: [NEW_AND_OLD_IMAGES, NEW_IMAGE]", errors, kIncremental);
  }
  errors.throw_if_any();

  p.table_arn = std::move(*table_arn);
  p.s3_bucket = std::move(*bucket);
  // The shape rules the service checks once the members are valid (its texts
  // for most are not documented: these are dynamod's, in its "Invalid Request" form).
  if (p.s3_sse_kms_key_id && p.s3_sse_algorithm != "KMS") {
    throw ApiError::validation("Invalid Request: KMS Key Id is not supported for this encryption type");
  }
  if (p.type == ExportType::Full && incremental) {
    throw ApiError::validation(
        "Invalid Request: IncrementalExportSpecification can only be provided for an INCREMENTAL_EXPORT");
  }
  if (p.type == ExportType::Incremental) {
    if (p.export_time) {
      throw ApiError::validation("Invalid Request: ExportTime can not be provided for an INCREMENTAL_EXPORT");
    }
    if (!incremental) {
      throw ApiError::validation(
          "Invalid Request: IncrementalExportSpecification must be provided for an INCREMENTAL_EXPORT");
    }
    if (!incremental->from) {
      throw ApiError::validation("Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification");
    }
    // ExportToTime defaults to the time of the request: storage fills it in.
    p.incremental =
        IncrementalExportSpecification{*incremental->from, incremental->to.value_or(0), incremental->to.has_value(),
                                       view.value_or(ExportViewType::NewAndOldImages)};
  }
  return r;
}

DescribeExportRequest decode_describe_export(json::object body) {
  std::optional<std::string> arn;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "ExportArn") arn = decode::optional_string(value);
  }
  ConstraintErrors errors;
  if (!arn) errors.add_null("exportArn", "Member must not be null");
  else check_length(*arn, "exportArn", 37, 1024, errors, 0);
  errors.throw_if_any();
  return {std::move(*arn)};
}

ListExportsRequest decode_list_exports(json::object body) {
  ListExportsRequest r;
  std::optional<std::int64_t> max_results;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableArn") r.table_arn = decode::optional_string(value);
    else if (key == "MaxResults" && !json::is_null(value)) max_results = json::read_integer(value);
    else if (key == "NextToken") r.next_token = decode::optional_string(value);
  }
  ConstraintErrors errors;
  if (r.table_arn) check_length(*r.table_arn, "tableArn", 1, 1024, errors, 0);
  if (max_results && *max_results < 1) {
    errors.add(std::to_string(*max_results), "maxResults", "Member must have value greater than or equal to 1", 1);
  }
  if (max_results && *max_results > 25) {
    errors.add(std::to_string(*max_results), "maxResults", "Member must have value less than or equal to 25", 1);
  }
  if (r.next_token) {
    const bool hex = r.next_token->find_first_not_of("0123456789abcdef") == std::string::npos;
    if (r.next_token->empty() || r.next_token->size() % 16 != 0 || !hex) {
      errors.add(*r.next_token, "nextToken", "Member must satisfy regular expression pattern: ([0-9a-f]{16})+", 2);
    }
  }
  errors.throw_if_any();
  if (max_results) r.max_results = *max_results;
  return r;
}

std::string encode_export_next_token(std::string_view export_id) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (unsigned char c : export_id) {
    token.push_back(kHex[c >> 4]);
    token.push_back(kHex[c & 15]);
  }
  while (token.size() % 16 != 0) token += "00";  // padding: ids never hold a zero byte
  return token;
}

std::optional<std::string> decode_export_next_token(std::string_view token) {
  std::string id;
  for (std::size_t i = 0; i + 1 < token.size(); i += 2) {
    auto digit = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    const char c = static_cast<char>(digit(token[i]) * 16 + digit(token[i + 1]));
    if (c == 0) break;
    id.push_back(c);
  }
  Export probe;
  probe.parameters.table_arn = "arn:";
  probe.id = id;
  if (!parse_export_arn(export_arn(probe))) return std::nullopt;
  return id;
}

}  // namespace dynamod
