// Imports' records as LMDB keeps them: what DescribeImport shows after a
// restart is what was recorded, member for member.
#include <doctest/doctest.h>

#include <stdexcept>

#include "protocol/import_records.h"

using namespace dynamod;

TEST_CASE("an import's record reads back as it was written") {
  ImportRecord record;
  record.ns = "eu-west-1";
  record.account = "123456789012";
  record.digest = "digest of the request";
  ImportDescription& d = record.description;
  d.id = "01700000000000-0a1b2c3d";
  d.table_name = "orders";
  d.table_id = "f3b1c2d4-0000-4000-8000-000000000001";
  d.region = "eu-west-1";
  d.status = ImportStatus::Failed;
  d.client_token = "token-1";
  d.source = S3BucketSource{"bucket", std::string("111122223333"), std::string("data/")};
  d.format = imports::InputFormat::Csv;
  d.compression = imports::Compression::Zstd;
  d.format_options_json = R"({"Csv":{"Delimiter":";"}})";
  d.table_parameters_json = R"({"TableName":"orders"})";
  d.error_log = "/data/import-logs/orders.log";
  d.start_time = 1700000000.125;
  d.end_time = 1700000001.5;
  d.processed_size_bytes = 1234;
  d.processed_items = 10;
  d.imported_items = 8;
  d.errors = 2;
  d.failure_code = "InternalFailure";
  d.failure_message = "stopped";

  ImportRecord back = decode_import_record(encode_import_record(record));
  CHECK(back.ns == record.ns);
  CHECK(back.account == record.account);
  CHECK(back.digest == record.digest);
  const ImportDescription& b = back.description;
  CHECK(b.id == d.id);
  CHECK(b.table_name == d.table_name);
  CHECK(b.table_id == d.table_id);
  CHECK(b.region == d.region);
  CHECK(b.status == ImportStatus::Failed);
  CHECK(b.client_token == d.client_token);
  CHECK(b.source.bucket == "bucket");
  CHECK(b.source.owner == d.source.owner);
  CHECK(b.source.key_prefix == d.source.key_prefix);
  CHECK(b.format == imports::InputFormat::Csv);
  CHECK(b.compression == imports::Compression::Zstd);
  CHECK(b.format_options_json == d.format_options_json);
  CHECK(b.table_parameters_json == d.table_parameters_json);
  CHECK(b.error_log == d.error_log);
  CHECK(b.start_time == d.start_time);
  CHECK(b.end_time == d.end_time);
  CHECK(b.processed_size_bytes == 1234);
  CHECK(b.processed_items == 10);
  CHECK(b.imported_items == 8);
  CHECK(b.errors == 2);
  CHECK(b.failure_code == d.failure_code);
  CHECK(b.failure_message == d.failure_message);
}

TEST_CASE("an import in progress has no end, token or failure") {
  ImportRecord record;
  record.description.id = "01700000000000-00000001";
  record.description.source.bucket = "b";
  ImportRecord back = decode_import_record(encode_import_record(record));
  CHECK(back.description.status == ImportStatus::InProgress);
  CHECK_FALSE(back.description.end_time);
  CHECK_FALSE(back.description.client_token);
  CHECK_FALSE(back.description.source.key_prefix);
  CHECK_FALSE(back.description.failure_code);
}

TEST_CASE("a stored import that is not a record is an error") {
  CHECK_THROWS_AS(decode_import_record("[]"), std::runtime_error);
  CHECK_THROWS_AS(decode_import_record(R"({"status":"DONE"})"), std::runtime_error);
}
