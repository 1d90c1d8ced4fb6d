#include "protocol/attribute_value.h"

#include <algorithm>
#include <array>

namespace dynamod {

std::string_view type_name(AttributeType type) {
  static constexpr std::array<std::string_view, 10> kNames{"S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"};
  return kNames[static_cast<std::size_t>(type)];
}

bool operator==(const List& a, const List& b) { return a.values == b.values; }
bool operator==(const Map& a, const Map& b) { return a.entries_ == b.entries_; }

std::vector<Map::Entry>::iterator Map::lower_bound(std::string_view name) {
  return std::lower_bound(entries_.begin(), entries_.end(), name,
                          [](const Entry& e, std::string_view n) { return std::string_view(e.first) < n; });
}

std::vector<Map::Entry>::const_iterator Map::lower_bound(std::string_view name) const {
  return std::lower_bound(entries_.begin(), entries_.end(), name,
                          [](const Entry& e, std::string_view n) { return std::string_view(e.first) < n; });
}

const AttributeValue* Map::find(std::string_view name) const {
  auto it = lower_bound(name);
  return it != entries_.end() && it->first == name ? &it->second : nullptr;
}

AttributeValue* Map::find(std::string_view name) {
  auto it = lower_bound(name);
  return it != entries_.end() && it->first == name ? &it->second : nullptr;
}

bool Map::set(std::string name, AttributeValue value) {
  auto it = lower_bound(name);
  if (it != entries_.end() && it->first == name) {
    it->second = std::move(value);
    return false;
  }
  entries_.emplace(it, std::move(name), std::move(value));
  return true;
}

bool Map::insert_new(std::string name, AttributeValue value) {
  auto it = lower_bound(name);
  if (it != entries_.end() && it->first == name) return false;
  entries_.emplace(it, std::move(name), std::move(value));
  return true;
}

bool Map::erase(std::string_view name) {
  auto it = lower_bound(name);
  if (it == entries_.end() || it->first != name) return false;
  entries_.erase(it);
  return true;
}

void Map::append_sorted(std::string name, AttributeValue value) {
  entries_.emplace_back(std::move(name), std::move(value));
}

bool normalize_set(std::vector<std::string>& values) {
  std::sort(values.begin(), values.end());
  return std::adjacent_find(values.begin(), values.end()) == values.end();
}

bool normalize_set(std::vector<Number>& values) {
  std::sort(values.begin(), values.end());
  return std::adjacent_find(values.begin(), values.end()) == values.end();
}

}  // namespace dynamod
