#pragma once
// The vectors of one partition of a vector index (one HASH value of its
// search schema, or the whole index when it has none), held in memory for
// SearchVectors beside their entries in LMDB (storage/vector_entries.h), which
// stay the durable copy this is rebuilt from (storage/vector_memory.h).
//
// Vectors live in fixed blocks of slots, so growing never moves them; a
// deleted item's slot is reused. Exact search scores every live slot. With
// approximate search a partition of at least kGraphThreshold vectors also has
// an HNSW graph (hnswlib) whose label is the slot: a vector not yet in the
// graph (new, or changed since it went in) is "pending", marked deleted in the
// graph, and scored exactly beside what the graph finds, so a search never
// misses a write it follows. A background thread moves pending vectors into
// the graph one at a time (add_pending_to_graph).
//
// Locking: a shared mutex per partition. Searches hold it shared; writes
// (after their commit, on the writer thread) and graph insertions hold it
// exclusively, one insertion at a time so that a search waits for at most one.

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "protocol/table_schema.h"
#include "storage/vector_search_mode.h"

// hnswlib's headers define functions that are not inline: only
// vector_partition.cpp may include them.
namespace hnswlib {
template <typename dist_t>
class HierarchicalNSW;
template <typename MTYPE>
class SpaceInterface;
}  // namespace hnswlib

namespace dynamod::vectors {

// Below this many vectors a partition is searched exactly in either mode: an
// exact search of 10,000 x 768 floats takes a few milliseconds, and small
// partitions (those test suites use) get deterministic, complete answers.
inline constexpr std::size_t kGraphThreshold = 10000;

// The graph's parameters (hnswlib's names): links per node, and the candidate
// lists of construction and search. Chosen with bench/vector-search.py for a
// recall@10 of 0.95 or more on random vectors (bench/RESULTS.md).
inline constexpr std::size_t kGraphM = 16;
inline constexpr std::size_t kGraphEfConstruction = 200;
inline constexpr std::size_t kGraphEfSearch = 160;

struct Candidate {
  double score = 0;
  std::string key;  // the entry's stored key
};

// Whether an entry (by stored key) may be a result: its record exists and passes the filters.
using Accept = std::function<bool(std::string_view stored_key)>;

class Partition {
 public:
  Partition(std::size_t dimensions, DistanceFunction distance, SearchMode mode);
  ~Partition();
  Partition(const Partition&) = delete;
  Partition& operator=(const Partition&) = delete;

  // The entry `stored_key` now holds `vector` (`dimensions` floats, maybe unaligned).
  void upsert(std::string_view stored_key, std::string_view vector_bytes);
  void erase(std::string_view stored_key);

  struct Change {
    std::string key;           // the entry's stored key
    std::string vector_bytes;  // an upsert's vector; empty for an erase
    bool erase = false;
  };
  // Applies a commit's (or a loader chunk's) changes in order under one hold
  // of the lock: the graph builder holds it for each insertion, so taking it
  // once per change would make a write wait for as many insertions as it has
  // vectors. True when vectors now wait for the graph (has_graph_work).
  bool apply(const std::vector<Change>& changes);

  std::size_t size() const;     // live vectors
  std::size_t pending() const;  // approximate mode: live vectors not in its graph yet (0 without one due)

  // The best `top_k` accepted vectors for `query`, best first, ties in key
  // order; `examined` counts the vectors the partition holds.
  std::vector<Candidate> search(std::span<const float> query, std::size_t top_k, const Accept& accept,
                                std::uint64_t& examined) const;

  // Approximate mode: true while vectors wait for the graph.
  bool has_graph_work() const;
  // Moves one pending vector into the graph (making the graph once the
  // partition is large enough); false when nothing was left to do.
  bool add_pending_to_graph();

 private:
  static constexpr std::size_t kBlockSlots = 1024;
  using Slot = std::uint32_t;

  const float* vector_of(Slot slot) const;
  Slot allocate();
  void upsert_locked(std::string_view stored_key, std::string_view vector_bytes);
  void erase_locked(std::string_view stored_key);
  bool has_graph_work_locked() const;
  void score_into(std::span<const float> query, float query_norm, Slot slot, const Accept& accept, std::size_t top_k,
                  std::vector<Candidate>& heap) const;
  std::vector<Candidate> search_exact(std::span<const float> query, std::size_t top_k, const Accept& accept) const;
  std::vector<Candidate> search_graph(std::span<const float> query, std::size_t top_k, const Accept& accept) const;
  // What the graph stores for a vector: the vector itself, or normalised for COSINE.
  std::vector<float> graph_form(const float* vector) const;
  void make_graph();

  const std::size_t dims_;
  const DistanceFunction distance_;
  const SearchMode mode_;
  mutable std::shared_mutex mutex_;
  std::vector<std::unique_ptr<float[]>> blocks_;
  std::vector<float> squared_norms_;  // per slot (COSINE)
  std::vector<std::string> keys_;     // per slot; empty when free
  std::unordered_map<std::string, Slot> slot_of_;
  std::vector<Slot> free_;
  // Approximate mode only.
  std::unique_ptr<hnswlib::SpaceInterface<float>> space_;
  std::unique_ptr<hnswlib::HierarchicalNSW<float>> graph_;
  std::vector<char> in_graph_;  // per slot: 1 when the graph holds its current vector (unmarked)
  std::vector<char> labelled_;  // per slot: 1 once the graph has a node labelled with it
  std::set<Slot> pending_;      // live slots the graph does not hold
};

}  // namespace dynamod::vectors
