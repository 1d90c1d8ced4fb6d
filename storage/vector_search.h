#pragma once
// SearchVectors over a vector index's entries (storage/vector_entries.h), in
// one read transaction.
//
// Exact search: every entry of the searched partition (the search schema's
// HASH value, or the whole index) is scored against the query, and the TopK
// best are kept, ties in key order. An INLINE_FILTER is checked only for an
// entry whose score would enter the TopK, so an unfiltered search decodes
// only the results' records.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "protocol/table_schema.h"
#include "protocol/vector_search_request.h"
#include "storage/store.h"

namespace dynamod::vectors {

// The score of `stored` against `query`, as the service reports it: COSINE is
// 1 - cosine similarity (0 identical .. 2 opposite; a zero vector scores 1),
// EUCLIDEAN the distance, DOT_PRODUCT the dot product.
double score(DistanceFunction function, std::span<const float> query, std::span<const float> stored);
// Whether score `a` ranks before `b` (smaller first, but larger for DOT_PRODUCT).
inline bool ranks_before(DistanceFunction function, double a, double b) {
  return function == DistanceFunction::DotProduct ? a > b : a < b;
}

struct SearchHit {
  std::string record;  // the projected attributes (item record format)
  double score = 0;
};

struct SearchResult {
  std::vector<SearchHit> hits;  // best first
  std::uint64_t examined = 0;   // vectors scored
};

SearchResult search(Store& store, const VectorSearchSpec& spec);

}  // namespace dynamod::vectors
