#include "storage/vector_partition.h"

#include <hnswlib/hnswlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <mutex>

#include "storage/vector_math.h"

namespace dynamod::vectors {
namespace {

// Slots live in blocks that double in size (16, 16, 32, 64, ... slots), so a
// partition of a few vectors holds a few vectors' memory, and a large one
// grows without moving what it has.
constexpr std::size_t kFirstBlock = 16;

std::size_t block_of(std::uint32_t slot) { return std::bit_width(slot / kFirstBlock + 1) - 1; }
std::size_t block_start(std::size_t block) { return kFirstBlock * ((std::size_t{1} << block) - 1); }
std::size_t block_slots(std::size_t block) { return kFirstBlock << block; }

}  // namespace

Partition::Partition(std::size_t dimensions, DistanceFunction distance, SearchMode mode)
    : dims_(dimensions), distance_(distance), mode_(mode) {}

Partition::~Partition() = default;

const float* Partition::vector_of(Slot slot) const {
  std::size_t block = block_of(slot);
  return blocks_[block].get() + (slot - block_start(block)) * dims_;
}

Partition::Slot Partition::allocate() {
  if (!free_.empty()) {
    Slot slot = free_.back();
    free_.pop_back();
    return slot;
  }
  auto slot = static_cast<Slot>(keys_.size());
  std::size_t block = block_of(slot);
  if (block == blocks_.size()) blocks_.push_back(std::make_unique<float[]>(block_slots(block) * dims_));
  keys_.emplace_back();
  squared_norms_.push_back(0);
  if (mode_ == SearchMode::Approximate) {
    in_graph_.push_back(0);
    labelled_.push_back(0);
  }
  return slot;
}

void Partition::upsert(std::string_view stored_key, std::string_view vector_bytes) {
  std::unique_lock lock(mutex_);
  upsert_locked(stored_key, vector_bytes);
}

void Partition::erase(std::string_view stored_key) {
  std::unique_lock lock(mutex_);
  erase_locked(stored_key);
}

bool Partition::apply(const std::vector<Change>& changes) {
  std::unique_lock lock(mutex_);
  for (const Change& c : changes) {
    if (c.erase) erase_locked(c.key);
    else upsert_locked(c.key, c.vector_bytes);
  }
  return has_graph_work_locked();
}

void Partition::upsert_locked(std::string_view stored_key, std::string_view vector_bytes) {
  auto it = slot_of_.find(std::string(stored_key));
  Slot slot = 0;
  if (it == slot_of_.end()) {
    slot = allocate();
    keys_[slot] = std::string(stored_key);
    slot_of_.emplace(keys_[slot], slot);
  } else {
    slot = it->second;
    // The loader and a client write may apply the same entry twice, and most
    // updates leave the vector as it was: neither is a change to re-graph.
    if (std::memcmp(vector_of(slot), vector_bytes.data(), std::min(vector_bytes.size(), dims_ * sizeof(float))) == 0) {
      return;
    }
  }
  auto* target = const_cast<float*>(vector_of(slot));
  std::memcpy(target, vector_bytes.data(), std::min(vector_bytes.size(), dims_ * sizeof(float)));
  squared_norms_[slot] = squared_norm(std::span<const float>(target, dims_));
  if (mode_ != SearchMode::Approximate) return;
  if (in_graph_[slot]) {
    graph_->markDelete(slot);  // the graph's copy is stale until the builder replaces it
    in_graph_[slot] = 0;
  }
  pending_.insert(slot);
}

void Partition::erase_locked(std::string_view stored_key) {
  auto it = slot_of_.find(std::string(stored_key));
  if (it == slot_of_.end()) return;
  Slot slot = it->second;
  slot_of_.erase(it);
  keys_[slot].clear();
  free_.push_back(slot);
  if (mode_ != SearchMode::Approximate) return;
  if (in_graph_[slot]) {
    graph_->markDelete(slot);
    in_graph_[slot] = 0;
  }
  pending_.erase(slot);
}

std::size_t Partition::size() const {
  std::shared_lock lock(mutex_);
  return slot_of_.size();
}

std::size_t Partition::pending() const {
  std::shared_lock lock(mutex_);
  // A partition too small for a graph is searched exactly: nothing of it waits.
  const bool graphed = mode_ == SearchMode::Approximate && (graph_ || slot_of_.size() >= kGraphThreshold);
  return graphed ? pending_.size() : 0;
}

std::vector<Candidate> Partition::search(std::span<const float> query, std::size_t top_k, const Accept& accept,
                                         std::uint64_t& examined) const {
  std::shared_lock lock(mutex_);
  examined = slot_of_.size();
  // A zero query has no direction: every COSINE score is 1, which the graph cannot rank.
  if (mode_ == SearchMode::Exact || !graph_ || slot_of_.size() < kGraphThreshold ||
      (distance_ == DistanceFunction::Cosine && squared_norm(query) == 0)) {
    return search_exact(query, top_k, accept);
  }
  return search_graph(query, top_k, accept);
}

// Keeps `heap` the best `top_k` accepted candidates (a max-heap under
// `better`: the worst kept one at its front). `accept` is asked only of a
// vector that would enter, so an unfiltered search reads no record.
void Partition::score_into(std::span<const float> query, float query_norm, Slot slot, const Accept& accept,
                           std::size_t top_k, std::vector<Candidate>& heap) const {
  const DistanceFunction function = distance_;
  auto better = [function](const Candidate& a, const Candidate& b) {
    if (a.score != b.score) return ranks_before(function, a.score, b.score);
    return a.key < b.key;
  };
  std::span<const float> stored(vector_of(slot), dims_);
  double s = function == DistanceFunction::Cosine ? cosine_score(dot(query, stored), query_norm, squared_norms_[slot])
                                                  : score(function, query, stored);
  const std::string& key = keys_[slot];
  if (heap.size() == top_k) {
    const Candidate& worst = heap.front();
    if (s == worst.score ? !(key < worst.key) : !ranks_before(function, s, worst.score)) return;
  }
  if (!accept(key)) return;
  heap.push_back({s, key});
  std::push_heap(heap.begin(), heap.end(), better);
  if (heap.size() > top_k) {
    std::pop_heap(heap.begin(), heap.end(), better);
    heap.pop_back();
  }
}

namespace {
std::vector<Candidate> best_first(DistanceFunction function, std::vector<Candidate> heap) {
  std::sort(heap.begin(), heap.end(), [function](const Candidate& a, const Candidate& b) {
    if (a.score != b.score) return ranks_before(function, a.score, b.score);
    return a.key < b.key;
  });
  return heap;
}
}  // namespace

std::vector<Candidate> Partition::search_exact(std::span<const float> query, std::size_t top_k,
                                               const Accept& accept) const {
  std::vector<Candidate> heap;
  heap.reserve(top_k + 1);
  const float query_norm = squared_norm(query);
  for (Slot slot = 0; slot < keys_.size(); ++slot) {
    if (!keys_[slot].empty()) score_into(query, query_norm, slot, accept, top_k, heap);
  }
  return best_first(distance_, std::move(heap));
}

// The graph's nearest `want` (widened while filters leave fewer than top_k and
// the graph may hold more), and every pending vector, each scored exactly.
std::vector<Candidate> Partition::search_graph(std::span<const float> query, std::size_t top_k,
                                               const Accept& accept) const {
  const std::vector<float> graph_query = graph_form(query.data());
  const float query_norm = squared_norm(query);
  const std::size_t in_graph = slot_of_.size() - pending_.size();
  for (std::size_t want = top_k;; want *= 4) {
    if (want >= in_graph) return search_exact(query, top_k, accept);
    std::vector<Candidate> heap;
    heap.reserve(top_k + 1);
    auto found = graph_->searchKnn(graph_query.data(), want);
    const std::size_t found_count = found.size();
    for (; !found.empty(); found.pop()) {
      auto slot = static_cast<Slot>(found.top().second);
      if (in_graph_[slot] && !keys_[slot].empty()) score_into(query, query_norm, slot, accept, top_k, heap);
    }
    for (Slot slot : pending_) score_into(query, query_norm, slot, accept, top_k, heap);
    if (heap.size() == top_k || found_count < want) return best_first(distance_, std::move(heap));
  }
}

std::vector<float> Partition::graph_form(const float* vector) const {
  std::vector<float> out(vector, vector + dims_);
  if (distance_ == DistanceFunction::Cosine) {
    float norm = std::sqrt(squared_norm(out));
    if (norm > 0) {
      for (float& x : out) x /= norm;
    }
  }
  return out;
}

void Partition::make_graph() {
  // hnswlib's inner-product distance is 1 - dot: on normalised vectors that is
  // COSINE's score; on raw ones its order is DOT_PRODUCT's (largest first).
  if (distance_ == DistanceFunction::Euclidean) {
    space_ = std::make_unique<hnswlib::L2Space>(dims_);
  } else {
    space_ = std::make_unique<hnswlib::InnerProductSpace>(dims_);
  }
  std::size_t capacity = std::max<std::size_t>(2 * keys_.size(), 2 * kGraphThreshold);
  graph_ = std::make_unique<hnswlib::HierarchicalNSW<float>>(space_.get(), capacity, kGraphM, kGraphEfConstruction);
  graph_->setEf(kGraphEfSearch);
}

bool Partition::has_graph_work() const {
  std::shared_lock lock(mutex_);
  return has_graph_work_locked();
}

bool Partition::has_graph_work_locked() const {
  return mode_ == SearchMode::Approximate && !pending_.empty() && (graph_ || slot_of_.size() >= kGraphThreshold);
}

bool Partition::add_pending_to_graph() {
  std::unique_lock lock(mutex_);
  if (mode_ != SearchMode::Approximate || pending_.empty()) return false;
  if (!graph_) {
    if (slot_of_.size() < kGraphThreshold) return false;
    make_graph();
  }
  Slot slot = *pending_.begin();
  pending_.erase(pending_.begin());
  if (!labelled_[slot] && graph_->cur_element_count == graph_->max_elements_) {
    graph_->resizeIndex(2 * graph_->max_elements_);
  }
  // An existing label (a reused or changed slot) is unmarked and updated in place.
  graph_->addPoint(graph_form(vector_of(slot)).data(), slot);
  labelled_[slot] = 1;
  in_graph_[slot] = 1;
  return true;
}

}  // namespace dynamod::vectors
