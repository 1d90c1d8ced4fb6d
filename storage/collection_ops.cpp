#include "storage/collection_ops.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "storage/item_codec.h"
#include "storage/key_codec.h"

namespace dynamod::ops {

std::vector<CollectionSize> largest_item_collections(Store& store, const Table& table, std::size_t count) {
  std::vector<CollectionSize> out;
  if (table.schema.local_indexes.empty() || count == 0) return out;
  const std::string prefix = keys::key_space_prefix(table.schema.id);
  auto txn = store.read();
  // The collection keys (table id ‖ partition hash) of the largest ones.
  std::vector<std::pair<std::uint64_t, std::string>> largest;
  auto collections = txn.cursor(store.dbs().collections);
  for (auto e = collections.seek(prefix); e && e->first.starts_with(prefix); e = collections.next()) {
    std::uint64_t bytes = 0;
    if (e->second.size() == sizeof bytes) std::memcpy(&bytes, e->second.data(), sizeof bytes);
    largest.emplace_back(bytes, std::string(e->first));
  }
  const auto keep = std::min(count, largest.size());
  std::partial_sort(largest.begin(), largest.begin() + static_cast<std::ptrdiff_t>(keep), largest.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  largest.resize(keep);
  // A collection's key is the prefix of its items' keys: its first item names
  // the partition key value.
  auto items_cursor = txn.cursor(store.dbs().items);
  const std::string& partition_name = table.schema.key.partition.name;
  for (const auto& [bytes, key] : largest) {
    auto first = items_cursor.seek(key);
    if (!first || !first->first.starts_with(key)) continue;  // emptied since
    Item item = items::decode(first->second, store.names());
    if (const AttributeValue* partition = item.find(partition_name)) out.push_back({*partition, bytes});
  }
  return out;
}

}  // namespace dynamod::ops
