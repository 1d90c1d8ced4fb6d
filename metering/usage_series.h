#pragma once
// Consumed units over time, for the console's charts: one bucket per second
// for the last hour and one per minute for the last day, each holding the read
// and write units, the requests and the throttled requests of its interval.
// Two fixed rings, written in place: recording is a few stores, and a bucket
// left from an earlier lap of its ring is recognised by its slot and cleared.

#include <array>
#include <cstdint>
#include <vector>

namespace dynamod::metering {

class UsageSeries {
 public:
  enum class Resolution : std::uint8_t { Second, Minute };
  static constexpr std::size_t kSeconds = 3600;  // the last hour, by the second
  static constexpr std::size_t kMinutes = 1440;  // the last day, by the minute

  struct Point {
    std::int64_t start_ms = 0;  // the interval's start
    double read_units = 0;
    double write_units = 0;
    std::uint32_t requests = 0;
    std::uint32_t throttled = 0;
  };

  void add(std::int64_t now_ms, double read_units, double write_units, bool counts_request);
  void add_throttled(std::int64_t now_ms);

  // The intervals of the window ending at now_ms that saw anything, oldest first.
  std::vector<Point> points(Resolution resolution, std::int64_t now_ms) const;

  static std::int64_t interval_ms(Resolution resolution) { return resolution == Resolution::Second ? 1000 : 60000; }

 private:
  struct Bucket {
    std::int64_t slot = -1;  // the interval's number since the epoch
    float read_units = 0;
    float write_units = 0;
    std::uint32_t requests = 0;
    std::uint32_t throttled = 0;
  };
  template <std::size_t N>
  static Bucket& bucket(std::array<Bucket, N>& ring, std::int64_t slot);

  std::array<Bucket, kSeconds> seconds_{};
  std::array<Bucket, kMinutes> minutes_{};
};

}  // namespace dynamod::metering
