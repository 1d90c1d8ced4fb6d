// Exports written from point-in-time recovery's history, with a clock the test
// moves: a FULL export at a past time, and INCREMENTAL exports of a period
// (which the service allows only 15 minutes to 24 hours long, too long for the
// integration tests to wait).
#include <doctest/doctest.h>
#include <simdjson.h>
#include <zlib.h>

#include <atomic>
#include <fstream>
#include <map>
#include <sstream>

#include "protocol/export_requests.h"
#include "protocol/item_requests.h"
#include "protocol/settings_requests.h"
#include "protocol/table_requests.h"
#include "storage/backup_ops.h"
#include "storage/bucket_store.h"
#include "storage/export_files.h"
#include "storage/export_ops.h"
#include "storage/item_ops.h"
#include "storage/table_ops.h"

using namespace dynamod;

namespace {

const Scope kScope{"us-east-1", "000000000000", false};
constexpr std::int64_t kStart = 1'700'000'000'000;  // ms
const std::string kArn = "arn:aws:dynamodb:us-east-1:000000000000:table/t_export";

template <typename Request, typename Decode>
Request parse_request(Decode fn, const std::string& text) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string json(text);
  simdjson::ondemand::document doc = parser.iterate(json);
  return fn(doc.get_object());
}

// A table t_export (pk S, sk N) with point-in-time recovery, and a clock.
struct Fixture {
  std::int64_t now_ms = kStart;
  Store store{StoreOptions{.in_memory = true, .clock_ms = [this] { return now_ms; }}};
  WriteQueue writer{store};
  storage::TemporaryFolder s3{"dynamod-export-test-"};
  storage::BucketStore buckets{s3.path()};

  Fixture() {
    TableSchema schema = validate_create_table(parse_request<CreateTableRequest>(decode_create_table, R"({
      "TableName": "t_export", "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]})"));
    writer.run_sync([&](WriteContext& ctx) { return ops::create_table(ctx, kScope, schema, seconds(), "uuid"); });
    UpdateContinuousBackupsRequest pitr;
    pitr.table_name = "t_export";
    pitr.has_specification = true;
    pitr.enabled = true;
    writer.run_sync([&](WriteContext& ctx) { return ops::update_continuous_backups(ctx, kScope, pitr, seconds()); });
    std::filesystem::create_directory(s3.path() / "bucket");
  }

  double seconds() const { return static_cast<double>(now_ms) / 1000.0; }

  void put(const std::string& pk, int v) {
    auto request = parse_request<PutItemRequest>(
        decode_put_item, R"({"TableName": "t_export", "Item": {"pk": {"S": ")" + pk +
                             R"("}, "sk": {"N": "1"}, "v": {"N": ")" + std::to_string(v) + R"("}}})");
    auto prepared = ops::prepare_put_item(store, kScope, request);
    writer.run_sync([&](WriteContext& ctx) { return ops::apply_put_item(ctx, prepared); });
  }

  void remove(const std::string& pk) {
    auto request = parse_request<DeleteItemRequest>(
        decode_delete_item, R"({"TableName": "t_export", "Key": {"pk": {"S": ")" + pk + R"("}, "sk": {"N": "1"}}})");
    auto prepared = ops::prepare_delete_item(store, kScope, request);
    writer.run_sync([&](WriteContext& ctx) { return ops::apply_delete_item(ctx, prepared); });
  }

  // Starts and writes an export; returns its record and every data line.
  std::pair<Export, std::vector<std::string>> run(const std::string& request_json) {
    ExportTableRequest request = parse_request<ExportTableRequest>(decode_export_table, request_json);
    ops::StartedExport started = writer.run_sync([&](WriteContext& ctx) {
      return ops::start_export(ctx, kScope, request, seconds(), "token-" + std::to_string(now_ms), "0123abcd");
    });
    Export record = started.record;
    std::atomic<bool> stopping{false};
    exports::write_export(
        store, buckets, store.catalog().find("us-east-1", "t_export")->schema, record, [this] { return seconds(); },
        stopping);
    std::vector<std::string> lines;
    std::ifstream manifest(buckets.path_of("bucket", export_folder_key(record) + "manifest-files.json"));
    std::string entry;
    while (std::getline(manifest, entry)) {
      simdjson::dom::parser parser;
      std::string_view key = parser.parse(entry)["dataFileS3Key"].get_string().value();
      gzFile gz = gzopen(buckets.path_of("bucket", key).c_str(), "rb");
      REQUIRE(gz != nullptr);
      std::string text;
      char buf[4096];
      for (int n; (n = gzread(gz, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
      gzclose(gz);
      std::istringstream split(text);
      for (std::string line; std::getline(split, line);) lines.push_back(line);
    }
    std::sort(lines.begin(), lines.end());
    return {record, lines};
  }
};

std::string incremental_request(std::int64_t from_ms, std::int64_t to_ms, const std::string& view,
                                const std::string& format = "DYNAMODB_JSON") {
  return R"({"TableArn": ")" + kArn + R"(", "S3Bucket": "bucket", "ExportType": "INCREMENTAL_EXPORT",
      "ExportFormat": ")" +
         format + R"(", "IncrementalExportSpecification": {"ExportFromTime": )" +
         std::to_string(static_cast<double>(from_ms) / 1000.0) + R"(, "ExportToTime": )" +
         std::to_string(static_cast<double>(to_ms) / 1000.0) + R"(, "ExportViewType": ")" + view + R"("}})";
}

}  // namespace

TEST_CASE("export: a FULL export at a past time holds the items as they were then") {
  Fixture f;
  f.now_ms += 1000;
  f.put("kept", 1);
  f.put("changed", 1);
  f.put("deleted", 1);
  f.now_ms += 1000;
  const std::int64_t then = f.now_ms;
  f.now_ms += 1000;
  f.put("changed", 2);
  f.remove("deleted");
  f.put("created", 1);
  f.now_ms += 1000;
  auto [record, lines] = f.run(R"({"TableArn": ")" + kArn + R"(", "S3Bucket": "bucket", "ExportTime": )" +
                               std::to_string(static_cast<double>(then) / 1000.0) + "}");
  CHECK(record.item_count == 3);
  CHECK(lines == std::vector<std::string>{
                     R"({"Item":{"pk":{"S":"changed"},"sk":{"N":"1"},"v":{"N":"1"}}})",
                     R"({"Item":{"pk":{"S":"deleted"},"sk":{"N":"1"},"v":{"N":"1"}}})",
                     R"({"Item":{"pk":{"S":"kept"},"sk":{"N":"1"},"v":{"N":"1"}}})",
                 });
}

TEST_CASE("export: an INCREMENTAL export holds each item changed in its period, once") {
  Fixture f;
  f.now_ms += 1000;
  f.put("updated", 1);
  f.put("deleted", 1);
  f.put("untouched", 1);
  f.put("changed-after", 1);
  f.now_ms += 1000;
  const std::int64_t from = f.now_ms;  // inclusive: this millisecond's writes are in the period
  f.put("updated", 2);
  f.now_ms += 1000;
  f.put("updated", 3);
  const std::int64_t last_update = f.now_ms;
  f.remove("deleted");
  f.put("inserted", 1);
  f.put("gone-again", 1);
  f.remove("gone-again");
  f.put("changed-after", 2);
  const std::int64_t to = from + 20 * 60 * 1000;
  f.now_ms = to;  // exclusive: a write at ExportToTime is after the period
  f.put("changed-after", 3);
  f.put("updated", 4);
  f.now_ms += 60 * 1000;

  auto [both, lines] = f.run(incremental_request(from, to, "NEW_AND_OLD_IMAGES"));
  CHECK(both.item_count == 4);
  const std::string micros = std::to_string(last_update * 1000);
  CHECK(
      lines ==
      std::vector<std::string>{
          R"({"Metadata":{"WriteTimestampMicros":{"N":")" + micros +
              R"("}},"Keys":{"pk":{"S":"changed-after"},"sk":{"N":"1"}},"OldImage":{"pk":{"S":"changed-after"},"sk":{"N":"1"},"v":{"N":"1"}},"NewImage":{"pk":{"S":"changed-after"},"sk":{"N":"1"},"v":{"N":"2"}}})",
          R"({"Metadata":{"WriteTimestampMicros":{"N":")" + micros +
              R"("}},"Keys":{"pk":{"S":"deleted"},"sk":{"N":"1"}},"OldImage":{"pk":{"S":"deleted"},"sk":{"N":"1"},"v":{"N":"1"}}})",
          R"({"Metadata":{"WriteTimestampMicros":{"N":")" + micros +
              R"("}},"Keys":{"pk":{"S":"inserted"},"sk":{"N":"1"}},"NewImage":{"pk":{"S":"inserted"},"sk":{"N":"1"},"v":{"N":"1"}}})",
          R"({"Metadata":{"WriteTimestampMicros":{"N":")" + micros +
              R"("}},"Keys":{"pk":{"S":"updated"},"sk":{"N":"1"}},"OldImage":{"pk":{"S":"updated"},"sk":{"N":"1"},"v":{"N":"1"}},"NewImage":{"pk":{"S":"updated"},"sk":{"N":"1"},"v":{"N":"3"}}})",
      });

  // A later request: its own ClientToken (the clock moved).
  f.now_ms += 1;
  auto [news, new_lines] = f.run(incremental_request(from, to, "NEW_IMAGE"));
  CHECK(news.item_count == 4);
  CHECK(new_lines[1] == R"({"Metadata":{"WriteTimestampMicros":{"N":")" + micros +
                            R"("}},"Keys":{"pk":{"S":"deleted"},"sk":{"N":"1"}}})");
  CHECK(new_lines[3].find("OldImage") == std::string::npos);

  f.now_ms += 1;
  auto [ion, ion_lines] = f.run(incremental_request(from, to, "NEW_AND_OLD_IMAGES", "ION"));
  CHECK(ion_lines[3] == "$ion_1_0 {Record:{Keys:{pk:\"updated\",sk:1.},Metadata:{WriteTimestampMicros:" + micros +
                            "},OldImage:{pk:\"updated\",sk:1.,v:1.},NewImage:{pk:\"updated\",sk:1.,v:3.}}}");
  // The incremental layout: data in the prefix's shared AWSDynamoDB/data/, the manifests in the export's folder.
  CHECK(export_data_key(ion) == "AWSDynamoDB/data/");
  std::ifstream summary(f.buckets.path_of("bucket", ion.manifest));
  std::string text((std::istreambuf_iterator<char>(summary)), std::istreambuf_iterator<char>());
  CHECK(text.find(R"("version":"2023-08-01")") != std::string::npos);
  CHECK(text.find(R"("exportFromTime":"2023-11-14T22:13:22.000Z","exportToTime":"2023-11-14T22:33:22.000Z")") !=
        std::string::npos);
  CHECK(text.find(R"("outputFormat":"ION","outputView":"NEW_AND_OLD_IMAGES","exportType":"INCREMENTAL_EXPORT"})") !=
        std::string::npos);
}

TEST_CASE("export: an INCREMENTAL period must be 15 minutes to 24 hours inside the recovery window") {
  Fixture f;
  const std::int64_t from = f.now_ms;
  f.now_ms += 25LL * 3600 * 1000;
  auto refused = [&](std::int64_t a, std::int64_t b) {
    ExportTableRequest request =
        parse_request<ExportTableRequest>(decode_export_table, incremental_request(a, b, "NEW_IMAGE"));
    try {
      f.writer.run_sync(
          [&](WriteContext& ctx) { return ops::start_export(ctx, kScope, request, f.seconds(), "t", "0123abcd"); });
    } catch (const ApiError& e) {
      return e.code() == ErrorCode::InvalidExportTimeException ? e.message() : std::string("other");
    }
    return std::string("accepted");
  };
  CHECK(refused(from, from + 15 * 60 * 1000 - 1) ==
        "Difference between export period start and end times must be at least 15 minutes");
  CHECK(refused(from, from + 24 * 3600 * 1000 + 1) ==
        "Difference between export period start and end times must not be more than 24 hours");
  CHECK(refused(from - 1, from + 3600 * 1000) ==
        "ExportFromTime must be between EarliestRestorableDateTime and LatestRestorableDateTime");
  CHECK(refused(from, from + 15 * 60 * 1000) == "accepted");
}
