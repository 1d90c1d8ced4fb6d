#pragma once
// Counters for GET /dynamod/metrics: requests, latency and errors per
// operation since the server started. Lock-free: each request adds to a few
// relaxed atomics indexed by operation and error code.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "protocol/api_error.h"

namespace dynamod {

class RequestMetrics {
 public:
  // Upper bounds of the latency buckets, in seconds (Prometheus "le").
  static constexpr std::array<double, 13> kLatencyBounds{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
                                                         0.025,  0.05,    0.1,    0.25,  1,      5};

  // `operations`: every name a request may be counted under.
  explicit RequestMetrics(std::vector<std::string> operations);

  // The slot of an operation (nullopt: not one of ours).
  std::optional<std::size_t> slot(std::string_view operation) const;
  void record(std::size_t slot, std::chrono::nanoseconds latency, std::optional<ErrorCode> error);

  // The Prometheus text of these counters.
  void render(std::string& out) const;

 private:
  struct Counters {
    std::atomic<std::uint64_t> requests{0};
    std::atomic<std::uint64_t> latency_ns{0};
    std::array<std::atomic<std::uint64_t>, kLatencyBounds.size()> buckets{};
    std::array<std::atomic<std::uint64_t>, kErrorCodeCount> errors{};
  };
  std::vector<std::string> names_;
  std::unordered_map<std::string_view, std::size_t> slots_;
  std::unique_ptr<Counters[]> counters_;
};

}  // namespace dynamod
