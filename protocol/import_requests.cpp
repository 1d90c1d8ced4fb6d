#include "protocol/import_requests.h"

#include <algorithm>
#include <cctype>

#include "protocol/table_request_fields.h"

namespace dynamod {
namespace {

// The model's member order, for the order of constraint messages.
enum Rank { kToken, kSource, kFormat, kOptions, kCompression, kTable };

// The raw text of an object member, for decoding again and echoing.
std::string raw_object(json::value& v) {
  json::object o = json::read_object(v);
  std::string_view raw;
  if (o.raw_json().get(raw) != simdjson::SUCCESS) throw ApiError::serialization("");
  return std::string(raw);
}

// Decodes `text` (an object) with `decode`, a fresh parse of its own.
template <typename Decode>
void decode_member(std::string text, Decode decode) {
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  decode(json::request_object(parser, text, doc));
}

// ^[a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+$
bool valid_bucket_name(std::string_view name) {
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (name.size() < 2 || !alnum(name.front()) || !alnum(name.back())) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return alnum(c) || c == '.' || c == '-' || c == '_'; });
}

bool is_header_char(char c) {  // [\x20-\x21\x23-\x2B\x2D-\x7E]: printable ASCII but " and ,
  return c >= 0x20 && c <= 0x7E && c != '"' && c != ',';
}

void decode_source(json::object o, S3BucketSource& source, bool& has_bucket) {
  for (auto field : o) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "S3Bucket") {
      if (auto s = read_optional_string(value)) {
        source.bucket = *s;
        has_bucket = true;
      }
    } else if (key == "S3BucketOwner") {
      source.owner = read_optional_string(value);
    } else if (key == "S3KeyPrefix") {
      source.key_prefix = read_optional_string(value);
    }
  }
}

void check_source(const S3BucketSource& source, bool has_bucket, ConstraintErrors& errors) {
  if (source.owner) {
    const bool digits = source.owner->size() == 12 && std::all_of(source.owner->begin(), source.owner->end(),
                                                                  [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) {
      errors.add(*source.owner, "s3BucketSource.s3BucketOwner",
                 "Member must satisfy regular expression pattern: [0-9]{12}", kSource);
    }
  }
  if (!has_bucket) {
    errors.add_null("s3BucketSource.s3Bucket", "Member must not be null", kSource);
  } else {
    if (source.bucket.size() > 255) {
      errors.add(source.bucket, "s3BucketSource.s3Bucket", "Member must have length less than or equal to 255",
                 kSource);
    }
    if (!valid_bucket_name(source.bucket)) {
      errors.add(source.bucket, "s3BucketSource.s3Bucket",
                 "Member must satisfy regular expression pattern: ^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$", kSource);
    }
  }
  if (source.key_prefix && source.key_prefix->size() > 1024) {
    errors.add(*source.key_prefix, "s3BucketSource.s3KeyPrefix", "Member must have length less than or equal to 1024",
               kSource);
  }
}

void decode_csv(json::object o, std::optional<std::string>& delimiter,
                std::optional<std::vector<std::string>>& header_list) {
  for (auto field : o) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "Delimiter") {
      delimiter = read_optional_string(value);
    } else if (key == "HeaderList") {
      header_list =
          read_optional_list<std::string>(value, [](json::value& e) { return std::string(json::read_string(e)); });
    }
  }
}

std::optional<imports::CsvOptions> check_csv(const std::optional<std::string>& delimiter,
                                             const std::optional<std::vector<std::string>>& header_list,
                                             ConstraintErrors& errors) {
  imports::CsvOptions csv;
  const std::string path = "inputFormatOptions.csv.";
  if (delimiter) {
    if (delimiter->size() != 1) {
      errors.add(*delimiter, path + "delimiter", "Member must have length less than or equal to 1", kOptions);
    } else if (std::string_view(",;:|\t ").find((*delimiter)[0]) == std::string_view::npos) {
      errors.add(*delimiter, path + "delimiter", "Member must satisfy regular expression pattern: [,;:|\\t ]",
                 kOptions);
    } else {
      csv.delimiter = (*delimiter)[0];
    }
  }
  if (header_list) {
    if (header_list->empty()) {
      errors.add("[]", path + "headerList", "Member must have length greater than or equal to 1", kOptions);
    } else if (header_list->size() > 255) {
      errors.add(render_list(*header_list), path + "headerList", "Member must have length less than or equal to 255",
                 kOptions);
    }
    for (const std::string& h : *header_list) {
      if (h.empty() || h.size() > 65536 || !std::all_of(h.begin(), h.end(), is_header_char)) {
        errors.add(render_list(*header_list), path + "headerList",
                   "Member must satisfy constraint: [Member must have length less than or equal to 65536, Member "
                   "must have length greater than or equal to 1, Member must satisfy regular expression pattern: "
                   "[\\x20-\\x21\\x23-\\x2B\\x2D-\\x7E]*]",
                   kOptions);
        break;
      }
    }
    csv.header_list = *header_list;
  }
  return csv;
}

// TableCreationParameters has some of CreateTable's members; the others are
// not part of it, and are dropped as the service's parser skips them.
CreateTableRequest decode_table_parameters(json::object o) {
  CreateTableRequest table = decode_create_table(o);
  table.local_indexes.reset();
  table.stream.reset();
  table.tags.reset();
  table.table_class.reset();
  table.deletion_protection.reset();
  table.resource_policy.reset();
  return table;
}

std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

}  // namespace

std::string ImportTableRequest::digest() const {
  std::string d = source.bucket;
  for (const auto* part : {&source.owner, &source.key_prefix}) {
    d += '\0';
    d += part->value_or("\x01");
  }
  d += '\0';
  d += imports::input_format_name(format);
  d += '\0';
  d += imports::compression_name(compression.value_or(imports::Compression::None));
  d += '\0';
  d += format_options_json;
  d += '\0';
  d += table_parameters_json;
  return d;
}

ImportTableRequest decode_import_table(json::object body) {
  ImportTableRequest r;
  ConstraintErrors errors;
  bool has_source = false, has_bucket = false, has_table = false;
  std::optional<std::string> format, compression, delimiter;
  std::optional<std::vector<std::string>> header_list;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "ClientToken") {
      r.client_token = read_optional_string(value);
    } else if (key == "S3BucketSource") {
      if (json::is_null(value)) continue;
      has_source = true;
      decode_source(json::read_object(value), r.source, has_bucket);
    } else if (key == "InputFormat") {
      format = read_optional_string(value);
    } else if (key == "InputFormatOptions") {
      if (json::is_null(value)) continue;
      r.format_options_json = raw_object(value);
      decode_member(r.format_options_json, [&](json::object o) {
        for (auto option : o) {
          if (option.unescaped_key().value() != "Csv") continue;
          json::value csv = option.value();
          if (!json::is_null(csv)) decode_csv(json::read_object(csv), delimiter, header_list);
        }
      });
    } else if (key == "InputCompressionType") {
      compression = read_optional_string(value);
    } else if (key == "TableCreationParameters") {
      if (json::is_null(value)) continue;
      has_table = true;
      r.table_parameters_json = raw_object(value);
      decode_member(r.table_parameters_json, [&](json::object o) { r.table = decode_table_parameters(o); });
    }
  }
  if (r.client_token && (r.client_token->empty() || r.client_token->find('$') != std::string::npos)) {
    errors.add(*r.client_token, "clientToken", "Member must satisfy regular expression pattern: ^[^\\$]+$", kToken);
  }
  if (!has_source) {
    errors.add_null("s3BucketSource", "Member must not be null", kSource);
  } else {
    check_source(r.source, has_bucket, errors);
  }
  if (!format) {
    errors.add_null("inputFormat", "Member must not be null", kFormat);
  } else if (auto f = imports::parse_input_format(*format)) {
    r.format = *f;
  } else {
    errors.add(*format, "inputFormat", "Member must satisfy enum value set: [DYNAMODB_JSON, ION, CSV]", kFormat);
  }
  if (delimiter || header_list) r.csv = check_csv(delimiter, header_list, errors);
  if (compression) {
    if (auto c = imports::parse_compression(*compression)) {
      r.compression = *c;
    } else {
      errors.add(*compression, "inputCompressionType", "Member must satisfy enum value set: [GZIP, ZSTD, NONE]",
                 kCompression);
    }
  }
  if (!has_table) errors.add_null("tableCreationParameters", "Member must not be null", kTable);
  errors.throw_if_any();
  return r;
}

DescribeImportRequest decode_describe_import(json::object body) {
  std::optional<std::string> arn;
  for (auto field : body) {
    json::value value = field.value();
    if (field.unescaped_key().value() == "ImportArn") arn = read_optional_string(value);
  }
  ConstraintErrors errors;
  if (!arn) {
    errors.add_null("importArn", "Member must not be null");
  } else if (arn->size() < 37) {
    errors.add(*arn, "importArn", "Member must have length greater than or equal to 37");
  } else if (arn->size() > 1024) {
    errors.add(*arn, "importArn", "Member must have length less than or equal to 1024");
  }
  errors.throw_if_any();
  return {*arn};
}

ListImportsRequest decode_list_imports(json::object body) {
  ListImportsRequest r;
  std::optional<std::int64_t> page_size;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableArn") {
      r.table_arn = read_optional_string(value);
    } else if (key == "PageSize") {
      if (!json::is_null(value)) page_size = json::read_integer(value);
    } else if (key == "NextToken") {
      r.next_token = read_optional_string(value);
    }
  }
  ConstraintErrors errors;
  if (r.table_arn && r.table_arn->empty()) {
    errors.add("", "tableArn", "Member must have length greater than or equal to 1");
  } else if (r.table_arn && r.table_arn->size() > 1024) {
    errors.add(*r.table_arn, "tableArn", "Member must have length less than or equal to 1024");
  }
  if (page_size && *page_size < 1) {
    errors.add(std::to_string(*page_size), "pageSize", "Member must have value greater than or equal to 1");
  } else if (page_size && *page_size > 25) {
    errors.add(std::to_string(*page_size), "pageSize", "Member must have value less than or equal to 25");
  }
  if (r.next_token) {
    const std::string& t = *r.next_token;
    if (t.size() < 112) {
      errors.add(t, "nextToken", "Member must have length greater than or equal to 112");
    } else if (t.size() > 1024) {
      errors.add(t, "nextToken", "Member must have length less than or equal to 1024");
    }
    const bool hex_groups = t.size() % 16 == 0 && std::all_of(t.begin(), t.end(), [](char c) {
                              return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                            });
    if (!hex_groups) errors.add(t, "nextToken", "Member must satisfy regular expression pattern: ([0-9a-f]{16})+");
  }
  errors.throw_if_any();
  if (page_size) r.page_size = *page_size;
  return r;
}

std::optional<std::string> import_after_token(std::string_view token) {
  std::string bytes;
  for (std::size_t i = 0; i + 1 < token.size(); i += 2) {
    auto digit = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    bytes.push_back(static_cast<char>(digit(token[i]) * 16 + digit(token[i + 1])));
  }
  while (!bytes.empty() && bytes.back() == '\0') bytes.pop_back();
  if (bytes.rfind("arn:aws:dynamodb:", 0) != 0 || bytes.find("/import/") == std::string::npos) return std::nullopt;
  return bytes;
}

std::string next_import_token(std::string_view import_arn) {
  std::string bytes(import_arn);
  while (bytes.size() % 8 != 0 || bytes.size() < 56) bytes.push_back('\0');
  return hex(bytes);
}

std::string_view import_status_name(ImportStatus status) {
  switch (status) {
    case ImportStatus::InProgress: return "IN_PROGRESS";
    case ImportStatus::Completed: return "COMPLETED";
    case ImportStatus::Cancelling: return "CANCELLING";
    case ImportStatus::Cancelled: return "CANCELLED";
    case ImportStatus::Failed: return "FAILED";
  }
  return "";
}

std::string import_arn(const ArnContext& arn, const ImportDescription& d) {
  return table_arn(arn, d.table_name) + "/import/" + d.id;
}

namespace {

void encode_source(JsonWriter& out, const S3BucketSource& source) {
  out.key("S3BucketSource");
  out.begin_object();
  if (source.owner) {
    out.key("S3BucketOwner");
    out.string(*source.owner);
  }
  out.key("S3Bucket");
  out.string(source.bucket);
  if (source.key_prefix) {
    out.key("S3KeyPrefix");
    out.string(*source.key_prefix);
  }
  out.end_object();
}

void encode_common(JsonWriter& out, const ImportDescription& d, const ArnContext& arn) {
  out.key("ImportArn");
  out.string(import_arn(arn, d));
  out.key("ImportStatus");
  out.string(import_status_name(d.status));
  out.key("TableArn");
  out.string(table_arn(arn, d.table_name));
}

}  // namespace

void encode_import_description(JsonWriter& out, const ImportDescription& d, const ArnContext& arn) {
  encode_common(out, d, arn);
  out.key("TableId");
  out.string(d.table_id);
  if (d.client_token) {
    out.key("ClientToken");
    out.string(*d.client_token);
  }
  encode_source(out, d.source);
  out.key("ErrorCount");
  out.integer(d.errors);
  out.key("CloudWatchLogGroupArn");
  out.string(d.error_log);
  out.key("InputFormat");
  out.string(imports::input_format_name(d.format));
  if (!d.format_options_json.empty()) {
    out.key("InputFormatOptions");
    out.raw(d.format_options_json);
  }
  out.key("InputCompressionType");
  out.string(imports::compression_name(d.compression));
  out.key("TableCreationParameters");
  out.raw(d.table_parameters_json);
  out.key("StartTime");
  out.real(d.start_time);
  if (d.end_time) {
    out.key("EndTime");
    out.real(*d.end_time);
  }
  out.key("ProcessedSizeBytes");
  out.integer(d.processed_size_bytes);
  out.key("ProcessedItemCount");
  out.integer(d.processed_items);
  out.key("ImportedItemCount");
  out.integer(d.imported_items);
  if (d.failure_code) {
    out.key("FailureCode");
    out.string(*d.failure_code);
  }
  if (d.failure_message) {
    out.key("FailureMessage");
    out.string(*d.failure_message);
  }
}

void encode_import_summary(JsonWriter& out, const ImportDescription& d, const ArnContext& arn) {
  out.begin_object();
  encode_common(out, d, arn);
  encode_source(out, d.source);
  out.key("CloudWatchLogGroupArn");
  out.string(d.error_log);
  out.key("InputFormat");
  out.string(imports::input_format_name(d.format));
  out.key("StartTime");
  out.real(d.start_time);
  if (d.end_time) {
    out.key("EndTime");
    out.real(*d.end_time);
  }
  out.end_object();
}

}  // namespace dynamod
