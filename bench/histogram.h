#pragma once
// A log-linear latency histogram in the manner of HdrHistogram: values below
// 2*kSub nanoseconds are exact, above that each power of two is split into
// kSub equal buckets (relative error below 1/kSub, i.e. < 0.8%). Recording is
// an index computation and an increment; no sample is stored.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace dynamod::bench {

class LatencyHistogram {
 public:
  static constexpr int kSubBits = 7;
  static constexpr std::uint64_t kSub = 1u << kSubBits;  // buckets per power of two
  static constexpr int kMaxShift = 64 - kSubBits - 1;
  static constexpr std::size_t kBuckets = 2 * kSub + kMaxShift * kSub;

  void record(std::uint64_t nanos) {
    ++counts_[index_of(nanos)];
    ++total_;
    max_ = std::max(max_, nanos);
    min_ = std::min(min_, nanos);
  }

  void merge(const LatencyHistogram& other) {
    for (std::size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
    total_ += other.total_;
    max_ = std::max(max_, other.max_);
    min_ = std::min(min_, other.min_);
  }

  std::uint64_t count() const { return total_; }
  std::uint64_t max() const { return total_ == 0 ? 0 : max_; }
  std::uint64_t min() const { return total_ == 0 ? 0 : min_; }

  // The value at quantile q (0..1): the midpoint of the bucket holding the
  // ceil(q * count)-th smallest sample, clamped to the observed range.
  std::uint64_t quantile(double q) const {
    if (total_ == 0) return 0;
    auto rank = static_cast<std::uint64_t>(q * static_cast<double>(total_) + 0.999999);
    rank = std::clamp<std::uint64_t>(rank, 1, total_);
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < kBuckets; ++i) {
      seen += counts_[i];
      if (seen >= rank) return std::clamp(midpoint_of(i), min_, max_);
    }
    return max_;
  }

  static std::size_t index_of(std::uint64_t v) {
    if (v < 2 * kSub) return static_cast<std::size_t>(v);
    const int shift = std::bit_width(v) - 1 - kSubBits;  // v >> shift lies in [kSub, 2*kSub)
    return static_cast<std::size_t>(2 * kSub + static_cast<std::uint64_t>(shift - 1) * kSub + ((v >> shift) - kSub));
  }

  static std::uint64_t lower_bound_of(std::size_t index) {
    if (index < 2 * kSub) return index;
    const std::size_t shift = (index - 2 * kSub) / kSub + 1;
    const std::uint64_t mantissa = kSub + (index - 2 * kSub) % kSub;
    return mantissa << shift;
  }

  static std::uint64_t midpoint_of(std::size_t index) {
    if (index < 2 * kSub) return index;
    const std::size_t shift = (index - 2 * kSub) / kSub + 1;
    return lower_bound_of(index) + (std::uint64_t{1} << shift) / 2;
  }

 private:
  std::array<std::uint64_t, kBuckets> counts_{};
  std::uint64_t total_ = 0;
  std::uint64_t max_ = 0;
  std::uint64_t min_ = UINT64_MAX;
};

}  // namespace dynamod::bench
