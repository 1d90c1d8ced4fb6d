#pragma once
// --vector-search: how SearchVectors searches a large partition of a vector
// index (storage/vector_partition.h): exactly, or through an HNSW graph.

#include <cstdint>

namespace dynamod::vectors {

enum class SearchMode : std::uint8_t { Exact, Approximate };

}  // namespace dynamod::vectors
