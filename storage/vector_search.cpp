#include "storage/vector_search.h"

#include <algorithm>

#include "storage/item_codec.h"
#include "storage/lmdb.h"
#include "storage/vector_entries.h"
#include "storage/vector_math.h"
#include "storage/vector_memory.h"

namespace dynamod::vectors {
namespace {

bool passes(const VectorSearchSpec& spec, std::string_view record, const AttributeNames& names) {
  if (spec.filters.empty()) return true;
  Item item = items::decode(record, names);
  for (const auto& [name, expected] : spec.filters) {
    const AttributeValue* v = item.find(name);
    if (v == nullptr || !(*v == expected)) return false;
  }
  return true;
}

struct Scanned {
  double score;
  std::uint64_t order;  // key order, for ties
  std::string_view value;
};

// Every entry of the partition in LMDB, scored exactly: the search of an index
// whose vectors are not in memory yet.
SearchResult scan(Store& store, const VectorSearchSpec& spec, const std::string& prefix) {
  const VectorIndexSchema& index = *spec.index;
  const DistanceFunction function = index.distance;
  // A max-heap under `better`: the worst kept candidate is at its front.
  auto better = [function](const Scanned& a, const Scanned& b) {
    if (a.score != b.score) return ranks_before(function, a.score, b.score);
    return a.order < b.order;
  };
  SearchResult result;
  std::vector<Scanned> heap;
  heap.reserve(spec.top_k + 1);
  std::vector<float> stored(static_cast<std::size_t>(index.dimensions));
  lmdb::ReadTxn txn = store.read();
  auto cursor = txn.cursor(store.dbs().vectors);
  std::uint64_t order = 0;
  for (auto entry = cursor.seek(prefix); entry && entry->first.substr(0, prefix.size()) == prefix;
       entry = cursor.next(), ++order) {
    EntryView v = view(entry->second, index.dimensions);
    read_vector(v.vector_bytes, stored);
    ++result.examined;
    double s = score(function, spec.query, stored);
    if (heap.size() == spec.top_k && !ranks_before(function, s, heap.front().score)) continue;
    if (!passes(spec, v.record, store.names())) continue;
    heap.push_back({s, order, entry->second});
    std::push_heap(heap.begin(), heap.end(), better);
    if (heap.size() > spec.top_k) {
      std::pop_heap(heap.begin(), heap.end(), better);
      heap.pop_back();
    }
  }
  std::sort_heap(heap.begin(), heap.end(), better);
  result.hits.reserve(heap.size());
  for (const Scanned& c : heap) {
    result.hits.push_back({std::string(view(c.value, index.dimensions).record), c.score});
  }
  return result;
}

}  // namespace

SearchResult search(Store& store, WriteQueue& writer, const VectorSearchSpec& spec) {
  const VectorIndexSchema& index = *spec.index;
  const std::string prefix = partition_prefix(index, spec.hash_value ? &*spec.hash_value : nullptr);
  VectorMemory& memory = store.vector_memory();
  std::shared_ptr<IndexMemory> in_memory = memory.loaded(index.id);
  if (!in_memory) {
    memory.load(writer, index);
    return scan(store, spec, prefix);
  }
  SearchResult result;
  std::shared_ptr<Partition> partition = in_memory->find(prefix);
  if (!partition) return result;
  // Opened before the search, so it holds every write acknowledged before the
  // request; an entry the vectors in memory have but it has not (written or
  // deleted meanwhile) is skipped.
  lmdb::ReadTxn txn = store.read();
  const Databases& dbs = store.dbs();
  Accept accept = [&](std::string_view key) {
    if (spec.filters.empty()) return true;
    auto value = txn.get(dbs.vectors, key);
    return value && passes(spec, view(*value, index.dimensions).record, store.names());
  };
  std::vector<Candidate> found = partition->search(spec.query, spec.top_k, accept, result.examined);
  result.hits.reserve(found.size());
  for (const Candidate& c : found) {
    auto value = txn.get(dbs.vectors, c.key);
    if (value) result.hits.push_back({std::string(view(*value, index.dimensions).record), c.score});
  }
  return result;
}

}  // namespace dynamod::vectors
