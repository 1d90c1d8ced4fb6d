#pragma once
// Vector indexes added or removed by UpdateTable: the change to the table's
// schema, and the background backfill or drop, one writer job per chunk (as
// storage/index_builds does for GSIs). Client writes maintain a CREATING
// vector index, so the backfill only adds the entries of the items it finds;
// a build or drop left unfinished by a restart starts over from the catalog.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "protocol/vector_index.h"
#include "storage/catalog.h"
#include "storage/write_queue.h"

namespace dynamod {

// Applies a validated VectorIndexUpdates change to `next` (a new index is
// CREATING with a fresh key space; a deleted one DELETING); returns the index
// whose job must be scheduled once the change commits.
std::optional<std::uint32_t> apply_vector_index_change(WriteContext& ctx, VectorIndexChange change, TableSchema& next,
                                                       std::map<std::uint32_t, std::shared_ptr<TableStats>>& stats);

// Queues the backfill (CREATING) or drop (DELETING) of one vector index.
void schedule_vector_index_job(WriteQueue& queue, const std::string& ns, const std::string& table,
                               std::uint32_t table_id, std::uint32_t index_id);

// At startup: resumes every vector index build and drop the catalog records,
// and loads the vectors of every other vector index into memory.
void resume_vector_index_jobs(Store& store, WriteQueue& queue);

}  // namespace dynamod
