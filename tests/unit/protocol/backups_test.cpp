// Backup ARNs, the schema a restore creates, and the restore summary in the catalog.
#include <doctest/doctest.h>

#include "protocol/backup_requests.h"
#include "protocol/backups.h"
#include "storage/schema_codec.h"

using namespace dynamod;

namespace {

TableSchema indexed_source() {
  TableSchema t;
  t.name = "source";
  t.key = KeyDef{{"pk", ScalarType::S}, KeyElement{"sk", ScalarType::N}};
  t.attribute_definitions = {{"pk", ScalarType::S}, {"sk", ScalarType::N}, {"g", ScalarType::B}, {"l", ScalarType::S}};
  t.billing_mode = BillingMode::Provisioned;
  t.throughput.read_units = 5;
  t.throughput.write_units = 6;
  IndexSchema gsi;
  gsi.name = "by_g";
  gsi.key = KeyDef{{"g", ScalarType::B}, std::nullopt};
  gsi.throughput = Throughput{2, 3};
  t.global_indexes.push_back(gsi);
  IndexSchema lsi;
  lsi.name = "by_l";
  lsi.key = KeyDef{{"pk", ScalarType::S}, KeyElement{"l", ScalarType::S}};
  lsi.projection = Projection{ProjectionType::Include, {"v"}};
  t.local_indexes.push_back(lsi);
  t.stream = StreamSpec{true, StreamViewType::KeysOnly, 7, "label"};
  t.tags = {{"k", "v"}};
  return t;
}

}  // namespace

TEST_CASE("a backup ARN is its table's ARN, /backup/ and the id") {
  Backup backup;
  backup.id = "01576616366715-b4e58d3a";
  backup.table.name = "Music.Collection_1";
  const std::string arn = backup_arn({"eu-west-1", "123456789012"}, backup);
  CHECK(arn == "arn:aws:dynamodb:eu-west-1:123456789012:table/Music.Collection_1/backup/01576616366715-b4e58d3a");
  auto parts = parse_backup_arn(arn);
  REQUIRE(parts);
  CHECK(parts->region == "eu-west-1");
  CHECK(parts->account == "123456789012");
  CHECK(parts->table == "Music.Collection_1");
  CHECK(parts->id == "01576616366715-b4e58d3a");
  CHECK_FALSE(parse_backup_arn("arn:aws:dynamodb:eu-west-1:123456789012:table/t"));
  CHECK_FALSE(parse_backup_arn("arn:aws:dynamodb:eu-west-1:123456789012:table/t/backup/"));
  CHECK_FALSE(parse_backup_arn("arn:aws:dynamodb:eu-west-1:123456789012:table/t/backup/a/b"));
  CHECK_FALSE(parse_backup_arn("arn:aws:dynamodb:eu-west-1:table/t/backup/01576616366715-b4e58d3a"));
}

TEST_CASE("a restore keeps the backup's keys, indexes and capacity, and drops streams and tags") {
  TableSchema restored = restored_schema(indexed_source(), "target", RestoreOverrides{});
  CHECK(restored.name == "target");
  CHECK(restored.key == indexed_source().key);
  CHECK(restored.attribute_definitions == indexed_source().attribute_definitions);
  CHECK(restored.billing_mode == BillingMode::Provisioned);
  CHECK(restored.throughput.read_units == 5);
  REQUIRE(restored.global_indexes.size() == 1);
  CHECK(restored.global_indexes[0].throughput->write_units == 3);
  REQUIRE(restored.local_indexes.size() == 1);
  CHECK(restored.local_indexes[0].projection == Projection{ProjectionType::Include, {"v"}});
  CHECK_FALSE(restored.stream);
  CHECK(restored.tags.empty());
}

TEST_CASE("a restore's overrides: on demand, without the indexes and their definitions") {
  RestoreOverrides overrides;
  overrides.billing_mode = "PAY_PER_REQUEST";
  overrides.global_indexes.emplace();
  overrides.local_indexes.emplace();
  TableSchema restored = restored_schema(indexed_source(), "target", overrides);
  CHECK(restored.billing_mode == BillingMode::PayPerRequest);
  CHECK(restored.global_indexes.empty());
  CHECK(restored.local_indexes.empty());
  CHECK(restored.attribute_definitions ==
        std::vector<AttributeDefinition>{{"pk", ScalarType::S}, {"sk", ScalarType::N}});
}

TEST_CASE("an override index on an attribute the backup does not define is CreateTable's error") {
  RestoreOverrides overrides;
  RawIndex index;
  index.index_name = "by_z";
  index.key_schema = std::vector<RawKeyElement>{{std::string("z"), std::string("HASH")}};
  index.projection = RawProjection{std::string("ALL"), std::nullopt};
  index.throughput = RawThroughput{1, 1};
  overrides.global_indexes = std::vector<RawIndex>{index};
  std::string message;
  try {
    restored_schema(indexed_source(), "target", overrides);
  } catch (const ApiError& e) {
    message = e.message();
  }
  CHECK(message ==
        "One or more parameter values were invalid: Some index key attributes are not defined in "
        "AttributeDefinitions. Keys: [z], AttributeDefinitions: [pk, sk, l]");  // l: the LSI stays
}

TEST_CASE("the restore summary survives the catalog") {
  TableSchema schema = indexed_source();
  schema.restore = RestoreSummary{"arn:backup", "arn:table", 1700000000.5};
  CHECK(decode_schema(encode_schema(schema)).restore == schema.restore);
  schema.restore.reset();
  CHECK_FALSE(decode_schema(encode_schema(schema)).restore);
}
