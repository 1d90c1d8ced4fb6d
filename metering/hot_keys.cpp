#include "metering/hot_keys.h"

#include <algorithm>

namespace dynamod::metering {

void HotKeys::add(const AttributeValue& key, double units) {
  Entry* smallest = nullptr;
  for (std::size_t i = 0; i < used_; ++i) {
    Entry& e = entries_[i];
    if (e.key == key) {
      e.units += units;
      e.requests += 1;
      return;
    }
    if (smallest == nullptr || e.units < smallest->units) smallest = &e;
  }
  if (used_ < kCounters) {
    entries_[used_++] = Entry{key, units, 0, 1};
    return;
  }
  // The new key takes the smallest counter and inherits its count as error.
  smallest->key = key;
  smallest->error = smallest->units;
  smallest->units += units;
  smallest->requests = 1;
}

std::vector<HotKeys::Entry> HotKeys::top() const {
  std::vector<Entry> out(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(used_));
  std::stable_sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.units > b.units; });
  return out;
}

}  // namespace dynamod::metering
