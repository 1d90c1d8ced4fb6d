#include "storage/vector_search.h"

#include <algorithm>
#include <cmath>

#include "storage/item_codec.h"
#include "storage/lmdb.h"
#include "storage/vector_entries.h"

namespace dynamod::vectors {
namespace {

struct Candidate {
  double score;
  std::uint64_t order;  // key order, for ties
  std::string_view value;
};

bool passes(const VectorSearchSpec& spec, std::string_view record, const AttributeNames& names) {
  if (spec.filters.empty()) return true;
  Item item = items::decode(record, names);
  for (const auto& [name, expected] : spec.filters) {
    const AttributeValue* v = item.find(name);
    if (v == nullptr || !(*v == expected)) return false;
  }
  return true;
}

}  // namespace

// Sums over kLanes independent accumulators: a float reduction in one
// accumulator is a chain of dependent adds that the compiler may not reorder
// (no -ffast-math), so it neither vectorises nor pipelines; lanes do both
// (10,000 x 768 COSINE: 28 ms a search with one accumulator, bench/vector-search.py).
constexpr std::size_t kLanes = 16;

template <typename Term>
float lane_sum(std::size_t n, Term term) {
  float lanes[kLanes] = {};
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (std::size_t l = 0; l < kLanes; ++l) lanes[l] += term(i + l);
  }
  float sum = 0;
  for (; i < n; ++i) sum += term(i);
  for (float l : lanes) sum += l;
  return sum;
}

double score(DistanceFunction function, std::span<const float> query, std::span<const float> stored) {
  const std::size_t n = std::min(query.size(), stored.size());
  const float* q = query.data();
  const float* s = stored.data();
  switch (function) {
    case DistanceFunction::Euclidean: {
      float sum = lane_sum(n, [&](std::size_t i) { return (q[i] - s[i]) * (q[i] - s[i]); });
      return std::sqrt(static_cast<double>(sum));
    }
    case DistanceFunction::DotProduct: return lane_sum(n, [&](std::size_t i) { return q[i] * s[i]; });
    case DistanceFunction::Cosine: {
      float dot = lane_sum(n, [&](std::size_t i) { return q[i] * s[i]; });
      float qq = lane_sum(n, [&](std::size_t i) { return q[i] * q[i]; });
      float ss = lane_sum(n, [&](std::size_t i) { return s[i] * s[i]; });
      if (qq == 0 || ss == 0) return 1.0;
      double similarity =
          static_cast<double>(dot) / (std::sqrt(static_cast<double>(qq)) * std::sqrt(static_cast<double>(ss)));
      return 1.0 - std::clamp(similarity, -1.0, 1.0);
    }
  }
  return 0;
}

SearchResult search(Store& store, const VectorSearchSpec& spec) {
  const VectorIndexSchema& index = *spec.index;
  const DistanceFunction function = index.distance;
  // A max-heap under `better`: the worst kept candidate is at its front.
  auto better = [function](const Candidate& a, const Candidate& b) {
    if (a.score != b.score) return ranks_before(function, a.score, b.score);
    return a.order < b.order;
  };
  SearchResult result;
  std::vector<Candidate> heap;
  heap.reserve(spec.top_k + 1);
  std::vector<float> stored(static_cast<std::size_t>(index.dimensions));
  lmdb::ReadTxn txn = store.read();
  const std::string prefix = partition_prefix(index, spec.hash_value ? &*spec.hash_value : nullptr);
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
  for (const Candidate& c : heap) {
    result.hits.push_back({std::string(view(c.value, index.dimensions).record), c.score});
  }
  return result;
}

}  // namespace dynamod::vectors
