#pragma once
// The in-memory side of vector indexes: for each vector index that has been
// searched (or existed at start), its partitions' vectors (vector_partition.h),
// loaded from LMDB and then kept in step with every committed write.
//
// LMDB's `vectors` database stays the durable copy. An index is loaded by
// writer jobs, a chunk of entries per job, so client writes interleave; a
// write to an index that is loaded or loading is applied to it after its
// commit and before the client hears of it, so a search after an
// acknowledged write sees it. Reapplying an entry is harmless (an upsert), so
// a chunk and a write of the same entry in any order leave the newer vector.
// Until an index is loaded, SearchVectors scans LMDB instead
// (storage/vector_search.cpp). Changes too large to follow entry by entry
// (a dropped index or table, a snapshot's restore, a reset) forget the index,
// and the next search loads it again.
//
// With approximate search a builder thread moves new vectors into each large
// partition's HNSW graph in the background.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "protocol/table_schema.h"
#include "storage/vector_partition.h"

namespace dynamod {
class WriteContext;
class WriteQueue;
}  // namespace dynamod

namespace dynamod::vectors {

class VectorMemory;

// One vector index's partitions, by partition prefix (vector_entries.h).
class IndexMemory {
 public:
  IndexMemory(const VectorIndexSchema& index, SearchMode mode);

  bool ready() const { return ready_.load(std::memory_order_acquire); }
  void mark_ready() { ready_.store(true, std::memory_order_release); }

  // The partition an entry's stored key belongs to, made when absent.
  std::shared_ptr<Partition> partition_of_key(std::string_view stored_key);
  // The partition of `prefix`, or null when it holds nothing.
  std::shared_ptr<Partition> find(std::string_view prefix) const;

  // Applies changes (grouped by partition, one lock hold each); the partitions
  // that now have vectors waiting for their graph.
  std::vector<std::shared_ptr<Partition>> apply(std::vector<Partition::Change> changes);

  std::size_t vectors() const;        // in every partition
  std::size_t graph_pending() const;  // vectors not in their partition's graph (approximate mode)

 private:
  const std::size_t prefix_size_;  // index id, and the HASH value's hash when the search schema has one
  const std::size_t dims_;
  const DistanceFunction distance_;
  const SearchMode mode_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<Partition>> partitions_;
  std::atomic<bool> ready_{false};
};

class VectorMemory {
 public:
  explicit VectorMemory(SearchMode mode);
  ~VectorMemory();
  VectorMemory(const VectorMemory&) = delete;
  VectorMemory& operator=(const VectorMemory&) = delete;

  SearchMode mode() const { return mode_; }

  // The index's vectors, once loaded; null before.
  std::shared_ptr<IndexMemory> loaded(std::uint32_t index_id) const;
  // Starts loading the index (a chain of writer jobs) unless it is loaded or loading.
  void load(WriteQueue& queue, const VectorIndexSchema& index);

  // Within a write job: an entry's change, applied after the commit to an
  // index that is loaded or loading. The first write to an ACTIVE index that
  // is neither starts its load, so a table filled after CreateTable has its
  // vectors (and graphs) in memory before its first search.
  void stage_upsert(WriteContext& ctx, const VectorIndexSchema& index, std::string_view stored_key,
                    std::string_view vector_bytes);
  void stage_erase(WriteContext& ctx, std::uint32_t index_id, std::string_view stored_key);
  // Within a write job: after the commit, the index (or every index) is forgotten.
  void stage_forget(WriteContext& ctx, std::uint32_t index_id);
  void stage_forget_all(WriteContext& ctx);

  // For the loader (vector_memory.cpp): whether `target` is still what the index holds.
  bool holds(std::uint32_t index_id, const IndexMemory* target) const;
  void forget(std::uint32_t index_id, const IndexMemory* target);
  // Approximate mode: the index's vectors that its graphs do not hold yet
  // (scored exactly meanwhile); 0 for an index not in memory.
  std::size_t graph_pending(std::uint32_t index_id) const;
  // Ends the commit's open batch of changes: what is staged after applies after
  // the after-commit actions registered meanwhile (a loader chunk, a forget).
  void seal_commit_batch();
  // Queues the partition for the graph builder (approximate mode).
  void wants_graph_work(std::shared_ptr<Partition> partition);

 private:
  // The changes a commit staged, per index id, applied after it in one action.
  struct CommitBatch {
    const WriteContext* context = nullptr;
    std::map<std::uint32_t, std::vector<Partition::Change>> changes;
    bool applied = false;
  };
  void stage(WriteContext& ctx, std::uint32_t index_id, Partition::Change change);
  void apply(CommitBatch& batch);
  void build_graphs();
  // The index's vectors, loaded or loading; null when neither.
  std::shared_ptr<IndexMemory> registered(std::uint32_t index_id) const;

  const SearchMode mode_;
  mutable std::mutex mutex_;
  std::map<std::uint32_t, std::shared_ptr<IndexMemory>> indexes_;
  std::weak_ptr<CommitBatch> open_batch_;  // the current commit's, while it stages
  // The graph builder's queue (approximate mode).
  std::condition_variable work_;
  std::deque<std::shared_ptr<Partition>> queue_;
  std::set<const Partition*> queued_;
  bool stopping_ = false;
  std::thread builder_;
};

}  // namespace dynamod::vectors
