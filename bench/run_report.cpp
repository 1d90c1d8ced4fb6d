#include "bench/run_report.h"

#include <sys/resource.h>

#include <cstdio>

namespace dynamod::bench {

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

namespace {

unsigned items_per_request(WorkloadKind kind) {
  if (kind == WorkloadKind::BatchWrite) return 25;
  if (kind == WorkloadKind::TransactWrite) return 2;
  return 1;
}

}  // namespace

void report_run(const Options& o, WorkloadKind kind, const Totals& t, double seconds) {
  const double rps = seconds > 0 ? static_cast<double>(t.requests()) / seconds : 0;
  const double client_cpu = seconds > 0 ? 100.0 * t.client_cpu_seconds / seconds : 0;
  const auto ms = [&](double q) { return static_cast<double>(t.latency.quantile(q)) / 1e6; };
  const double mean_ms = t.latency.count() ? static_cast<double>(t.latency_sum_ns) / 1e6 / t.latency.count() : 0;
  if (o.json) {
    std::printf(
        "{\"workload\":\"%s\",\"label\":\"%s\",\"conns\":%u,\"duration_s\":%.3f,\"requests\":%llu,\"rps\":%.1f,"
        "\"items_per_s\":%.1f,\"p50_ms\":%.4f,\"p90_ms\":%.4f,\"p99_ms\":%.4f,\"p999_ms\":%.4f,\"max_ms\":%.4f,"
        "\"mean_ms\":%.4f,\"client_cpu_pct\":%.1f,\"client_cpu_total_s\":%.3f,\"errors\":%llu,\"expected_failures\":%"
        "llu,\"error_types\":%s}\n",
        std::string(workload_name(kind)).c_str(), json_escape(o.label).c_str(), o.conns, seconds,
        static_cast<unsigned long long>(t.requests()), rps, rps * items_per_request(kind), ms(0.5), ms(0.9), ms(0.99),
        ms(0.999), static_cast<double>(t.latency.max()) / 1e6, mean_ms, client_cpu, cpu_seconds(),
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

}  // namespace dynamod::bench
