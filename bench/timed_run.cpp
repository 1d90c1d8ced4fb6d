// Timed runs of a workload: N connections, each with one request in flight,
// through a warm-up and then the measured time.

#include <cstdio>
#include <map>
#include <vector>

#include "bench/connection.h"
#include "bench/run_report.h"

namespace dynamod::bench {
namespace {

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
    const auto nanos =
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
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

}  // namespace

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

}  // namespace dynamod::bench
