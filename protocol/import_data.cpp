#include "protocol/import_data.h"

namespace dynamod::imports {

std::optional<InputFormat> parse_input_format(std::string_view text) {
  if (text == "DYNAMODB_JSON") return InputFormat::DynamoDbJson;
  if (text == "ION") return InputFormat::Ion;
  if (text == "CSV") return InputFormat::Csv;
  return std::nullopt;
}

std::string_view input_format_name(InputFormat format) {
  switch (format) {
    case InputFormat::DynamoDbJson: return "DYNAMODB_JSON";
    case InputFormat::Ion: return "ION";
    case InputFormat::Csv: return "CSV";
  }
  return "";
}

std::optional<Compression> parse_compression(std::string_view text) {
  if (text == "NONE") return Compression::None;
  if (text == "GZIP") return Compression::Gzip;
  if (text == "ZSTD") return Compression::Zstd;
  return std::nullopt;
}

std::string_view compression_name(Compression compression) {
  switch (compression) {
    case Compression::None: return "NONE";
    case Compression::Gzip: return "GZIP";
    case Compression::Zstd: return "ZSTD";
  }
  return "";
}

}  // namespace dynamod::imports
