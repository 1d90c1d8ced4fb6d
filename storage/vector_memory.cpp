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
    // Writes staged later in this commit must apply after this chunk, which read before them.
    memory_.seal_commit_batch();
    ctx.after_commit([this, chunk, finished] {
      if (!memory_.holds(index_id_, target_.get())) {
        done_ = true;
        return;
      }
      std::vector<Partition::Change> changes;
      changes.reserve(chunk->size());
      for (auto& e : *chunk) changes.push_back({std::move(e.key), std::move(e.vector_bytes), false});
      for (auto& partition : target_->apply(std::move(changes))) memory_.wants_graph_work(std::move(partition));
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

std::vector<std::shared_ptr<Partition>> IndexMemory::apply(std::vector<Partition::Change> changes) {
  // Grouped by partition, each group in its changes' order (a key's changes stay in order).
  std::vector<std::pair<std::shared_ptr<Partition>, std::vector<Partition::Change>>> groups;
  std::unordered_map<const Partition*, std::size_t> group_of;
  for (auto& change : changes) {
    std::shared_ptr<Partition> partition = partition_of_key(change.key);
    auto [it, added] = group_of.try_emplace(partition.get(), groups.size());
    if (added) groups.emplace_back(std::move(partition), std::vector<Partition::Change>{});
    groups[it->second].second.push_back(std::move(change));
  }
  std::vector<std::shared_ptr<Partition>> graph_work;
  for (auto& [partition, group] : groups) {
    if (partition->apply(group)) graph_work.push_back(partition);
  }
  return graph_work;
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
  stage(ctx, index_id, {std::string(stored_key), std::string(vector_bytes), false});
}

void VectorMemory::stage_erase(WriteContext& ctx, std::uint32_t index_id, std::string_view stored_key) {
  if (!registered(index_id)) return;
  stage(ctx, index_id, {std::string(stored_key), {}, true});
}

// A commit's changes are gathered in one batch, applied by one after-commit
// action. The batch lives only in that action, so a group that fails (its
// actions dropped unrun) leaves no batch behind: the weak pointer expires,
// and the next group, even at the same WriteContext address, opens its own.
void VectorMemory::stage(WriteContext& ctx, std::uint32_t index_id, Partition::Change change) {
  std::shared_ptr<CommitBatch> batch;
  {
    std::lock_guard lock(mutex_);
    batch = open_batch_.lock();
    if (!batch || batch->context != &ctx || batch->applied) {
      batch = std::make_shared<CommitBatch>();
      batch->context = &ctx;
      open_batch_ = batch;
      ctx.after_commit([this, batch] { apply(*batch); });
    }
  }
  batch->changes[index_id].push_back(std::move(change));
}

void VectorMemory::seal_commit_batch() {
  std::lock_guard lock(mutex_);
  open_batch_.reset();
}

void VectorMemory::apply(CommitBatch& batch) {
  {
    std::lock_guard lock(mutex_);
    batch.applied = true;
  }
  for (auto& [index_id, changes] : batch.changes) {
    std::shared_ptr<IndexMemory> index = registered(index_id);
    if (!index) continue;
    for (auto& partition : index->apply(std::move(changes))) wants_graph_work(std::move(partition));
  }
  batch.changes.clear();
}

void VectorMemory::stage_forget(WriteContext& ctx, std::uint32_t index_id) {
  seal_commit_batch();
  ctx.after_commit([this, index_id] {
    std::lock_guard lock(mutex_);
    indexes_.erase(index_id);
  });
}

void VectorMemory::stage_forget_all(WriteContext& ctx) {
  seal_commit_batch();
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
