#pragma once
// The arithmetic of vector search, shared by the LMDB scan (vector_search.cpp)
// and the in-memory partitions (vector_partition.cpp), so that both give a
// vector the same score to the last bit.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>

#include "protocol/table_schema.h"

namespace dynamod::vectors {

// Sums over kLanes independent accumulators: a float reduction in one
// accumulator is a chain of dependent adds that the compiler may not reorder
// (no -ffast-math), so it neither vectorises nor pipelines; lanes do both
// (10,000 x 768 COSINE: 28 ms a search with one accumulator, bench/vector-search.py).
inline constexpr std::size_t kLanes = 16;

template <typename Term>
float lane_sum(std::size_t n, Term term) {
  float lanes[kLanes] = {};
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (std::size_t l = 0; l < kLanes; ++l) lanes[l] += term(i + l);
  }
  float sum = 0;
  for (; i < n; ++i) sum += term(i);
  for (float l : lanes) sum += l;
  return sum;
}

inline float dot(std::span<const float> a, std::span<const float> b) {
  const float* x = a.data();
  const float* y = b.data();
  return lane_sum(std::min(a.size(), b.size()), [&](std::size_t i) { return x[i] * y[i]; });
}

inline float squared_norm(std::span<const float> a) { return dot(a, a); }

// COSINE's score from its parts: 1 - cosine similarity, 0 identical .. 2
// opposite; a zero vector scores 1.
inline double cosine_score(float dot_product, float query_squared_norm, float stored_squared_norm) {
  if (query_squared_norm == 0 || stored_squared_norm == 0) return 1.0;
  double similarity = static_cast<double>(dot_product) / (std::sqrt(static_cast<double>(query_squared_norm)) *
                                                          std::sqrt(static_cast<double>(stored_squared_norm)));
  return 1.0 - std::clamp(similarity, -1.0, 1.0);
}

// The score of `stored` against `query`, as the service reports it: COSINE is
// 1 - cosine similarity, EUCLIDEAN the distance, DOT_PRODUCT the dot product.
inline double score(DistanceFunction function, std::span<const float> query, std::span<const float> stored) {
  const std::size_t n = std::min(query.size(), stored.size());
  const float* q = query.data();
  const float* s = stored.data();
  switch (function) {
    case DistanceFunction::Euclidean: {
      float sum = lane_sum(n, [&](std::size_t i) { return (q[i] - s[i]) * (q[i] - s[i]); });
      return std::sqrt(static_cast<double>(sum));
    }
    case DistanceFunction::DotProduct: return dot(query, stored);
    case DistanceFunction::Cosine: return cosine_score(dot(query, stored), squared_norm(query), squared_norm(stored));
  }
  return 0;
}

// Whether score `a` ranks before `b` (smaller first, but larger for DOT_PRODUCT).
inline bool ranks_before(DistanceFunction function, double a, double b) {
  return function == DistanceFunction::DotProduct ? a > b : a < b;
}

}  // namespace dynamod::vectors
