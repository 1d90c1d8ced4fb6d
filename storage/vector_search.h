#pragma once
// SearchVectors over a vector index: the searched partition (the search
// schema's HASH value, or the whole index) of its vectors in memory
// (storage/vector_memory.h), exactly or through its graph by --vector-search,
// and the results' records from LMDB in one read transaction. The TopK best
// are kept, ties in key order. An INLINE_FILTER is checked only for an entry
// whose score would enter the TopK, so an unfiltered search decodes only the
// results' records.
//
// Until the index's vectors are loaded (after a start, a restore, a reset),
// the search scores the entries in LMDB instead, exactly, and starts the load.

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/table_schema.h"
#include "protocol/vector_search_request.h"
#include "storage/store.h"
#include "storage/write_queue.h"

namespace dynamod::vectors {

struct SearchHit {
  std::string record;  // the projected attributes (item record format)
  double score = 0;
};

struct SearchResult {
  std::vector<SearchHit> hits;  // best first
  std::uint64_t examined = 0;   // vectors in the searched partition
};

SearchResult search(Store& store, WriteQueue& writer, const VectorSearchSpec& spec);

}  // namespace dynamod::vectors
