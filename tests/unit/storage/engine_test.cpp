// The engine without sockets: table and item operations through the store and
// its writer, including persistence across a reopen and group commit.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <thread>

#include "protocol/item_requests.h"
#include "protocol/read_requests.h"
#include "protocol/table_requests.h"
#include "storage/backup_ops.h"
#include "storage/item_ops.h"
#include "storage/pitr.h"
#include "storage/read_ops.h"
#include "storage/schema_codec.h"
#include "storage/table_ops.h"

using namespace dynamod;

namespace {

template <typename Request, typename Decode>
Request parse_request(Decode fn, const std::string& text) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string json(text);
  simdjson::ondemand::document doc = parser.iterate(json);
  return fn(doc.get_object());
}

const Scope kScope{"us-east-1", "000000000000", false};

void create_table(WriteQueue& writer, const std::string& name) {
  TableSchema schema = validate_create_table(parse_request<CreateTableRequest>(decode_create_table, R"({
      "TableName": ")" + name + R"(", "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]})"));
  writer.run_sync([&](WriteContext& ctx) { return ops::create_table(ctx, kScope, schema, 1.0, "uuid"); });
}

void put(Store& store, WriteQueue& writer, const std::string& item_json) {
  auto request =
      parse_request<PutItemRequest>(decode_put_item, R"({"TableName": "t_items", "Item": )" + item_json + "}");
  auto prepared = ops::prepare_put_item(store, kScope, request);
  writer.run_sync([&](WriteContext& ctx) { return ops::apply_put_item(ctx, prepared); });
}

// A fresh directory for an on-disk store, removed at the end of the test.
struct TempDir {
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("dynamod-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string string() const { return path.string(); }
  std::filesystem::path path;
};

std::optional<std::string> get(Store& store, const std::string& key_json) {
  auto request = parse_request<GetItemRequest>(decode_get_item, R"({"TableName": "t_items", "Key": )" + key_json + "}");
  return ops::get_item(store, kScope, request).item_json;
}

}  // namespace

TEST_CASE("engine: put, get, overwrite and delete an item; counters follow") {
  Store store(StoreOptions{.in_memory = true});
  // The in-memory database is unlinked at once: a killed process leaves nothing behind.
  CHECK(!std::filesystem::exists(store.path()));
  WriteQueue writer(store);
  create_table(writer, "t_items");
  put(store, writer, R"({"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "one"}})");
  put(store, writer, R"({"pk": {"S": "a"}, "sk": {"N": "1e0"}, "v": {"S": "uno"}})");
  CHECK(get(store, R"({"pk": {"S": "a"}, "sk": {"N": "1.0"}})") ==
        std::optional<std::string>(R"({"pk":{"S":"a"},"sk":{"N":"1"},"v":{"S":"uno"}})"));
  CHECK(!get(store, R"({"pk": {"S": "a"}, "sk": {"N": "2"}})"));
  auto described = ops::describe_table(store, kScope, "t_items");
  CHECK(described.counters.item_count == 1);
  auto del = parse_request<DeleteItemRequest>(decode_delete_item,
                                              R"({"TableName": "t_items", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}},
                                           "ReturnValues": "ALL_OLD"})");
  auto prepared = ops::prepare_delete_item(store, kScope, del);
  auto result = writer.run_sync([&](WriteContext& ctx) { return ops::apply_delete_item(ctx, prepared); });
  CHECK(result.attributes_json.has_value());
  CHECK(!get(store, R"({"pk": {"S": "a"}, "sk": {"N": "1"}})"));
  CHECK(ops::describe_table(store, kScope, "t_items").counters.item_count == 0);
}

TEST_CASE("engine: data and counters survive closing and reopening the store") {
  TempDir dir("engine-test");
  {
    Store store(StoreOptions{.path = dir.string()});
    WriteQueue writer(store);
    create_table(writer, "t_items");
    put(store, writer, R"({"pk": {"S": "kept"}, "sk": {"N": "5"}})");
  }
  {
    Store store(StoreOptions{.path = dir.string()});
    CHECK(get(store, R"({"pk": {"S": "kept"}, "sk": {"N": "5"}})").has_value());
    CHECK(ops::describe_table(store, kScope, "t_items").counters.item_count == 1);
  }
}

TEST_CASE("engine: the attribute name dictionary is saved with the records that use it") {
  TempDir dir("names-test");
  {
    Store store(StoreOptions{.path = dir.string()});
    WriteQueue writer(store);
    create_table(writer, "t_items");
    put(store, writer, R"({"pk": {"S": "a"}, "sk": {"N": "1"}, "colour": {"S": "red"}})");
    // Numbered while preparing a write that never ran: saved with the next group all the same.
    CHECK(store.names().id_of("orphan").has_value());
    put(store, writer, R"({"pk": {"S": "b"}, "sk": {"N": "2"}, "size": {"N": "3"}})");
  }
  {
    Store store(StoreOptions{.path = dir.string()});
    CHECK(store.names().size() == 5);  // pk, sk, colour, orphan, size
    CHECK(get(store, R"({"pk": {"S": "a"}, "sk": {"N": "1"}})") ==
          std::optional<std::string>(R"({"colour":{"S":"red"},"pk":{"S":"a"},"sk":{"N":"1"}})"));
    CHECK(get(store, R"({"pk": {"S": "b"}, "sk": {"N": "2"}})") ==
          std::optional<std::string>(R"({"pk":{"S":"b"},"size":{"N":"3"},"sk":{"N":"2"}})"));
  }
}

TEST_CASE("engine: a format 1 data directory is upgraded in place; an unknown format is refused") {
  TempDir dir("format-test");
  auto set_format = [&](std::string_view format) {
    Store store(StoreOptions{.path = dir.string()});
    lmdb::WriteTxn txn(store.env());
    txn.put(store.dbs().meta, "format", format);
    txn.commit();
  };
  auto format = [&] {
    Store store(StoreOptions{.path = dir.string()});
    return std::string(*store.read().get(store.dbs().meta, "format"));
  };
  set_format("1");
  CHECK(format() == "2");
  set_format("3");
  CHECK_THROWS_WITH(Store(StoreOptions{.path = dir.string()}),
                    doctest::Contains("has format 3, this dynamod reads formats 1 and 2"));
}

TEST_CASE("engine: a table of index_key_format 1 answers index queries at every entry") {
  // Tables created before index_key_format 2 have no 01 after an index sort key; in them the
  // entries of p63, p264 and p1970 (table-key hashes starting with FF) once read wrongly.
  Store store(StoreOptions{.in_memory = true});
  WriteQueue writer(store);
  TableSchema schema = validate_create_table(parse_request<CreateTableRequest>(decode_create_table, R"({
      "TableName": "t_items", "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"},
                               {"AttributeName": "g", "AttributeType": "S"}, {"AttributeName": "gs", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
      "GlobalSecondaryIndexes": [{"IndexName": "by_gs", "Projection": {"ProjectionType": "KEYS_ONLY"},
          "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}, {"AttributeName": "gs", "KeyType": "RANGE"}]}]})"));
  writer.run_sync([&](WriteContext& ctx) {
    ops::create_table(ctx, kScope, schema, 1.0, "uuid");
    auto old = std::make_shared<Table>(*ctx.find_table(kScope.ns(), "t_items"));
    old->schema.index_key_format = 1;
    ctx.txn().put(ctx.dbs().catalog, Store::catalog_key(old->ns, old->schema.name), encode_schema(old->schema));
    ctx.stage_table(old);
    return 0;
  });
  const std::vector<std::string> pks = {"p1", "p63", "p264", "p1970", "p2"};
  for (std::size_t n = 0; n < pks.size(); ++n) {
    put(store, writer,
        R"({"pk": {"S": ")" + pks[n] + R"("}, "sk": {"N": "1"}, "g": {"S": "G"}, "gs": {"S": "v)" + std::to_string(n) +
            R"("}})");
  }
  TablePtr table = store.catalog().find(kScope.ns(), "t_items");
  REQUIRE(table->schema.index_key_format == 1);
  auto count = [&](const std::string& condition, std::size_t n, bool forward) {
    auto request = parse_request<QueryRequest>(
        decode_query, R"({"TableName": "t_items", "IndexName": "by_gs",
        "KeyConditionExpression": "g = :g AND )" +
                          condition + R"(", "ScanIndexForward": )" + (forward ? "true" : "false") +
                          R"(, "ExpressionAttributeValues": {":g": {"S": "G"}, ":v": {"S": "v)" + std::to_string(n) +
                          R"("}}})");
    return ops::run_query(store, *table, validate_query(request, table->schema)).count;
  };
  for (std::size_t n = 0; n < pks.size(); ++n) {
    for (bool forward : {true, false}) {
      INFO(pks[n], forward ? " forward" : " backward");
      CHECK(count("gs = :v", n, forward) == 1);
      CHECK(count("gs <= :v", n, forward) == static_cast<std::int64_t>(n + 1));
      CHECK(count("gs > :v", n, forward) == static_cast<std::int64_t>(pks.size() - n - 1));
    }
  }
}

TEST_CASE("engine: concurrent writers are grouped and each keeps its own outcome") {
  Store store(StoreOptions{.in_memory = true});
  WriteQueue writer(store);
  create_table(writer, "t_items");
  std::vector<std::future<void>> clients;
  for (int c = 0; c < 8; ++c) {
    clients.push_back(std::async(std::launch::async, [&, c] {
      for (int i = 0; i < 50; ++i) {
        put(store, writer,
            R"({"pk": {"S": "c)" + std::to_string(c) + R"("}, "sk": {"N": ")" + std::to_string(i) + R"("}})");
      }
    }));
  }
  // A job that fails validation inside the group fails alone.
  CHECK_THROWS_AS(writer.run_sync([&](WriteContext&) -> int { throw ApiError::validation("expected"); }), ApiError);
  for (auto& f : clients) f.get();
  CHECK(ops::describe_table(store, kScope, "t_items").counters.item_count == 400);
}

// A request's write as the server submits it, waited for here; the thread
// that ran it is its outcome.
std::thread::id write_request(WriteQueue& writer, std::function<void(WriteContext&)> body) {
  auto fn = [body = std::move(body)](WriteContext& ctx) {
    body(ctx);
    return std::this_thread::get_id();
  };
  std::promise<Outcome<std::thread::id>> done;
  auto complete = [&done](Outcome<std::thread::id> outcome) { done.set_value(std::move(outcome)); };
  writer.submit_request(
      std::make_unique<CallableJob<std::thread::id, decltype(fn), decltype(complete)>>(std::move(fn), complete));
  return done.get_future().get().take();
}

TEST_CASE("engine: requests may write on their own thread when nothing else writes") {
  Store store(StoreOptions{.in_memory = true});
  SUBCASE("on the caller when idle: the caller runs the group, queued requests join it, background work does not") {
    WriteQueue writer(store, WriteQueue::RequestWrites::on_caller_when_idle);
    create_table(writer, "t_items");
    // The writer thread may still be finishing create_table's group (its outcome is posted
    // before the thread goes idle): on a loaded machine the first request can find it busy
    // and queue. Once it is idle, a request runs on its caller.
    bool on_caller = false;
    int empty_requests = 0;
    while (empty_requests < 200 && !on_caller) {
      ++empty_requests;
      on_caller = write_request(writer, [](WriteContext&) {}) == std::this_thread::get_id();
      if (!on_caller) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    CHECK(on_caller);
    // Requests from many threads at once: each writes once, whoever writes at the time.
    std::vector<std::future<void>> clients;
    for (int c = 0; c < 8; ++c) {
      clients.push_back(std::async(std::launch::async, [&, c] {
        for (int i = 0; i < 50; ++i) {
          auto request = parse_request<PutItemRequest>(
              decode_put_item, R"({"TableName": "t_items", "Item": {"pk": {"S": "c)" + std::to_string(c) +
                                   R"("}, "sk": {"N": ")" + std::to_string(i) + R"("}}})");
          auto prepared = ops::prepare_put_item(store, kScope, request);
          write_request(writer, [&](WriteContext& ctx) { ops::apply_put_item(ctx, prepared); });
        }
      }));
    }
    for (auto& f : clients) f.get();
    CHECK(ops::describe_table(store, kScope, "t_items").counters.item_count == 400);
    CHECK(writer.totals().requests == 401u + empty_requests);  // the table, the empty requests, the puts
    // Background work stays on the writer thread.
    CHECK(writer.run_sync([](WriteContext&) { return std::this_thread::get_id(); }) != std::this_thread::get_id());
  }
  SUBCASE("on the writer thread: never on the caller") {
    WriteQueue writer(store);
    CHECK(write_request(writer, [](WriteContext&) {}) != std::this_thread::get_id());
  }
  SUBCASE("a request's ApiError is its own outcome on the caller too") {
    WriteQueue writer(store, WriteQueue::RequestWrites::on_caller_when_idle);
    CHECK_THROWS_AS(write_request(writer, [](WriteContext&) { throw ApiError::validation("expected"); }), ApiError);
    CHECK(write_request(writer, [](WriteContext&) {}) == std::this_thread::get_id());
  }
}

TEST_CASE("engine: a table is gone for writes queued behind its deletion") {
  Store store(StoreOptions{.in_memory = true});
  WriteQueue writer(store);
  create_table(writer, "t_items");
  auto request = parse_request<PutItemRequest>(
      decode_put_item, R"({"TableName": "t_items", "Item": {"pk": {"S": "x"}, "sk": {"N": "1"}}})");
  auto prepared = ops::prepare_put_item(store, kScope, request);
  writer.run_sync([&](WriteContext& ctx) { return ops::delete_table(ctx, kScope, "t_items"); });
  CHECK_THROWS_AS(writer.run_sync([&](WriteContext& ctx) { return ops::apply_put_item(ctx, prepared); }), ApiError);
  CHECK_THROWS_AS(ops::describe_table(store, kScope, "t_items"), ApiError);
}

TEST_CASE("engine: one store per data directory") {
  TempDir dir("lock-test");
  {
    Store first(StoreOptions{.path = dir.string()});
    const std::string message = "data directory " + dir.string() + " is in use by another dynamod";
    CHECK_THROWS_WITH(Store(StoreOptions{.path = dir.string()}), doctest::Contains(message.c_str()));
  }
  // Released with the store.
  CHECK_NOTHROW(Store(StoreOptions{.path = dir.string()}));
}

namespace {

void enable_recovery(WriteQueue& writer, double now) {
  UpdateContinuousBackupsRequest pitr;
  pitr.table_name = "t_items";
  pitr.has_specification = true;
  pitr.enabled = true;
  writer.run_sync([&](WriteContext& ctx) { return ops::update_continuous_backups(ctx, kScope, pitr, now); });
}

}  // namespace

TEST_CASE("engine: deleting a table with point-in-time recovery leaves a SYSTEM backup for 35 days") {
  std::int64_t now_ms = 1'700'000'000'000;
  Store store(StoreOptions{.in_memory = true, .clock_ms = [&] { return now_ms; }});
  WriteQueue writer(store);
  create_table(writer, "t_items");
  put(store, writer, R"({"pk": {"S": "a"}, "sk": {"N": "1"}})");
  enable_recovery(writer, 1.0);
  writer.run_sync([&](WriteContext& ctx) { return ops::delete_table(ctx, kScope, "t_items"); });

  ListBackupsRequest system;
  system.backup_type = "SYSTEM";
  std::vector<Backup> kept = ops::list_backups(store, kScope, system).backups;
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].name == "t_items$DeletedTableBackup");
  CHECK(kept[0].type == BackupType::System);
  CHECK(kept[0].counters.item_count == 1);
  CHECK(kept[0].expires == doctest::Approx(1'700'000'000.0 + 35 * 86400));
  CHECK(ops::list_backups(store, kScope, ListBackupsRequest{}).backups.empty());  // USER by default

  now_ms += 35LL * 86400 * 1000 - 1000;  // a second before the end: kept
  writer.run_sync([&](WriteContext& ctx) {
    ops::expire_system_backups(ctx, static_cast<double>(now_ms) / 1000.0);
    return true;
  });
  CHECK(ops::list_backups(store, kScope, system).backups.size() == 1);
  now_ms += 1000;
  writer.run_sync([&](WriteContext& ctx) {
    ops::expire_system_backups(ctx, static_cast<double>(now_ms) / 1000.0);
    return true;
  });
  CHECK(ops::list_backups(store, kScope, system).backups.empty());
  // (Its items went with it.)
  CHECK_FALSE(store.read().cursor(store.dbs().backup_items).first());
}

namespace {

std::optional<std::string> get_from(Store& store, const std::string& table, const std::string& key_json) {
  auto request =
      parse_request<GetItemRequest>(decode_get_item, R"({"TableName": ")" + table + R"(", "Key": )" + key_json + "}");
  return ops::get_item(store, kScope, request).item_json;
}

}  // namespace

TEST_CASE("engine: a point-in-time restore brings back each item as it was at the time asked") {
  std::int64_t now_ms = 1'700'000'000'000;
  Store store(StoreOptions{.in_memory = true, .clock_ms = [&] { return now_ms; }});
  WriteQueue writer(store);
  create_table(writer, "t_items");
  put(store, writer, R"({"pk": {"S": "before"}, "sk": {"N": "0"}})");
  enable_recovery(writer, 1'700'000'000.0);
  now_ms += 1000;  // t+1 s
  put(store, writer, R"({"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"N": "1"}})");
  now_ms += 1000;  // t+2 s
  put(store, writer, R"({"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"N": "2"}})");
  put(store, writer, R"({"pk": {"S": "b"}, "sk": {"N": "1"}})");
  put(store, writer, R"({"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"N": "3"}})");  // same millisecond: later state
  now_ms += 1000;                                                                  // t+3 s
  auto remove = parse_request<DeleteItemRequest>(
      decode_delete_item, R"({"TableName": "t_items", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}})");
  auto prepared = ops::prepare_delete_item(store, kScope, remove);
  writer.run_sync([&](WriteContext& ctx) { return ops::apply_delete_item(ctx, prepared); });

  auto restore = [&](const std::string& target, std::optional<double> time) {
    RestoreTableToPointInTimeRequest request;
    request.source_table = "t_items";
    request.target_table_name = target;
    request.use_latest_restorable_time = !time;
    request.restore_time = time;
    return writer.run_sync([&](WriteContext& ctx) {
      return ops::restore_table_to_point_in_time(ctx, kScope, request, static_cast<double>(now_ms) / 1000.0, "uuid");
    });
  };
  const std::string a = R"({"pk": {"S": "a"}, "sk": {"N": "1"}})";
  const std::string b = R"({"pk": {"S": "b"}, "sk": {"N": "1"}})";
  const std::string before = R"({"pk": {"S": "before"}, "sk": {"N": "0"}})";
  restore("at_1_5", 1'700'000'001.5);
  CHECK(get_from(store, "at_1_5", a) == std::optional<std::string>(R"({"pk":{"S":"a"},"sk":{"N":"1"},"v":{"N":"1"}})"));
  CHECK_FALSE(get_from(store, "at_1_5", b));
  CHECK(get_from(store, "at_1_5", before));
  restore("at_2_5", 1'700'000'002.5);
  CHECK(get_from(store, "at_2_5", a) == std::optional<std::string>(R"({"pk":{"S":"a"},"sk":{"N":"1"},"v":{"N":"3"}})"));
  CHECK(get_from(store, "at_2_5", b));
  restore("at_0_5", 1'700'000'000.5);
  CHECK_FALSE(get_from(store, "at_0_5", a));
  CHECK(get_from(store, "at_0_5", before));
  restore("latest", std::nullopt);
  CHECK_FALSE(get_from(store, "latest", a));
  CHECK(get_from(store, "latest", b));
  // Before recovery was turned on: refused.
  std::optional<ErrorCode> refused;
  try {
    restore("too_early", 1'699'999'999.0);
  } catch (const ApiError& e) {
    refused = e.code();
  }
  CHECK(refused == ErrorCode::InvalidRestoreTimeException);

  // The history older than the recovery period goes with the upkeep's trim.
  now_ms += 35LL * 86400 * 1000 + 1;  // the last change (the delete) is now older
  writer.run_sync([&](WriteContext& ctx) {
    pitr::trim(ctx, store.catalog().find("us-east-1", "t_items")->schema.id,
               static_cast<std::int64_t>(
                   store.catalog()
                       .find("us-east-1", "t_items")
                       ->schema.point_in_time_recovery.earliest_restorable(static_cast<double>(now_ms) / 1000.0) *
                   1000.0));
    return true;
  });
  CHECK_FALSE(store.read().cursor(store.dbs().pitr_log).first());
}
