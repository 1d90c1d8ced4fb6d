#pragma once
// What the load generator's parts share: its options, the clock, and the modes
// main() dispatches to (bench/loadgen.cpp). Timed workload runs are in
// bench/timed_run.cpp, loading and sizes in bench/load.cpp, wait and startup in
// bench/startup.cpp; connections in bench/connection.h, results in
// bench/run_report.h.

#include <boost/asio.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/signer.h"
#include "bench/workloads.h"

namespace dynamod::bench {

namespace asio = boost::asio;
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

double seconds_between(Clock::time_point a, Clock::time_point b);
// CPU seconds (user + system) this process has used so far.
double cpu_seconds();

// Before any load: sign a request of the workload with the fast path and
// verify it with the server's SigV4 code.
void check_signing(const Options& o, WorkloadKind kind, Signer& signer);

// The modes.
int run_workload(const Options& o, WorkloadKind kind);
asio::awaitable<int> load(const Options& o);
asio::awaitable<int> sizes(const Options& o);
int run_to_end(asio::awaitable<int> (*job)(const Options&), const Options& o);
int run_wait(const Options& o);
int run_startup(const Options& o);

}  // namespace dynamod::bench
