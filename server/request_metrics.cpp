#include "server/request_metrics.h"

#include <fmt/format.h>

namespace dynamod {

RequestMetrics::RequestMetrics(std::vector<std::string> operations)
    : names_(std::move(operations)), counters_(std::make_unique<Counters[]>(names_.size())) {
  for (std::size_t i = 0; i < names_.size(); ++i) slots_.emplace(names_[i], i);
}

std::optional<std::size_t> RequestMetrics::slot(std::string_view operation) const {
  auto it = slots_.find(operation);
  if (it == slots_.end()) return std::nullopt;
  return it->second;
}

void RequestMetrics::record(std::size_t slot, std::chrono::nanoseconds latency, std::optional<ErrorCode> error) {
  Counters& c = counters_[slot];
  c.requests.fetch_add(1, std::memory_order_relaxed);
  c.latency_ns.fetch_add(static_cast<std::uint64_t>(latency.count()), std::memory_order_relaxed);
  const double seconds = std::chrono::duration<double>(latency).count();
  for (std::size_t i = 0; i < kLatencyBounds.size(); ++i) {
    if (seconds <= kLatencyBounds[i]) {
      c.buckets[i].fetch_add(1, std::memory_order_relaxed);
      break;
    }
  }
  if (error) c.errors[static_cast<std::size_t>(*error)].fetch_add(1, std::memory_order_relaxed);
}

void RequestMetrics::render(std::string& out) const {
  auto load = [](const std::atomic<std::uint64_t>& a) { return a.load(std::memory_order_relaxed); };
  out += "# HELP dynamod_requests_total Requests answered, per operation.\n# TYPE dynamod_requests_total counter\n";
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (std::uint64_t n = load(counters_[i].requests); n != 0) {
      fmt::format_to(std::back_inserter(out), "dynamod_requests_total{{operation=\"{}\"}} {}\n", names_[i], n);
    }
  }
  out +=
      "# HELP dynamod_request_duration_seconds Time from the parsed request to the answer, per operation.\n"
      "# TYPE dynamod_request_duration_seconds histogram\n";
  for (std::size_t i = 0; i < names_.size(); ++i) {
    const Counters& c = counters_[i];
    const std::uint64_t total = load(c.requests);
    if (total == 0) continue;
    std::uint64_t cumulative = 0;
    for (std::size_t b = 0; b < kLatencyBounds.size(); ++b) {
      cumulative += load(c.buckets[b]);
      fmt::format_to(std::back_inserter(out),
                     "dynamod_request_duration_seconds_bucket{{operation=\"{}\",le=\"{}\"}} {}\n", names_[i],
                     kLatencyBounds[b], cumulative);
    }
    fmt::format_to(std::back_inserter(out),
                   "dynamod_request_duration_seconds_bucket{{operation=\"{0}\",le=\"+Inf\"}} {1}\n"
                   "dynamod_request_duration_seconds_sum{{operation=\"{0}\"}} {2}\n"
                   "dynamod_request_duration_seconds_count{{operation=\"{0}\"}} {1}\n",
                   names_[i], total, static_cast<double>(load(c.latency_ns)) / 1e9);
  }
  out +=
      "# HELP dynamod_errors_total Error answers, per operation and error type.\n# TYPE dynamod_errors_total counter\n";
  for (std::size_t i = 0; i < names_.size(); ++i) {
    for (std::size_t e = 0; e < kErrorCodeCount; ++e) {
      if (std::uint64_t n = load(counters_[i].errors[e]); n != 0) {
        fmt::format_to(std::back_inserter(out), "dynamod_errors_total{{operation=\"{}\",error=\"{}\"}} {}\n", names_[i],
                       error_type_name(static_cast<ErrorCode>(e)), n);
      }
    }
  }
}

}  // namespace dynamod
