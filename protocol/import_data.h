#pragma once
// Reading the data files of an import (ImportTable, `--seed`, `dynamod
// import`): the three formats the service imports from S3 and its two
// compressions, turned into items one record at a time. No I/O: callers hand
// over the bytes of one object (one S3 object, one file).
//
// A record that cannot become an item is the object's error, counted and
// reported to the sink with its line, never fatal: the service counts such
// records in ErrorCount and logs them to CloudWatch. Where the rest of an object
// cannot be read (a quote never closed), that is one last error and the object
// ends there, as the service "may skip processing the remaining portion of the
// object" (developer guide, "Import format quotas and validation").

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/attribute_value.h"
#include "protocol/table_schema.h"

namespace dynamod::imports {

enum class InputFormat { DynamoDbJson, Ion, Csv };
enum class Compression { None, Gzip, Zstd };

std::optional<InputFormat> parse_input_format(std::string_view text);
std::string_view input_format_name(InputFormat format);
std::optional<Compression> parse_compression(std::string_view text);
std::string_view compression_name(Compression compression);

// InputFormatOptions.Csv.
struct CsvOptions {
  char delimiter = ',';
  // HeaderList: the columns of every file, whose first line is then data.
  std::optional<std::vector<std::string>> header_list;
};

// Where the records of an object go. `line` is the 1-based line the record
// starts on (0 for an error of the whole object).
class ItemSink {
 public:
  virtual ~ItemSink() = default;
  // `source_bytes`: the record's bytes in the (uncompressed) object.
  virtual void item(Item item, std::size_t line, std::size_t source_bytes) = 0;
  virtual void error(std::size_t line, std::string message) = 0;
};

// The uncompressed bytes of an object. A GZIP object may hold several members
// (as `cat a.gz b.gz` makes), a ZSTD object several frames. nullopt, with the
// reason in `why`, when the data is not what its compression says.
std::optional<std::string> decompress(std::string_view data, Compression compression, std::string& why);

// DYNAMODB_JSON: one {"Item":{...}} per line (as the service's exports write
// them); blank lines are skipped.
void read_dynamodb_json(std::string_view text, ItemSink& sink);

// ION: {Item:{...}} records in Ion text (as the service's ION exports write
// them, one per line after $ion_1_0).
void read_ion(std::string_view text, ItemSink& sink);

// A JSON array of items, each either {"Item":{...}} or the item itself
// ({"pk":{"S":"a"}, ...}): the data files of `--seed`. An object that is no
// such array is one error.
void read_item_array(std::string_view text, ItemSink& sink);

// CSV (RFC 4180: fields quoted with ", a quote inside one doubled, line breaks
// inside quotes kept). The first record is the header unless the options give
// HeaderList. Every value is a string (S), except that of an attribute in
// `key_attributes` (the table's and its indexes' key attributes, with their
// types from AttributeDefinitions): the service imports "all columns other
// than the hash range and keys of your base table and secondary indexes" as
// strings (developer guide, "Amazon S3 import formats for DynamoDB"). An empty
// field sets no attribute.
void read_csv(std::string_view text, const CsvOptions& options, const std::vector<AttributeDefinition>& key_attributes,
              ItemSink& sink);

}  // namespace dynamod::imports
