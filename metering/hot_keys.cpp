#include "metering/hot_keys.h"

#include <algorithm>
#include <functional>
#include <string_view>

namespace dynamod::metering {

std::uint64_t HotKeys::fingerprint(const AttributeValue& key) {
  const auto type = static_cast<std::uint64_t>(key.type());
  std::string_view bytes;
  if (key.type() == AttributeType::S) bytes = key.as_string();
  if (key.type() == AttributeType::B) bytes = key.as_binary();
  // Numbers hash by type alone: equal numbers may be spelled apart, and the
  // comparison that follows is exact.
  return std::hash<std::string_view>{}(bytes) ^ (type * 0x9E3779B97F4A7C15ull);
}

void HotKeys::add(const AttributeValue& key, double units) {
  const std::uint64_t print = fingerprint(key);
  std::size_t smallest = 0;
  for (std::size_t i = 0; i < used_; ++i) {
    Entry& e = entries_[i];
    if (fingerprints_[i] == print && e.key == key) {
      e.units += units;
      e.requests += 1;
      return;
    }
    if (e.units < entries_[smallest].units) smallest = i;
  }
  if (used_ < kCounters) {
    fingerprints_[used_] = print;
    entries_[used_++] = Entry{key, units, 0, 1};
    return;
  }
  // The new key takes the smallest counter and inherits its count as error.
  Entry& e = entries_[smallest];
  fingerprints_[smallest] = print;
  e.key = key;
  e.error = e.units;
  e.units += units;
  e.requests = 1;
}

std::vector<HotKeys::Entry> HotKeys::top() const {
  std::vector<Entry> out(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(used_));
  std::stable_sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.units > b.units; });
  return out;
}

}  // namespace dynamod::metering
