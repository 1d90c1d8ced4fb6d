// `load` (create the tables and write every item) and `sizes` (what DescribeTable
// says of them).

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "bench/connection.h"
#include "bench/run_report.h"

namespace dynamod::bench {
namespace {

std::string create_table_body(const std::string& table, bool with_sort_key) {
  std::string body = R"({"TableName":")" + table + R"(","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[)";
  body += R"({"AttributeName":"pk","AttributeType":"S"})";
  if (with_sort_key) body += R"(,{"AttributeName":"sk","AttributeType":"N"})";
  body += R"(],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"})";
  if (with_sort_key) body += R"(,{"AttributeName":"sk","KeyType":"RANGE"})";
  return body + "]}";
}

// The requests that write every item: batches of 25 (one table per batch) or
// single PutItems, made one at a time so that a load of millions of items does
// not hold them all. An item's score depends only on its table and number.
class LoadPlan {
 public:
  LoadPlan(const DataShape& shape, bool batches)
      : shape_(shape),
        per_request_(batches ? 25 : 1),
        table_requests_(requests_for(shape.keys)),
        query_requests_(requests_for(shape.partitions() * 10)) {}

  std::size_t size() const { return table_requests_ + query_requests_; }
  std::string_view operation() const { return per_request_ > 1 ? "BatchWriteItem" : "PutItem"; }
  bool batches() const { return per_request_ > 1; }

  std::string body(std::size_t request) const {
    const bool query_table = request >= table_requests_;
    const std::string& table = query_table ? shape_.query_table : shape_.table;
    const std::uint64_t count = query_table ? shape_.partitions() * 10 : shape_.keys;
    const std::uint64_t first = (query_table ? request - table_requests_ : request) * per_request_;
    const std::uint64_t n = std::min<std::uint64_t>(per_request_, count - first);
    BodyTemplate t;
    if (batches()) t.text(R"({"RequestItems":{")" + table + R"(":[)");
    else t.text(R"({"TableName":")" + table + R"(","Item":)");
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t id = first + i;
      if (batches()) t.text(i > 0 ? R"(,{"PutRequest":{"Item":)" : R"({"PutRequest":{"Item":)");
      const int key = t.group(8);
      const int points = t.group(3);
      if (query_table) {
        const int sk = t.group(1);
        append_query_item(t, key, sk, points);
        t.set(key, id / 10);
        t.set(sk, id % 10);
      } else {
        append_item(t, key, points);
        t.set(key, id);
      }
      Rng rng(id * 2 + (query_table ? 1 : 0));
      t.set(points, 100 + rng.uniform(900));
      if (batches()) t.text("}}");
    }
    t.text(batches() ? "]}}" : "}");
    return std::move(t.body);
  }

 private:
  std::size_t requests_for(std::uint64_t items) const {
    return static_cast<std::size_t>((items + per_request_ - 1) / per_request_);
  }

  DataShape shape_;
  std::uint64_t per_request_;
  std::size_t table_requests_;
  std::size_t query_requests_;
};

asio::awaitable<void> load_worker(const Options& o, Signer& signer, const LoadPlan& plan, std::size_t& next,
                                  Totals& totals) {
  auto executor = co_await asio::this_coro::executor;
  Connection c(executor, resolve(o));
  const Expect expect = plan.batches() ? Expect::BatchOk : Expect::Ok;
  while (next < plan.size()) {
    const std::size_t i = next++;
    const std::string body = plan.body(i);
    const auto start = Clock::now();
    Call r = co_await call(c, signer, o, plan.operation(), body);
    const auto nanos =
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
    totals.latency.record(nanos);
    std::string type;
    if (r.status != 0 && classify(expect, r.status, r.body, type) == Outcome::Ok) {
      ++totals.ok;
    } else {
      totals.error(r.status == 0 ? r.error_type : type);
    }
  }
}

}  // namespace

asio::awaitable<int> load(const Options& o) {
  auto executor = co_await asio::this_coro::executor;
  Signer signer(o.access_key, o.secret_key, o.region);
  Connection control(executor, resolve(o));
  // Tables: created if missing (an existing table is reused as it is).
  for (const auto& [table, sorted] : {std::pair{o.shape.table, false}, std::pair{o.shape.query_table, true}}) {
    Call r = co_await call(control, signer, o, "CreateTable", create_table_body(table, sorted));
    if (r.status != 200 && r.error_type != "ResourceInUseException") {
      std::fprintf(stderr, "CreateTable %s failed: %s %s\n", table.c_str(), r.error_type.c_str(), r.body.c_str());
      co_return 2;
    }
    asio::steady_timer timer(executor);
    for (int attempt = 0;; ++attempt) {
      Call d = co_await call(control, signer, o, "DescribeTable", R"({"TableName":")" + table + "\"}");
      if (d.status == 200 && d.body.find("\"TableStatus\":\"ACTIVE\"") != std::string::npos) break;
      if (attempt > 300) {
        std::fprintf(stderr, "table %s did not become ACTIVE: %s\n", table.c_str(), d.body.c_str());
        co_return 2;
      }
      timer.expires_after(std::chrono::milliseconds(100));
      co_await timer.async_wait(kTuple);
    }
  }

  LoadPlan plan(o.shape, !o.put_only);
  const auto start = Clock::now();
  std::size_t next = 0;
  if (plan.batches()) {
    // Try one batch first; fall back to PutItem where BatchWriteItem does not work.
    Call r = co_await call(control, signer, o, plan.operation(), plan.body(0));
    std::string type;
    if (r.status == 0 || classify(Expect::BatchOk, r.status, r.body, type) != Outcome::Ok) {
      std::fprintf(stderr, "BatchWriteItem failed (%s); loading with PutItem\n",
                   r.status == 0 ? r.error_type.c_str() : type.c_str());
      plan = LoadPlan(o.shape, false);
    } else {
      next = 1;
    }
  }
  Totals totals;
  totals.ok = next;
  const unsigned workers = std::max(1u, o.conns);
  unsigned running = workers;
  for (unsigned w = 0; w < workers; ++w) {
    asio::co_spawn(executor, load_worker(o, signer, plan, next, totals), [&running](std::exception_ptr e) {
      --running;
      if (e) std::rethrow_exception(e);
    });
  }
  asio::steady_timer timer(executor);
  while (running > 0) {
    timer.expires_after(std::chrono::milliseconds(2));
    co_await timer.async_wait(kTuple);
  }
  const double seconds = seconds_between(start, Clock::now());
  const std::uint64_t items = o.shape.keys + o.shape.partitions() * 10;
  const std::string how(plan.operation());
  if (o.json) {
    std::printf(
        "{\"workload\":\"load\",\"label\":\"%s\",\"items\":%llu,\"requests\":%zu,\"seconds\":%.3f,"
        "\"items_per_s\":%.1f,\"operation\":\"%s\",\"p50_ms\":%.4f,\"p99_ms\":%.4f,\"errors\":%llu,"
        "\"error_types\":%s}\n",
        json_escape(o.label).c_str(), static_cast<unsigned long long>(items), plan.size(), seconds,
        static_cast<double>(items) / seconds, how.c_str(), static_cast<double>(totals.latency.quantile(0.5)) / 1e6,
        static_cast<double>(totals.latency.quantile(0.99)) / 1e6, static_cast<unsigned long long>(totals.errors),
        error_types_json(totals).c_str());
  } else {
    std::printf("load %s: %llu items (%s, %s) in %.2f s: %.0f items/s with %s over %u conns, errors %llu%s\n",
                o.label.c_str(), static_cast<unsigned long long>(items), o.shape.table.c_str(),
                o.shape.query_table.c_str(), seconds, static_cast<double>(items) / seconds, how.c_str(), workers,
                static_cast<unsigned long long>(totals.errors),
                totals.errors ? (" [" + error_summary(totals) + "]").c_str() : "");
  }
  std::fflush(stdout);
  co_return totals.errors == 0 ? 0 : 3;
}

namespace {

// The number in `"name":123` of a JSON body (0 when absent).
std::uint64_t json_number(std::string_view body, std::string_view name) {
  std::string needle(1, '"');
  needle.append(name).append("\":");
  const auto at = body.find(needle);
  if (at == std::string_view::npos) return 0;
  return std::strtoull(std::string(body.substr(at + needle.size(), 24)).c_str(), nullptr, 10);
}

}  // namespace

// What DescribeTable says of the two tables: items and their bytes by
// DynamoDB's item-size rules (names plus values), the "raw" size the on-disk
// size is compared with.
asio::awaitable<int> sizes(const Options& o) {
  auto executor = co_await asio::this_coro::executor;
  Signer signer(o.access_key, o.secret_key, o.region);
  Connection control(executor, resolve(o));
  std::uint64_t items = 0;
  std::uint64_t bytes = 0;
  for (const std::string& table : {o.shape.table, o.shape.query_table}) {
    Call d = co_await call(control, signer, o, "DescribeTable", R"({"TableName":")" + table + "\"}");
    if (d.status != 200) {
      std::fprintf(stderr, "DescribeTable %s failed: %s %s\n", table.c_str(), d.error_type.c_str(), d.body.c_str());
      co_return 2;
    }
    items += json_number(d.body, "ItemCount");
    bytes += json_number(d.body, "TableSizeBytes");
  }
  if (o.json) {
    std::printf("{\"workload\":\"sizes\",\"label\":\"%s\",\"items\":%llu,\"item_bytes\":%llu}\n",
                json_escape(o.label).c_str(), static_cast<unsigned long long>(items),
                static_cast<unsigned long long>(bytes));
  } else {
    std::printf("%s: %llu items, %llu bytes by DynamoDB's item-size rules\n", o.label.c_str(),
                static_cast<unsigned long long>(items), static_cast<unsigned long long>(bytes));
  }
  co_return 0;
}

int run_to_end(asio::awaitable<int> (*job)(const Options&), const Options& o) {
  asio::io_context io(1);
  int rc = 1;
  asio::co_spawn(io, job(o), [&rc](std::exception_ptr e, int result) {
    if (e) std::rethrow_exception(e);
    rc = result;
  });
  io.run();
  return rc;
}

}  // namespace dynamod::bench
