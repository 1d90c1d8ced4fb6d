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

#include <boost/program_options.hpp>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <optional>

#include "bench/histogram.h"
#include "bench/loadgen.h"

namespace dynamod::bench {
namespace {

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
    if (i + 1 < LatencyHistogram::kBuckets)
      expect(LatencyHistogram::lower_bound_of(i + 1) > v, "bucket end of " + std::to_string(v));
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
      "Workloads: " +
      std::string(workload_names()) +
      ";\n"
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
