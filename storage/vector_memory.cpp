#include "storage/vector_memory.h"

#include <spdlog/spdlog.h>

#include <utility>
#include <vector>

#include "storage/background_priority.h"
#include "storage/key_codec.h"
#include "storage/vector_entries.h"
#include "storage/write_queue.h"

namespace dynamod::vectors {
namespace {

// Entries a loader job reads: a chunk of 768-dimension vectors is 6 MB.
constexpr int kLoadChunk = 2000;

struct LoadedEntry {
  std::string key;
  std::string vector_bytes;
};

// One chunk of an index's entries per job, read in the writer's transaction
// (so no write of the index interleaves with the read), applied after commit,
// then the next chunk; the last marks the index loaded.
class LoadJob final : public WriteJob {
 public:
  LoadJob(VectorMemory& memory, WriteQueue& queue, std::shared_ptr<IndexMemory> target, std::uint32_t index_id,
          std::int64_t dimensions)
      : memory_(memory), queue_(queue), target_(std::move(target)), index_id_(index_id), dimensions_(dimensions) {}

  void run(WriteContext& ctx) override {
    resume_after_ = committed_after_;
    done_ = !memory_.holds(index_id_, target_.get());
    if (done_) return;
    const std::string prefix = keys::key_space_prefix(index_id_);
    auto chunk = std::make_shared<std::vector<LoadedEntry>>();
    auto cursor = ctx.txn().cursor(ctx.dbs().vectors);
    auto entry = cursor.seek(resume_after_.empty() ? prefix : resume_after_);
    if (entry && entry->first == resume_after_) entry = cursor.next();
    for (; entry && entry->first.substr(0, prefix.size()) == prefix && chunk->size() < kLoadChunk;
         entry = cursor.next()) {
      chunk->push_back({std::string(entry->first), std::string(view(entry->second, dimensions_).vector_bytes)});
    }
    const bool finished = chunk->size() < kLoadChunk;
    if (!chunk->empty()) resume_after_ = chunk->back().key;
    ctx.after_commit([this, chunk, finished] {
      if (!memory_.holds(index_id_, target_.get())) {
        done_ = true;
        return;
      }
      for (const auto& e : *chunk) {
        auto partition = target_->partition_of_key(e.key);
        partition->upsert(e.key, e.vector_bytes);
        if (partition->has_graph_work()) memory_.wants_graph_work(partition);
      }
      if (finished) {
        target_->mark_ready();
        spdlog::debug("vector index {}: {} vectors loaded", index_id_, target_->vectors());
      }
      done_ = finished;
    });
  }

  void fail(ApiError error) override {
    spdlog::error("loading vector index {}: {}", index_id_, error.message());
    memory_.forget(index_id_, target_.get());  // the next search tries again
    done_ = true;
  }

  void complete() override {
    if (done_) return;
    committed_after_ = resume_after_;
    queue_.submit(std::make_unique<LoadJob>(*this));
  }

 private:
  VectorMemory& memory_;
  WriteQueue& queue_;
  std::shared_ptr<IndexMemory> target_;
  std::uint32_t index_id_;
  std::int64_t dimensions_;
  std::string committed_after_;
  std::string resume_after_;
  bool done_ = false;
};

}  // namespace

IndexMemory::IndexMemory(const VectorIndexSchema& index, SearchMode mode)
    : prefix_size_(keys::kTableIdSize + (index.hash() ? keys::kHashSize : 0)),
      dims_(static_cast<std::size_t>(index.dimensions)),
      distance_(index.distance),
      mode_(mode) {}

std::shared_ptr<Partition> IndexMemory::partition_of_key(std::string_view stored_key) {
  std::string prefix(stored_key.substr(0, prefix_size_));
  std::lock_guard lock(mutex_);
  auto& partition = partitions_[prefix];
  if (!partition) partition = std::make_shared<Partition>(dims_, distance_, mode_);
  return partition;
}

std::shared_ptr<Partition> IndexMemory::find(std::string_view prefix) const {
  std::lock_guard lock(mutex_);
  auto it = partitions_.find(std::string(prefix));
  return it == partitions_.end() ? nullptr : it->second;
}

std::size_t IndexMemory::vectors() const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& [prefix, partition] : partitions_) n += partition->size();
  return n;
}

std::size_t IndexMemory::graph_pending() const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& [prefix, partition] : partitions_) n += partition->pending();
  return n;
}

VectorMemory::VectorMemory(SearchMode mode) : mode_(mode) {
  if (mode_ == SearchMode::Approximate) builder_ = std::thread([this] { build_graphs(); });
}

VectorMemory::~VectorMemory() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  if (builder_.joinable()) builder_.join();
}

std::shared_ptr<IndexMemory> VectorMemory::registered(std::uint32_t index_id) const {
  std::lock_guard lock(mutex_);
  auto it = indexes_.find(index_id);
  return it == indexes_.end() ? nullptr : it->second;
}

std::size_t VectorMemory::graph_pending(std::uint32_t index_id) const {
  std::shared_ptr<IndexMemory> index = registered(index_id);
  return index ? index->graph_pending() : 0;
}

std::shared_ptr<IndexMemory> VectorMemory::loaded(std::uint32_t index_id) const {
  std::shared_ptr<IndexMemory> index = registered(index_id);
  return index && index->ready() ? index : nullptr;
}

void VectorMemory::load(WriteQueue& queue, const VectorIndexSchema& index) {
  std::shared_ptr<IndexMemory> target;
  {
    std::lock_guard lock(mutex_);
    auto& slot = indexes_[index.id];
    if (slot) return;  // loaded or loading
    slot = target = std::make_shared<IndexMemory>(index, mode_);
  }
  queue.submit(std::make_unique<LoadJob>(*this, queue, std::move(target), index.id, index.dimensions));
}

bool VectorMemory::holds(std::uint32_t index_id, const IndexMemory* target) const {
  return registered(index_id).get() == target;
}

void VectorMemory::forget(std::uint32_t index_id, const IndexMemory* target) {
  std::lock_guard lock(mutex_);
  auto it = indexes_.find(index_id);
  if (it != indexes_.end() && it->second.get() == target) indexes_.erase(it);
}

void VectorMemory::stage_upsert(WriteContext& ctx, const VectorIndexSchema& index_schema, std::string_view stored_key,
                                std::string_view vector_bytes) {
  const std::uint32_t index_id = index_schema.id;
  if (!registered(index_id)) {
    // A CREATING index is loaded on its first search; its backfill writes here too.
    if (index_schema.status != IndexStatus::Active) return;
    load(ctx.queue(), index_schema);  // its first chunk runs after this commit and reads this write
  }
  ctx.after_commit([this, index_id, key = std::string(stored_key), bytes = std::string(vector_bytes)] {
    std::shared_ptr<IndexMemory> index = registered(index_id);
    if (!index) return;
    auto partition = index->partition_of_key(key);
    partition->upsert(key, bytes);
    if (partition->has_graph_work()) wants_graph_work(partition);
  });
}

void VectorMemory::stage_erase(WriteContext& ctx, std::uint32_t index_id, std::string_view stored_key) {
  if (!registered(index_id)) return;
  ctx.after_commit([this, index_id, key = std::string(stored_key)] {
    std::shared_ptr<IndexMemory> index = registered(index_id);
    if (!index) return;
    index->partition_of_key(key)->erase(key);
  });
}

void VectorMemory::stage_forget(WriteContext& ctx, std::uint32_t index_id) {
  ctx.after_commit([this, index_id] {
    std::lock_guard lock(mutex_);
    indexes_.erase(index_id);
  });
}

void VectorMemory::stage_forget_all(WriteContext& ctx) {
  ctx.after_commit([this] {
    std::lock_guard lock(mutex_);
    indexes_.clear();
  });
}

void VectorMemory::wants_graph_work(std::shared_ptr<Partition> partition) {
  {
    std::lock_guard lock(mutex_);
    if (!queued_.insert(partition.get()).second) return;
    queue_.push_back(std::move(partition));
  }
  work_.notify_one();
}

void VectorMemory::build_graphs() {
  // Building a graph keeps a core busy for minutes: below the request threads.
  lower_this_thread_priority("vector graph builder");
  for (;;) {
    std::shared_ptr<Partition> partition;
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      partition = std::move(queue_.front());
      queue_.pop_front();
      // Unqueued before it is drained: a write meanwhile queues it again.
      queued_.erase(partition.get());
    }
    // One vector at a time, each under the partition's lock, so searches and
    // writes wait for one insertion at most; the queue's lock is not held.
    while (partition->add_pending_to_graph()) {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
  }
}

}  // namespace dynamod::vectors
