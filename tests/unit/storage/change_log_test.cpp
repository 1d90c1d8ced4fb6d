// The change log (storage/change_log.h): acknowledged writes survive a crash
// whatever subset of LMDB's unsynced pages reached the disk, a torn last
// record is ignored, a damaged log is refused, and a directory has one owner.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "protocol/item_requests.h"
#include "protocol/read_requests.h"
#include "protocol/table_requests.h"
#include "storage/item_ops.h"
#include "storage/parse_request.h"
#include "storage/read_ops.h"
#include "storage/table_ops.h"
#include "storage/write_queue.h"

using namespace dynamod;
namespace fs = std::filesystem;

namespace {

const Scope kScope{"us-east-1", "000000000000", false};

using test::parse_request;

void create_table(WriteQueue& writer, const std::string& name) {
  TableSchema schema = validate_create_table(parse_request<CreateTableRequest>(decode_create_table, R"({
      "TableName": ")" + name + R"(", "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})"));
  writer.run_sync([&](WriteContext& ctx) { return ops::create_table(ctx, kScope, schema, 1.0, "uuid"); });
}

void put(Store& store, WriteQueue& writer, const std::string& table, int key, const std::string& value) {
  auto request = parse_request<PutItemRequest>(
      decode_put_item, R"({"TableName": ")" + table + R"(", "Item": {"pk": {"S": "k)" + std::to_string(key) +
                           R"("}, "v": {"S": ")" + value + R"("}}})");
  auto prepared = ops::prepare_put_item(store, kScope, request);
  writer.run_sync([&](WriteContext& ctx) { return ops::apply_put_item(ctx, prepared); });
}

void remove(Store& store, WriteQueue& writer, int key) {
  auto request = parse_request<DeleteItemRequest>(
      decode_delete_item, R"({"TableName": "tbl", "Key": {"pk": {"S": "k)" + std::to_string(key) + R"("}}})");
  auto prepared = ops::prepare_delete_item(store, kScope, request);
  writer.run_sync([&](WriteContext& ctx) { return ops::apply_delete_item(ctx, prepared); });
}

std::optional<std::string> get(Store& store, int key) {
  auto request = parse_request<GetItemRequest>(
      decode_get_item, R"({"TableName": "tbl", "Key": {"pk": {"S": "k)" + std::to_string(key) + R"("}}})");
  return ops::get_item(store, kScope, request).item_json;
}

std::string expected_item(int key, const std::string& value) {
  return R"({"pk":{"S":"k)" + std::to_string(key) + R"("},"v":{"S":")" + value + R"("}})";
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

struct TempDir {
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("dynamod-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  fs::path path;
};

// No checkpoint but the ones a test asks for.
StoreOptions on_disk(const fs::path& dir) {
  StoreOptions options{.path = dir.string()};
  options.checkpoint_limits = ChangeLog::Limits{.max_bytes = 1ull << 20, .max_age = std::chrono::hours(1)};
  return options;
}

// A data directory as a power cut could leave it: data.mdb page by page from
// what was on disk at the checkpoint or from what the page cache held later
// (`later_share` of them), with the change log as synced.
void crash_copy(const fs::path& to, const std::string& at_checkpoint, const std::string& later,
                const std::string& log, double later_share, unsigned seed) {
  fs::create_directories(to);
  constexpr std::size_t kPage = 4096;
  std::string data = later;
  std::mt19937 random(seed);
  std::bernoulli_distribution from_later(later_share);
  for (std::size_t at = 0; at < data.size(); at += kPage) {
    if (from_later(random)) continue;
    if (at < at_checkpoint.size()) {
      data.replace(at, kPage, at_checkpoint, at, kPage);
    } else {
      // Never written before the cut: whatever the disk had there.
      for (std::size_t i = at; i < std::min(data.size(), at + kPage); ++i) data[i] = static_cast<char>(random());
    }
  }
  write_file(to / "data.mdb", data);
  write_file(to / "changes.log", log);
}

}  // namespace

TEST_CASE("change log: acknowledged writes survive a crash, whichever unsynced pages reached the disk") {
  TempDir dir("crash");
  std::string at_checkpoint, later, log;
  {
    Store store(on_disk(dir.path));
    {
      WriteQueue writer(store);
      create_table(writer, "tbl");
      for (int i = 0; i < 200; ++i) put(store, writer, "tbl", i, "first");
    }
    store.checkpoint();  // the writer is stopped: nothing commits meanwhile
    at_checkpoint = read_file(dir.path / "data.mdb");
    WriteQueue writer(store);
    // Each write its own commit: LMDB would reuse the checkpoint's pages at once
    // if the log's snapshot did not hold them.
    for (int i = 0; i < 200; i += 2) put(store, writer, "tbl", i, "second");
    for (int i = 1; i < 200; i += 4) remove(store, writer, i);
    for (int i = 200; i < 400; ++i) put(store, writer, "tbl", i, "new");
    create_table(writer, "gone");
    for (int i = 0; i < 50; ++i) put(store, writer, "gone", i, "x");
    writer.run_sync([&](WriteContext& ctx) { return ops::delete_table(ctx, kScope, "gone"); });
    later = read_file(dir.path / "data.mdb");
    log = read_file(dir.path / "changes.log");
  }
  REQUIRE(later.size() > at_checkpoint.size());

  for (double later_share : {0.0, 0.5, 0.9, 1.0}) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
      CAPTURE(later_share);
      CAPTURE(seed);
      TempDir copy("crash-copy");
      crash_copy(copy.path, at_checkpoint, later, log, later_share, seed);
      Store store(on_disk(copy.path));
      int items = 0;
      for (int i = 0; i < 400; ++i) {
        std::optional<std::string> expected;
        if (i >= 200) {
          expected = expected_item(i, "new");
        } else if (i % 2 == 0) {
          expected = expected_item(i, "second");
        } else if (i % 4 != 1) {
          expected = expected_item(i, "first");
        }
        CHECK(get(store, i) == expected);
        items += expected ? 1 : 0;
      }
      CHECK(ops::describe_table(store, kScope, "tbl").counters.item_count == items);
      CHECK_THROWS_AS(ops::describe_table(store, kScope, "gone"), ApiError);
    }
  }
}

TEST_CASE("change log: a record cut short by a crash is ignored; a damaged header is refused") {
  TempDir dir("torn");
  std::string data, log;
  {
    Store store(on_disk(dir.path));
    WriteQueue writer(store);
    create_table(writer, "tbl");
    put(store, writer, "tbl", 1, "kept");
    data = read_file(dir.path / "data.mdb");
    log = read_file(dir.path / "changes.log");
  }
  // Past the header (magic, version, page size, transaction id, two 4 KB meta
  // pages, hash), each record is a 4-byte length, an 8-byte hash and the payload.
  std::size_t used = 16 + 16 + 2 * 4096 + 8;
  for (std::uint32_t length; std::memcpy(&length, log.data() + used, 4), length != 0;) used += 12 + length;

  SUBCASE("torn record") {
    // A record whose length and hash landed but whose payload did not.
    std::string torn = log;
    const std::string record_header = "\x40\x00\x00\x00" "12345678";
    torn.replace(used, record_header.size(), record_header);
    TempDir copy("torn-copy");
    write_file(copy.path / "data.mdb", data);
    write_file(copy.path / "changes.log", torn);
    Store store(on_disk(copy.path));
    CHECK(get(store, 1) == expected_item(1, "kept"));
  }
  SUBCASE("damaged header") {
    std::string damaged = log;
    damaged[20] ^= 0x01;  // inside the page size field
    TempDir copy("damaged-copy");
    write_file(copy.path / "data.mdb", data);
    write_file(copy.path / "changes.log", damaged);
    CHECK_THROWS_WITH(Store(on_disk(copy.path)), doctest::Contains("is not a dynamod change log or is damaged"));
  }
  SUBCASE("log without data") {
    TempDir copy("nodata-copy");
    write_file(copy.path / "changes.log", log);
    CHECK_THROWS_WITH(Store(on_disk(copy.path)), doctest::Contains("has a change log but no data.mdb"));
  }
}

TEST_CASE("change log: one store per data directory") {
  TempDir dir("locked");
  Store first(on_disk(dir.path));
  CHECK_THROWS_WITH(Store(on_disk(dir.path)), doctest::Contains("is in use by another dynamod"));
}

TEST_CASE("change log: relaxed durability answers before syncing and still reopens whole") {
  TempDir dir("relaxed");
  StoreOptions options = on_disk(dir.path);
  options.durability = StoreOptions::Durability::Relaxed;
  {
    Store store(options);
    CHECK(!store.commits_wait_for_sync());
    WriteQueue writer(store);
    create_table(writer, "tbl");
    for (int i = 0; i < 20; ++i) put(store, writer, "tbl", i, "r");
  }
  Store store(options);
  for (int i = 0; i < 20; ++i) CHECK(get(store, i) == expected_item(i, "r"));
}
