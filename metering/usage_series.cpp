#include "metering/usage_series.h"

namespace dynamod::metering {

template <std::size_t N>
UsageSeries::Bucket& UsageSeries::bucket(std::array<Bucket, N>& ring, std::int64_t slot) {
  // Slots before the epoch do not happen (clocks are past 1970); the modulo
  // of a non-negative slot is a valid index.
  Bucket& b = ring[static_cast<std::size_t>(slot) % N];
  if (b.slot != slot) b = Bucket{slot};
  return b;
}

void UsageSeries::add(std::int64_t now_ms, double read_units, double write_units, bool counts_request) {
  if (now_ms < 0) return;
  for (Bucket* b : {&bucket(seconds_, now_ms / 1000), &bucket(minutes_, now_ms / 60000)}) {
    b->read_units += static_cast<float>(read_units);
    b->write_units += static_cast<float>(write_units);
    b->requests += counts_request ? 1 : 0;
  }
}

void UsageSeries::add_throttled(std::int64_t now_ms) {
  if (now_ms < 0) return;
  bucket(seconds_, now_ms / 1000).throttled += 1;
  bucket(minutes_, now_ms / 60000).throttled += 1;
}

std::vector<UsageSeries::Point> UsageSeries::points(Resolution resolution, std::int64_t now_ms) const {
  const std::int64_t width = interval_ms(resolution);
  const std::int64_t last = now_ms / width;
  auto collect = [&](const auto& ring) {
    const std::int64_t first = last - static_cast<std::int64_t>(ring.size()) + 1;
    std::vector<Point> out;
    // In time order: from the slot after `last` around the ring.
    for (std::int64_t slot = first; slot <= last; ++slot) {
      if (slot < 0) continue;
      const Bucket& b = ring[static_cast<std::size_t>(slot) % ring.size()];
      if (b.slot != slot) continue;
      out.push_back(Point{slot * width, b.read_units, b.write_units, b.requests, b.throttled});
    }
    return out;
  };
  return resolution == Resolution::Second ? collect(seconds_) : collect(minutes_);
}

}  // namespace dynamod::metering
