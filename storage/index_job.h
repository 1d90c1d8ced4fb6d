#pragma once
// The frame both background index jobs share (GSIs: storage/index_builds;
// vector indexes: storage/vector_builds): one writer job per chunk of items or
// entries, each queuing the next once its progress has committed, so client
// writes interleave with a build or drop and a restart resumes it from the catalog.

#include <spdlog/spdlog.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "storage/write_queue.h"

namespace dynamod {

// Items (or entries) handled per writer job.
inline constexpr int kIndexJobChunk = 2000;

// `Job` (CRTP) provides `bool step(WriteContext&, const Table&)`: one chunk of
// the work on the table, true when the job is done (or has nothing to do).
template <class Job>
class IndexJobFrame : public WriteJob {
 public:
  IndexJobFrame(WriteQueue& queue, std::string ns, std::string table, std::uint32_t table_id, std::uint32_t index_id)
      : queue_(queue), ns_(std::move(ns)), table_(std::move(table)), table_id_(table_id), index_id_(index_id) {}

  void run(WriteContext& ctx) final {
    resume_after_ = committed_after_;
    TablePtr table = ctx.find_table(ns_, table_);
    // The table went away (or is another one by the same name): nothing to do.
    done_ = !table || table->schema.id != table_id_ || static_cast<Job&>(*this).step(ctx, *table);
  }

  void fail(ApiError error) final {
    spdlog::error("index job on {}: {}", table_, error.message());
    done_ = true;
  }

  void complete() final {
    if (done_) return;
    committed_after_ = resume_after_;
    queue_.submit(std::make_unique<Job>(static_cast<const Job&>(*this)));
  }

 protected:
  // Deletes up to a chunk of the keys of `dbi` under `prefix`; true when none is left.
  static bool delete_chunk(WriteContext& ctx, lmdb::Dbi dbi, std::string_view prefix) {
    auto cursor = ctx.txn().cursor(dbi);
    int removed = 0;
    for (auto entry = cursor.seek(prefix);
         entry && entry->first.substr(0, prefix.size()) == prefix && removed < kIndexJobChunk;
         entry = cursor.seek(prefix), ++removed) {
      cursor.del();
    }
    return removed < kIndexJobChunk;
  }

  WriteQueue& queue_;
  std::string ns_;
  std::string table_;
  std::uint32_t table_id_;
  std::uint32_t index_id_;
  std::string committed_after_;  // progress that reached the disk
  std::string resume_after_;     // progress of the current run
  bool done_ = false;
};

}  // namespace dynamod
