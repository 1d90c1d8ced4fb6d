#pragma once
// A run's totals and how they are printed: a text line, or one JSON object per
// run (--json) for bench/run.sh.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "bench/histogram.h"
#include "bench/loadgen.h"

namespace dynamod::bench {

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

std::string format_ms(double ms);
std::string json_escape(std::string_view s);
std::string error_summary(const Totals& t);
std::string error_types_json(const Totals& t);
void report_run(const Options& o, WorkloadKind kind, const Totals& t, double seconds);

}  // namespace dynamod::bench
