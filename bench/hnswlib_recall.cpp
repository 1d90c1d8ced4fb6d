// dynamod-hnswlib-recall: recall@10 of plain hnswlib, with dynamod's graph
// parameters, against brute force, outside dynamod. It separates what the
// library gives on a distribution from what dynamod's use of it gives
// (bench/vector-search.py --compare measures the latter on the same shapes).
//
//   dynamod-hnswlib-recall ITEMS DIMS [CLUSTERS NOISE [EF,EF,...]]
//
// CLUSTERS 0 (the default) draws isotropic Gaussian directions, as
// vector-search.py --data random does; otherwise a Gaussian mixture around
// CLUSTERS centres with NOISE times their spread, as --data clustered does.
// Vectors are unit length and compared by inner product (COSINE's order).
// The graph is built once and searched with each EF (default dynamod's):
// one JSON line per EF with recall@10 and the mean search time.
#include <hnswlib/hnswlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "storage/vector_partition.h"

namespace {

class Source {
 public:
  Source(std::size_t dims, std::size_t clusters, float noise) : dims_(dims), noise_(noise), centres_(clusters * dims) {
    for (float& x : centres_) x = gauss_(rng_);
  }

  void fill(float* out) {
    const std::size_t clusters = centres_.size() / dims_;
    const float* centre = clusters ? &centres_[(rng_() % clusters) * dims_] : nullptr;
    float squared = 0;
    for (std::size_t j = 0; j < dims_; ++j) {
      out[j] = centre ? centre[j] + noise_ * gauss_(rng_) : gauss_(rng_);
      squared += out[j] * out[j];
    }
    const float norm = std::sqrt(squared);
    for (std::size_t j = 0; j < dims_; ++j) out[j] /= norm;
  }

 private:
  std::size_t dims_;
  float noise_;
  std::mt19937 rng_{1};
  std::normal_distribution<float> gauss_{0, 1};
  std::vector<float> centres_;
};

float dot(const float* a, const float* b, std::size_t dims) {
  float sum = 0;
  for (std::size_t j = 0; j < dims; ++j) sum += a[j] * b[j];
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s ITEMS DIMS [CLUSTERS NOISE [EF,EF,...]]\n", argv[0]);
    return 2;
  }
  const std::size_t items = std::stoul(argv[1]);
  const std::size_t dims = std::stoul(argv[2]);
  const std::size_t clusters = argc > 3 ? std::stoul(argv[3]) : 0;
  const float noise = argc > 4 ? std::stof(argv[4]) : 1;
  std::vector<std::size_t> efs;
  for (std::string list = argc > 5 ? argv[5] : std::to_string(dynamod::vectors::kGraphEfSearch); !list.empty();) {
    std::size_t comma = list.find(',');
    efs.push_back(std::stoul(list.substr(0, comma)));
    list = comma == std::string::npos ? "" : list.substr(comma + 1);
  }
  constexpr std::size_t kQueries = 200;
  constexpr std::size_t kTopK = 10;

  Source source(dims, clusters, noise);
  std::vector<float> data(items * dims);
  for (std::size_t i = 0; i < items; ++i) source.fill(&data[i * dims]);
  hnswlib::InnerProductSpace space(dims);
  hnswlib::HierarchicalNSW<float> graph(&space, items, dynamod::vectors::kGraphM,
                                        dynamod::vectors::kGraphEfConstruction);
  for (std::size_t i = 0; i < items; ++i) graph.addPoint(&data[i * dims], i);

  // The queries and their exact answers, once.
  std::vector<std::vector<float>> queries(kQueries, std::vector<float>(dims));
  std::vector<std::vector<std::size_t>> best(kQueries);
  std::vector<std::pair<float, std::size_t>> exact(items);
  for (std::size_t q = 0; q < kQueries; ++q) {
    source.fill(queries[q].data());
    for (std::size_t i = 0; i < items; ++i) exact[i] = {-dot(queries[q].data(), &data[i * dims], dims), i};
    std::partial_sort(exact.begin(), exact.begin() + kTopK, exact.end());
    for (std::size_t t = 0; t < kTopK; ++t) best[q].push_back(exact[t].second);
  }
  for (std::size_t ef : efs) {
    graph.setEf(ef);
    double recall = 0;
    const auto started = std::chrono::steady_clock::now();
    for (std::size_t q = 0; q < kQueries; ++q) {
      std::size_t hits = 0;
      for (auto found = graph.searchKnn(queries[q].data(), kTopK); !found.empty(); found.pop()) {
        hits += std::count(best[q].begin(), best[q].end(), found.top().second);
      }
      recall += static_cast<double>(hits) / kTopK;
    }
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
    std::printf(
        "{\"items\": %zu, \"dims\": %zu, \"clusters\": %zu, \"noise\": %g, \"ef\": %zu, \"recall_at_10\": %.3f, "
        "\"search_ms\": %.3f}\n",
        items, dims, clusters, noise, ef, recall / kQueries, took.count() / kQueries);
    std::fflush(stdout);
  }
}
