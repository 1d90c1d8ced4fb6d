#pragma once
// Building and dropping a global secondary index added or removed by
// UpdateTable, in the background, on the writer thread.
//
// Each step is one writer job that handles a chunk of items and then queues
// the next step, so client writes interleave with the build. Client writes
// maintain a CREATING index like any other, so the backfill only has to add
// the entries of items it finds (skipping those whose key attributes do not
// fit the index, as the service does). A build or drop left unfinished by a
// restart starts over from the catalog (both are idempotent).

#include <cstdint>
#include <string>

#include "storage/write_queue.h"

namespace dynamod {

// Queues the build (index CREATING) or drop (index DELETING) of one index.
void schedule_index_job(WriteQueue& queue, const std::string& ns, const std::string& table, std::uint32_t table_id,
                        std::uint32_t index_id);

// At startup: resumes every index build and drop the catalog records.
void resume_index_jobs(Store& store, WriteQueue& queue);

}  // namespace dynamod
