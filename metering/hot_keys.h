#pragma once
// The hottest partition keys of a table: the Space-Saving algorithm (Metwally,
// Agrawal, El Abbadi 2005) over a fixed number of counters. Any key whose
// share of the units is above 1/kCounters is certain to be held, and each
// count overstates the truth by at most its `error`; memory and time per
// request stay constant however many keys a table has.

#include <array>
#include <cstdint>
#include <vector>

#include "protocol/attribute_value.h"

namespace dynamod::metering {

class HotKeys {
 public:
  static constexpr std::size_t kCounters = 16;

  struct Entry {
    AttributeValue key;          // the partition key value
    double units = 0;            // read + write units, an upper bound
    double error = 0;            // by how much `units` may overstate
    std::uint64_t requests = 0;  // since the key took its counter
  };

  // Copies the key only when it takes a counter (into that counter's storage).
  void add(const AttributeValue& key, double units);
  // The keys held, the most units first.
  std::vector<Entry> top() const;

 private:
  // A hash of each counter's key: a request's key is compared with the keys
  // whose hash matches only (most requests miss every counter).
  static std::uint64_t fingerprint(const AttributeValue& key);

  std::array<Entry, kCounters> entries_{};
  std::array<std::uint64_t, kCounters> fingerprints_{};
  std::size_t used_ = 0;
};

}  // namespace dynamod::metering
