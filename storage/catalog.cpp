#include "storage/catalog.h"

namespace dynamod {

TablePtr Catalog::find(std::string_view ns, std::string_view name) const {
  std::lock_guard lock(mutex_);
  // std::pair<std::string, std::string> does not compare with views; build the key.
  auto it = tables_.find(Key(ns, name));
  return it == tables_.end() ? nullptr : it->second;
}

std::vector<std::string> Catalog::list(std::string_view ns, std::string_view after, std::size_t limit) const {
  std::vector<std::string> names;
  std::lock_guard lock(mutex_);
  auto it = tables_.upper_bound(Key(ns, after));
  for (; it != tables_.end() && it->first.first == ns && names.size() < limit; ++it) {
    names.push_back(it->first.second);
  }
  return names;
}

std::size_t Catalog::count(std::string_view ns) const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (auto it = tables_.lower_bound(Key(ns, "")); it != tables_.end() && it->first.first == ns; ++it) ++n;
  return n;
}

std::vector<TablePtr> Catalog::all() const {
  std::lock_guard lock(mutex_);
  std::vector<TablePtr> out;
  for (const auto& [key, table] : tables_) out.push_back(table);
  return out;
}

void Catalog::put(TablePtr table) {
  std::lock_guard lock(mutex_);
  tables_[Key(table->ns, table->schema.name)] = std::move(table);
}

void Catalog::erase(std::string_view ns, std::string_view name) {
  std::lock_guard lock(mutex_);
  tables_.erase(Key(ns, name));
}

}  // namespace dynamod
