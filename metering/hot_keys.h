#pragma once
// The hottest partition keys of a table: the Space-Saving algorithm (Metwally,
// Agrawal, El Abbadi 2005) over a fixed number of counters. Any key whose
// share of the units is above 1/kCounters is certain to be held, and each
// count overstates the truth by at most its `error`; memory and time per
// request stay constant however many keys a table has.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dynamod::metering {

class HotKeys {
 public:
  static constexpr std::size_t kCounters = 16;

  struct Entry {
    std::string key;  // the partition key value, as DynamoDB JSON
    double units = 0;  // read + write units, an upper bound
    double error = 0;  // by how much `units` may overstate
    std::uint64_t requests = 0;
  };

  void add(std::string_view key, double units);
  // The keys held, the most units first.
  std::vector<Entry> top() const;

 private:
  std::array<Entry, kCounters> entries_{};
  std::size_t used_ = 0;
};

}  // namespace dynamod::metering
