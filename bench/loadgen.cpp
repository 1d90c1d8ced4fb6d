// dynamod-loadgen: a closed-loop load generator for DynamoDB's JSON protocol.
//
//   dynamod-loadgen load  --port 8000 --keys 10000          create and fill the tables
//   dynamod-loadgen get   --port 8000 --conns 16 --duration 10
//   dynamod-loadgen sizes --port 8000                       items and item bytes (DescribeTable)
//   dynamod-loadgen wait  --port 8000 --timeout 30          until ListTables answers 200
//   dynamod-loadgen startup --port 8000 --repeat 20 -- build/dynamod --in-memory --port 8000
//
// N keep-alive HTTP/1.1 connections on one io_context thread, each with one
// request in flight; every request SigV4-signed as SDKs do. See bench/README.md.

#include <boost/asio.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/program_options.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include "bench/histogram.h"
#include "bench/response_reader.h"
#include "bench/signer.h"
#include "bench/workloads.h"

extern char** environ;

namespace dynamod::bench {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);

struct Options {
  std::string mode;
  std::string host = "127.0.0.1";
  unsigned port = 8000;
  unsigned conns = 16;
  double duration = 10;
  double warmup = 2;
  DataShape shape;
  std::string label = "server";
  bool json = false;
  std::string region = "us-east-1";
  std::string access_key = "AKIDBENCHMARK";
  std::string secret_key = "bench/secret/key";
  std::uint64_t seed = 1;
  double timeout = 60;
  unsigned repeat = 20;
  std::string probe = "list-tables";
  bool put_only = false;
  std::vector<std::string> command;

  std::string host_header() const { return host + ":" + std::to_string(port); }
};

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// CPU seconds (user + system) this process has used so far.
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto secs = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6; };
  return secs(usage.ru_utime) + secs(usage.ru_stime);
}

std::string format_ms(double ms) {
  char out[32];
  if (ms < 10) std::snprintf(out, sizeof out, "%.2f", ms);
  else if (ms < 100) std::snprintf(out, sizeof out, "%.1f", ms);
  else std::snprintf(out, sizeof out, "%.0f", ms);
  return out;
}

std::string json_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out.push_back(c);
  }
  return out;
}

// ---------------------------------------------------------------- results

struct Totals {
  std::uint64_t ok = 0;
  std::uint64_t expected_failures = 0;  // e.g. ConditionalCheckFailedException in cond-put
  std::uint64_t errors = 0;
  std::uint64_t latency_sum_ns = 0;
  LatencyHistogram latency;
  std::map<std::string, std::uint64_t> error_types;
  double client_cpu_seconds = 0;  // the load generator's own CPU during the measured time

  void error(const std::string& type) {
    ++errors;
    ++error_types[type];
  }
  std::uint64_t requests() const { return ok + expected_failures + errors; }
};

std::string error_summary(const Totals& t) {
  std::string out;
  for (const auto& [type, n] : t.error_types) {
    if (!out.empty()) out += ", ";
    out += type + " " + std::to_string(n);
  }
  return out;
}

std::string error_types_json(const Totals& t) {
  std::string out = "{";
  for (const auto& [type, n] : t.error_types) {
    if (out.size() > 1) out += ',';
    out += '"';
    out += json_escape(type);
    out += "\":";
    out += std::to_string(n);
  }
  return out + "}";
}

unsigned items_per_request(WorkloadKind kind) {
  if (kind == WorkloadKind::BatchWrite) return 25;
  if (kind == WorkloadKind::TransactWrite) return 2;
  return 1;
}

void report_run(const Options& o, WorkloadKind kind, const Totals& t, double seconds) {
  const double rps = seconds > 0 ? static_cast<double>(t.requests()) / seconds : 0;
  const double client_cpu = seconds > 0 ? 100.0 * t.client_cpu_seconds / seconds : 0;
  const auto ms = [&](double q) { return static_cast<double>(t.latency.quantile(q)) / 1e6; };
  const double mean_ms = t.latency.count() ? static_cast<double>(t.latency_sum_ns) / 1e6 / t.latency.count() : 0;
  if (o.json) {
    std::printf(
        "{\"workload\":\"%s\",\"label\":\"%s\",\"conns\":%u,\"duration_s\":%.3f,\"requests\":%llu,\"rps\":%.1f,"
        "\"items_per_s\":%.1f,\"p50_ms\":%.4f,\"p90_ms\":%.4f,\"p99_ms\":%.4f,\"p999_ms\":%.4f,\"max_ms\":%.4f,"
        "\"mean_ms\":%.4f,\"client_cpu_pct\":%.1f,\"client_cpu_total_s\":%.3f,\"errors\":%llu,\"expected_failures\":%llu,\"error_types\":%s}\n",
        std::string(workload_name(kind)).c_str(), json_escape(o.label).c_str(), o.conns, seconds,
        static_cast<unsigned long long>(t.requests()), rps, rps * items_per_request(kind), ms(0.5), ms(0.9),
        ms(0.99), ms(0.999), static_cast<double>(t.latency.max()) / 1e6, mean_ms, client_cpu, cpu_seconds(),
        static_cast<unsigned long long>(t.errors), static_cast<unsigned long long>(t.expected_failures),
        error_types_json(t).c_str());
  } else {
    std::string line = std::string(workload_name(kind)) + " " + o.label + " " + std::to_string(o.conns) +
                       " conns: " + std::to_string(static_cast<long long>(rps + 0.5)) + " req/s p50 " +
                       format_ms(ms(0.5)) + " ms p99 " + format_ms(ms(0.99)) + " ms p99.9 " + format_ms(ms(0.999)) +
                       " ms errors " + std::to_string(t.errors);
    if (t.expected_failures > 0) {
      line += " (ConditionalCheckFailed " + std::to_string(t.expected_failures) + " of " +
              std::to_string(t.requests()) + ", expected)";
    }
    if (!t.error_types.empty()) line += " [" + error_summary(t) + "]";
    std::printf("%s\n", line.c_str());
  }
  std::fflush(stdout);
}

// ---------------------------------------------------------------- one connection

// A keep-alive connection that sends one request at a time.
class Connection {
 public:
  Connection(asio::any_io_executor executor, tcp::endpoint endpoint)
      : socket_(std::move(executor)), endpoint_(endpoint) {}

  // Sends the request and reads the answer into body(); returns the HTTP
  // status, or 0 with error() set when the connection failed.
  asio::awaitable<int> exchange(std::string_view wire) {
    error_.clear();
    if (!socket_.is_open()) {
      auto [ec] = co_await socket_.async_connect(endpoint_, kTuple);
      if (ec) {
        fail("connect: " + ec.message());
        co_return 0;
      }
      boost::system::error_code ignored;
      socket_.set_option(tcp::no_delay(true), ignored);
    }
    auto [wec, wn] = co_await asio::async_write(socket_, asio::buffer(wire.data(), wire.size()), kTuple);
    if (wec) {
      fail("write: " + wec.message());
      co_return 0;
    }
    ResponseReader reader(body_);
    auto [rec, rn] = co_await http::async_read(socket_, buffer_, reader, kTuple);
    if (rec) {
      fail("read: " + rec.message());
      co_return 0;
    }
    if (!reader.keep_alive()) close();
    co_return reader.status();
  }

  void close() {
    boost::system::error_code ignored;
    socket_.close(ignored);
    buffer_.clear();
  }
  const std::string& body() const { return body_; }
  const std::string& error() const { return error_; }

 private:
  void fail(std::string why) {
    error_ = std::move(why);
    close();
  }

  tcp::socket socket_;
  tcp::endpoint endpoint_;
  boost::beast::flat_buffer buffer_;
  std::string body_;
  std::string error_;
};

tcp::endpoint resolve(const Options& o) {
  return tcp::endpoint(asio::ip::make_address(o.host), static_cast<std::uint16_t>(o.port));
}

// Before any load: sign a request of the workload with the fast path and
// verify it with the server's SigV4 code.
void check_signing(const Options& o, WorkloadKind kind, Signer& signer) {
  if (kind == WorkloadKind::RawGet) return;
  Rng rng(o.seed);
  OperationSet ops(kind, o.shape, signer, o.host_header());
  for (int i = 0; i < 3; ++i) {
    Operation& op = ops.next(rng);
    op.request.sign(signer);
    if (std::string why = check_signature(op.request.wire(), o.secret_key); !why.empty()) {
      throw std::runtime_error("self-check of SigV4 signing failed: " + why);
    }
  }
}

// ---------------------------------------------------------------- timed runs

enum class Phase { Warmup, Measure, Drain };

struct Run {
  const Options& options;
  WorkloadKind kind;
  tcp::endpoint endpoint;
  Signer signer;
  Phase phase = Phase::Warmup;
  Totals totals;
  std::uint64_t warmup_errors = 0;
  std::map<std::string, std::uint64_t> warmup_error_types;
  unsigned active = 0;
  std::vector<Connection*> connections;
};

asio::awaitable<void> drive(Run& run, unsigned index) {
  auto executor = co_await asio::this_coro::executor;
  Connection connection(executor, run.endpoint);
  run.connections[index] = &connection;
  Rng rng(run.options.seed * 7919 + index);
  OperationSet ops(run.kind, run.options.shape, run.signer, run.options.host_header());
  std::string error_type;
  asio::steady_timer pause(executor);
  while (run.phase != Phase::Drain) {
    Operation& op = ops.next(rng);
    run.signer.tick();
    op.request.sign(run.signer);
    const auto start = Clock::now();
    const int status = co_await connection.exchange(op.request.wire());
    const auto end = Clock::now();
    const bool counted = run.phase == Phase::Measure;
    if (status == 0) {
      if (run.phase == Phase::Drain) break;  // cancelled at the end
      if (counted) run.totals.error(connection.error());
      else ++run.warmup_errors, ++run.warmup_error_types[connection.error()];
      pause.expires_after(std::chrono::milliseconds(20));  // do not spin on a refused connection
      co_await pause.async_wait(kTuple);
      continue;
    }
    const Outcome outcome = classify(op.expect, status, connection.body(), error_type);
    if (!counted) {
      if (outcome == Outcome::Error) ++run.warmup_errors, ++run.warmup_error_types[error_type];
      continue;
    }
    const auto nanos = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
    run.totals.latency.record(nanos);
    run.totals.latency_sum_ns += nanos;
    if (outcome == Outcome::Ok) ++run.totals.ok;
    else if (outcome == Outcome::ExpectedFailure) ++run.totals.expected_failures;
    else run.totals.error(error_type);
  }
  run.connections[index] = nullptr;
  --run.active;
}

asio::awaitable<void> timed_run(Run& run, double& measured_seconds) {
  auto executor = co_await asio::this_coro::executor;
  const Options& o = run.options;
  run.connections.assign(o.conns, nullptr);
  run.active = o.conns;
  for (unsigned i = 0; i < o.conns; ++i) asio::co_spawn(executor, drive(run, i), asio::detached);
  asio::steady_timer timer(executor);
  timer.expires_after(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.warmup)));
  co_await timer.async_wait(kTuple);
  const auto measure_start = Clock::now();
  const double cpu_start = cpu_seconds();
  run.phase = Phase::Measure;
  timer.expires_after(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.duration)));
  co_await timer.async_wait(kTuple);
  run.phase = Phase::Drain;
  measured_seconds = seconds_between(measure_start, Clock::now());
  run.totals.client_cpu_seconds = cpu_seconds() - cpu_start;
  // Let requests in flight finish (they are not counted), for at most 5 s.
  const auto give_up = Clock::now() + std::chrono::seconds(5);
  while (run.active > 0 && Clock::now() < give_up) {
    timer.expires_after(std::chrono::milliseconds(5));
    co_await timer.async_wait(kTuple);
  }
  if (run.active > 0) {
    std::fprintf(stderr, "%u connections still waiting for an answer 5 s after the end; closing them\n", run.active);
    for (unsigned i = 0; i < run.active; ++i) run.totals.error("no answer");
    for (Connection* c : run.connections) {
      if (c != nullptr) c->close();
    }
  }
}

int run_workload(const Options& o, WorkloadKind kind) {
  asio::io_context io(1);
  Run run{o, kind, resolve(o), Signer(o.access_key, o.secret_key, o.region)};
  check_signing(o, kind, run.signer);
  double seconds = 0;
  asio::co_spawn(io, timed_run(run, seconds), [](std::exception_ptr e) {
    if (e) std::rethrow_exception(e);
  });
  io.run();
  if (run.warmup_errors > 0) {
    std::string types;
    for (const auto& [type, n] : run.warmup_error_types) types += " " + type + " " + std::to_string(n);
    std::fprintf(stderr, "%s %s: %llu errors during warm-up:%s\n", std::string(workload_name(kind)).c_str(),
                 o.label.c_str(), static_cast<unsigned long long>(run.warmup_errors), types.c_str());
  }
  report_run(o, kind, run.totals, seconds);
  return run.totals.errors == 0 ? 0 : 3;
}

// ---------------------------------------------------------------- load

struct Call {
  int status = 0;
  std::string body;
  std::string error_type;  // empty on success
};

asio::awaitable<Call> call(Connection& c, Signer& signer, const Options& o, std::string_view operation,
                           std::string_view body) {
  signer.tick();
  SignedRequest request(signer, o.host_header(), std::string("DynamoDB_20120810.") + std::string(operation), body);
  Call result;
  result.status = co_await c.exchange(request.wire());
  if (result.status == 0) {
    result.error_type = c.error();
    co_return result;
  }
  result.body = c.body();
  if (result.status != 200) {
    result.error_type = std::string(error_type_of(result.body));
    if (result.error_type.empty()) result.error_type = "HTTP " + std::to_string(result.status);
  }
  co_return result;
}

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
    const auto nanos = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
    totals.latency.record(nanos);
    std::string type;
    if (r.status != 0 && classify(expect, r.status, r.body, type) == Outcome::Ok) {
      ++totals.ok;
    } else {
      totals.error(r.status == 0 ? r.error_type : type);
    }
  }
}

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
    asio::co_spawn(executor, load_worker(o, signer, plan, next, totals),
                   [&running](std::exception_ptr e) {
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

// The number in `"name":123` of a JSON body (0 when absent).
std::uint64_t json_number(std::string_view body, std::string_view name) {
  std::string needle(1, '"');
  needle.append(name).append("\":");
  const auto at = body.find(needle);
  if (at == std::string_view::npos) return 0;
  return std::strtoull(std::string(body.substr(at + needle.size(), 24)).c_str(), nullptr, 10);
}

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

// ---------------------------------------------------------------- wait and startup

// One blocking probe: connect, send, read. True on a 200 answer.
bool probe_once(const Options& o, Signer& signer, asio::io_context& io) {
  boost::system::error_code ec;
  tcp::socket socket(io);
  socket.connect(resolve(o), ec);
  if (ec) return false;
  signer.tick();
  SignedRequest request = o.probe == "get" ? SignedRequest::raw_get(o.host_header())
                                           : SignedRequest(signer, o.host_header(), "DynamoDB_20120810.ListTables", "{}");
  asio::write(socket, asio::buffer(request.wire().data(), request.wire().size()), ec);
  if (ec) return false;
  boost::beast::flat_buffer buffer;
  std::string body;
  ResponseReader reader(body);
  http::read(socket, buffer, reader, ec);
  return !ec && reader.status() == 200;
}

int run_wait(const Options& o) {
  asio::io_context io(1);
  Signer signer(o.access_key, o.secret_key, o.region);
  const auto start = Clock::now();
  while (seconds_between(start, Clock::now()) < o.timeout) {
    if (probe_once(o, signer, io)) {
      std::printf("ready after %.1f ms\n", seconds_between(start, Clock::now()) * 1e3);
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  std::fprintf(stderr, "%s:%u did not answer within %.0f s\n", o.host.c_str(), o.port, o.timeout);
  return 1;
}

std::uint64_t status_kib(pid_t pid, std::string_view field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0 && line.size() > field.size() && line[field.size()] == ':') {
      return std::strtoull(line.c_str() + field.size() + 1, nullptr, 10);
    }
  }
  return 0;
}

bool stop_child(pid_t pid) {
  ::kill(pid, SIGTERM);
  for (int i = 0; i < 1000; ++i) {  // 10 s
    if (::waitpid(pid, nullptr, WNOHANG) == pid) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return false;
}

template <class T>
T median(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? T{} : v[v.size() / 2];
}

// Spawns the command, times spawn -> first 200 answer, reads its RSS then, stops it; repeats.
int run_startup(const Options& o) {
  if (o.command.empty()) throw std::runtime_error("startup needs the server command after --");
  asio::io_context io(1);
  Signer signer(o.access_key, o.secret_key, o.region);
  std::vector<char*> argv;
  for (const auto& a : o.command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<double> times_ms;
  std::vector<std::uint64_t> rss_kib;
  for (unsigned i = 0; i < o.repeat; ++i) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const auto start = Clock::now();
    const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + o.command[0] + ": " + std::strerror(rc));
    bool ready = false;
    while (seconds_between(start, Clock::now()) < o.timeout) {
      if (probe_once(o, signer, io)) {
        ready = true;
        break;
      }
      if (::waitpid(pid, nullptr, WNOHANG) == pid) {
        pid = 0;
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    const double ms = seconds_between(start, Clock::now()) * 1e3;
    if (ready) rss_kib.push_back(status_kib(pid, "VmRSS"));
    if (pid != 0) stop_child(pid);
    if (!ready) {
      std::fprintf(stderr, "startup %s: no answer (run %u)\n", o.label.c_str(), i + 1);
      return 1;
    }
    times_ms.push_back(ms);
  }
  const double med = median(times_ms);
  const double lo = *std::min_element(times_ms.begin(), times_ms.end());
  const double hi = *std::max_element(times_ms.begin(), times_ms.end());
  const double rss_mib = static_cast<double>(median(rss_kib)) / 1024.0;
  if (o.json) {
    std::printf("{\"workload\":\"startup\",\"label\":\"%s\",\"runs\":%zu,\"median_ms\":%.2f,\"min_ms\":%.2f,"
                "\"max_ms\":%.2f,\"rss_mib\":%.1f}\n",
                json_escape(o.label).c_str(), times_ms.size(), med, lo, hi, rss_mib);
  } else {
    std::printf("startup %s: median %.1f ms (min %.1f, max %.1f, %zu runs) to the first 200; RSS then %.1f MiB\n",
                o.label.c_str(), med, lo, hi, times_ms.size(), rss_mib);
  }
  return 0;
}

// ---------------------------------------------------------------- selftest

// Checks the pieces that make the numbers: the histogram's quantiles and the
// fast signer against the server's SigV4 code, on every workload.
int run_selftest(const Options& o) {
  int failures = 0;
  auto expect = [&failures](bool ok, const std::string& what) {
    if (!ok) {
      std::fprintf(stderr, "FAIL: %s\n", what.c_str());
      ++failures;
    }
  };
  LatencyHistogram h;
  for (std::uint64_t v = 1; v <= 1'000'000; ++v) h.record(v * 1000);  // 1 us .. 1 s, uniform
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    const double got = static_cast<double>(h.quantile(q));
    const double want = q * 1e9;
    expect(std::abs(got - want) / want < 0.01, "quantile " + std::to_string(q) + " = " + std::to_string(got));
  }
  expect(h.quantile(1.0) == 1'000'000'000 && h.min() == 1000, "max and min are exact");
  for (std::uint64_t v : {0ull, 1ull, 255ull, 256ull, 1000ull, 123456789ull, ~0ull}) {
    const std::size_t i = LatencyHistogram::index_of(v);
    expect(i < LatencyHistogram::kBuckets && LatencyHistogram::lower_bound_of(i) <= v,
           "bucket of " + std::to_string(v));
    if (i + 1 < LatencyHistogram::kBuckets) expect(LatencyHistogram::lower_bound_of(i + 1) > v, "bucket end of " + std::to_string(v));
  }
  Signer signer(o.access_key, o.secret_key, o.region);
  for (std::time_t t : {std::time_t{1'700'000'000}, std::time_t{1'700'000'001}, std::time_t{1'800'000'000}}) {
    signer.set_time(t);
    for (int k = 0; k <= static_cast<int>(WorkloadKind::Mix); ++k) {
      const auto kind = static_cast<WorkloadKind>(k);
      try {
        check_signing(o, kind, signer);
      } catch (const std::exception& e) {
        expect(false, std::string(workload_name(kind)) + ": " + e.what());
      }
    }
  }
  // A request signed on one day and re-signed on the next carries the new scope.
  signer.set_time(1'700'000'000);
  SignedRequest request(signer, o.host_header(), "DynamoDB_20120810.ListTables", "{}");
  signer.set_time(1'700'000'000 + 86'400);
  request.sign(signer);
  expect(check_signature(request.wire(), o.secret_key).empty(), "re-signing on a new day");
  expect(request.wire().find("/20231115/") != std::string_view::npos, "new day in the credential scope");
  expect(!check_signature(request.wire(), "another secret").empty(), "a wrong secret is detected");
  std::printf(failures == 0 ? "selftest: ok\n" : "selftest: %d failures\n", failures);
  return failures == 0 ? 0 : 1;
}

// ---------------------------------------------------------------- options

std::optional<Options> parse_options(int argc, char** argv) {
  namespace po = boost::program_options;
  Options o;
  // Everything after "--" is the command for `startup`.
  int own = argc;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") {
      own = i;
      for (int j = i + 1; j < argc; ++j) o.command.emplace_back(argv[j]);
      break;
    }
  }
  po::options_description desc(
      "dynamod-loadgen: closed-loop load for DynamoDB's JSON protocol.\n"
      "Usage: dynamod-loadgen WORKLOAD [options] [-- command for startup]\n"
      "Workloads: " + std::string(workload_names()) + ";\n"
      "also: load (create and fill the tables), sizes (items and item bytes of the tables, from\n"
      "DescribeTable), wait (until ListTables answers 200),\n"
      "startup (spawn the command after --, time spawn -> first 200, repeat),\n"
      "selftest (check the histogram and the signing, no server).\n\nOptions");
  // clang-format off
  desc.add_options()
    ("help,h", "Print this help.")
    ("workload,w", po::value(&o.mode), "What to run (also the first positional argument).")
    ("host", po::value(&o.host)->default_value(o.host), "Server address (numeric).")
    ("port,p", po::value(&o.port)->default_value(o.port), "Server port.")
    ("conns,c", po::value(&o.conns)->default_value(o.conns), "Concurrent keep-alive connections, one request in flight each.")
    ("duration,d", po::value(&o.duration)->default_value(o.duration), "Measured seconds.")
    ("warmup", po::value(&o.warmup)->default_value(o.warmup), "Seconds of load before measuring.")
    ("keys,k", po::value(&o.shape.keys)->default_value(o.shape.keys), "Items in the table (key space); the query table has keys/10 partitions of 10.")
    ("table", po::value(&o.shape.table)->default_value(o.shape.table), "Table with key pk (S).")
    ("query-table", po::value(&o.shape.query_table)->default_value(o.shape.query_table), "Table with keys pk (S), sk (N).")
    ("label,l", po::value(&o.label)->default_value(o.label), "Name of the server in the output.")
    ("json", po::bool_switch(&o.json), "One JSON object per run instead of a text line.")
    ("region", po::value(&o.region)->default_value(o.region), "SigV4 region.")
    ("access-key", po::value(&o.access_key)->default_value(o.access_key), "SigV4 access key id.")
    ("secret-key", po::value(&o.secret_key)->default_value(o.secret_key), "SigV4 secret key.")
    ("seed", po::value(&o.seed)->default_value(o.seed), "Random seed.")
    ("put-only", po::bool_switch(&o.put_only), "load: use PutItem, not BatchWriteItem.")
    ("timeout", po::value(&o.timeout)->default_value(o.timeout), "wait/startup: seconds to wait for an answer.")
    ("repeat", po::value(&o.repeat)->default_value(o.repeat), "startup: number of runs.")
    ("probe", po::value(&o.probe)->default_value(o.probe), "wait/startup: list-tables (signed POST) or get (GET /).");
  // clang-format on
  po::positional_options_description positional;
  positional.add("workload", 1);
  po::variables_map vm;
  po::store(po::command_line_parser(own, argv).options(desc).positional(positional).run(), vm);
  po::notify(vm);
  if (vm.count("help") != 0 || o.mode.empty()) {
    std::cout << desc << "\n";
    return std::nullopt;
  }
  if (o.conns == 0) throw std::runtime_error("--conns must be at least 1");
  if (o.shape.keys == 0 || o.shape.keys > 99'999'999) throw std::runtime_error("--keys must be 1..99999999");
  return o;
}

int main_impl(int argc, char** argv) {
  std::optional<Options> options = parse_options(argc, argv);
  if (!options) return 0;
  const Options& o = *options;
  if (o.mode == "load") return run_to_end(load, o);
  if (o.mode == "sizes") return run_to_end(sizes, o);
  if (o.mode == "wait") return run_wait(o);
  if (o.mode == "startup") return run_startup(o);
  if (o.mode == "selftest") return run_selftest(o);
  const auto kind = parse_workload(o.mode);
  if (!kind) throw std::runtime_error("unknown workload '" + o.mode + "' (see --help)");
  return run_workload(o, *kind);
}

}  // namespace
}  // namespace dynamod::bench

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return dynamod::bench::main_impl(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dynamod-loadgen: %s\n", e.what());
    return 1;
  }
}
