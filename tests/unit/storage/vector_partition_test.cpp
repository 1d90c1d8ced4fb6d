// A vector index partition in memory: exact search against a brute-force
// reference, and approximate search through its HNSW graph with pending
// vectors, changes and deletions.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "storage/vector_math.h"
#include "storage/vector_partition.h"

namespace dynamod::vectors {
namespace {

constexpr std::size_t kDims = 16;

std::string bytes_of(const std::vector<float>& v) {
  std::string out(v.size() * sizeof(float), '\0');
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

std::vector<float> random_vector(std::mt19937& rng) {
  std::normal_distribution<float> normal;
  std::vector<float> v(kDims);
  for (float& x : v) x = normal(rng);
  return v;
}

std::string key_of(int i) {
  char key[16];
  std::snprintf(key, sizeof key, "k%06d", i);
  return key;
}

const Accept kAll = [](std::string_view) { return true; };

// The best `k` of `vectors` for `query` by `score`, ties in key order: what a search must find.
std::vector<std::string> reference(
    DistanceFunction function, const std::vector<std::vector<float>>& vectors, const std::vector<float>& query,
    std::size_t k, const std::function<bool(int)>& keep = [](int) { return true; }) {
  std::vector<std::pair<double, std::string>> all;
  for (int i = 0; i < static_cast<int>(vectors.size()); ++i) {
    if (!vectors[i].empty() && keep(i)) all.emplace_back(score(function, query, vectors[i]), key_of(i));
  }
  std::sort(all.begin(), all.end(), [&](const auto& a, const auto& b) {
    if (a.first != b.first) return ranks_before(function, a.first, b.first);
    return a.second < b.second;
  });
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < std::min(k, all.size()); ++i) keys.push_back(all[i].second);
  return keys;
}

std::vector<std::string> keys_of(const std::vector<Candidate>& found) {
  std::vector<std::string> keys;
  for (const auto& c : found) keys.push_back(c.key);
  return keys;
}

void drain(Partition& p) {
  while (p.add_pending_to_graph()) {
  }
}

}  // namespace

TEST_CASE("an exact partition finds what brute force finds, with each change") {
  for (DistanceFunction function :
       {DistanceFunction::Cosine, DistanceFunction::Euclidean, DistanceFunction::DotProduct}) {
    CAPTURE(static_cast<int>(function));
    std::mt19937 rng(1);
    Partition p(kDims, function, SearchMode::Exact);
    std::vector<std::vector<float>> vectors(500);
    for (int i = 0; i < 500; ++i) {
      vectors[i] = random_vector(rng);
      p.upsert(key_of(i), bytes_of(vectors[i]));
    }
    // Changes and deletions, some of whose slots new vectors reuse.
    for (int i = 0; i < 500; i += 7) {
      vectors[i] = random_vector(rng);
      p.upsert(key_of(i), bytes_of(vectors[i]));
    }
    for (int i = 3; i < 500; i += 11) {
      vectors[i].clear();
      p.erase(key_of(i));
    }
    p.erase("never-written");
    CHECK(p.size() == static_cast<std::size_t>(
                          std::count_if(vectors.begin(), vectors.end(), [](const auto& v) { return !v.empty(); })));
    for (int q = 0; q < 20; ++q) {
      auto query = random_vector(rng);
      std::uint64_t examined = 0;
      CHECK(keys_of(p.search(query, 10, kAll, examined)) == reference(function, vectors, query, 10));
      CHECK(examined == p.size());
      // A filter asked only of would-be results: only even keys.
      Accept even = [](std::string_view key) { return (key.back() - '0') % 2 == 0; };
      CHECK(keys_of(p.search(query, 10, even, examined)) ==
            reference(function, vectors, query, 10, [](int i) { return i % 2 == 0; }));
    }
  }
}

TEST_CASE("ties rank in key order, and the scores are score()'s to the bit") {
  Partition p(2, DistanceFunction::Cosine, SearchMode::Exact);
  p.upsert("b", bytes_of({2, 0}));
  p.upsert("a", bytes_of({1, 0}));
  p.upsert("c", bytes_of({0, 1}));
  std::uint64_t examined = 0;
  auto found = p.search(std::vector<float>{3, 0}, 3, kAll, examined);
  REQUIRE(found.size() == 3);
  CHECK(keys_of(found) == std::vector<std::string>{"a", "b", "c"});
  CHECK(found[0].score == score(DistanceFunction::Cosine, std::vector<float>{3, 0}, std::vector<float>{1, 0}));
  CHECK(found[2].score == score(DistanceFunction::Cosine, std::vector<float>{3, 0}, std::vector<float>{0, 1}));
}

TEST_CASE("a batch of changes applies in its order, as the same changes one by one") {
  Partition p(2, DistanceFunction::Euclidean, SearchMode::Approximate);
  p.upsert("gone", bytes_of({5, 5}));
  std::vector<Partition::Change> changes{
      {"a", bytes_of({1, 0}), false},
      {"a", bytes_of({0, 1}), false},  // the later vector wins
      {"b", bytes_of({9, 9}), false},
      {"b", {}, true},  // put then erased: absent
      {"gone", {}, true},
      {"gone", bytes_of({2, 2}), false},  // erased then put again: present
  };
  CHECK_FALSE(p.apply(changes));  // 2 vectors: no graph due
  CHECK(p.size() == 2);
  std::uint64_t examined = 0;
  CHECK(keys_of(p.search(std::vector<float>{0, 1}, 5, kAll, examined)) == std::vector<std::string>{"a", "gone"});
  CHECK(p.search(std::vector<float>{0, 1}, 1, kAll, examined)[0].score == 0);  // a is (0, 1)
  CHECK(p.pending() == 0);  // too small for a graph: nothing waits for one
}

TEST_CASE("an approximate partition: small ones stay exact, large ones search their graph") {
  std::mt19937 rng(2);
  Partition p(kDims, DistanceFunction::Cosine, SearchMode::Approximate);
  std::vector<std::vector<float>> vectors(kGraphThreshold + 2000);
  for (std::size_t i = 0; i < kGraphThreshold - 1; ++i) {
    vectors[i] = random_vector(rng);
    p.upsert(key_of(static_cast<int>(i)), bytes_of(vectors[i]));
  }
  // Below the threshold there is no graph to build, and searches are exact.
  CHECK_FALSE(p.has_graph_work());
  CHECK_FALSE(p.add_pending_to_graph());
  auto query = random_vector(rng);
  std::uint64_t examined = 0;
  CHECK(keys_of(p.search(query, 10, kAll, examined)) == reference(DistanceFunction::Cosine, vectors, query, 10));

  for (std::size_t i = kGraphThreshold - 1; i < vectors.size(); ++i) {
    vectors[i] = random_vector(rng);
    p.upsert(key_of(static_cast<int>(i)), bytes_of(vectors[i]));
  }
  CHECK(p.has_graph_work());
  // Half in the graph, half pending: still every vector is searched.
  for (std::size_t i = 0; i < vectors.size() / 2; ++i) REQUIRE(p.add_pending_to_graph());
  SUBCASE("recall with pending vectors, then with all in the graph") {
    for (int round = 0; round < 2; ++round) {
      std::size_t hits = 0;
      for (int q = 0; q < 50; ++q) {
        auto query = random_vector(rng);
        auto want = reference(DistanceFunction::Cosine, vectors, query, 10);
        auto got = keys_of(p.search(query, 10, kAll, examined));
        CHECK(got.size() == 10);
        for (const auto& k : got) hits += std::count(want.begin(), want.end(), k);
      }
      CHECK(static_cast<double>(hits) / 500 >= 0.9);
      drain(p);
      CHECK_FALSE(p.has_graph_work());
    }
  }
  SUBCASE("a changed vector is found by its new value, a deleted one not at all") {
    drain(p);
    auto target = random_vector(rng);
    p.upsert(key_of(5), bytes_of(target));  // in the graph before, pending now
    auto found = p.search(target, 1, kAll, examined);
    REQUIRE(found.size() == 1);
    CHECK(found[0].key == key_of(5));
    CHECK(found[0].score == doctest::Approx(0.0).epsilon(1e-6));
    drain(p);  // back in the graph with its new value
    found = p.search(target, 1, kAll, examined);
    REQUIRE(found.size() == 1);
    CHECK(found[0].key == key_of(5));
    p.erase(key_of(5));
    for (const auto& c : p.search(target, 10, kAll, examined)) CHECK(c.key != key_of(5));
    // Its slot is reused by a new key: the graph's stale node does not answer for it.
    auto other = random_vector(rng);
    p.upsert("new", bytes_of(other));
    drain(p);
    found = p.search(other, 1, kAll, examined);
    REQUIRE(found.size() == 1);
    CHECK(found[0].key == "new");
    for (const auto& c : p.search(target, 10, kAll, examined)) CHECK(c.key != "new");
  }
  SUBCASE("a selective filter widens the graph's search until TopK pass") {
    drain(p);
    Accept rare = [](std::string_view key) { return key.back() == '7' && key[key.size() - 2] == '7'; };
    auto query = random_vector(rng);
    auto got = p.search(query, 10, rare, examined);
    CHECK(got.size() == 10);
    for (const auto& c : got) CHECK(rare(c.key));
  }
}

TEST_CASE("approximate EUCLIDEAN and DOT_PRODUCT rank as their scores do") {
  for (DistanceFunction function : {DistanceFunction::Euclidean, DistanceFunction::DotProduct}) {
    CAPTURE(static_cast<int>(function));
    std::mt19937 rng(3);
    Partition p(kDims, function, SearchMode::Approximate);
    std::vector<std::vector<float>> vectors(kGraphThreshold + 500);
    for (std::size_t i = 0; i < vectors.size(); ++i) {
      vectors[i] = random_vector(rng);
      p.upsert(key_of(static_cast<int>(i)), bytes_of(vectors[i]));
    }
    drain(p);
    std::size_t hits = 0;
    for (int q = 0; q < 30; ++q) {
      auto query = random_vector(rng);
      auto want = reference(function, vectors, query, 10);
      std::uint64_t examined = 0;
      auto found = p.search(query, 10, kAll, examined);
      REQUIRE(found.size() == 10);
      for (std::size_t i = 1; i < found.size(); ++i) {
        CHECK_FALSE(ranks_before(function, found[i].score, found[i - 1].score));
      }
      for (const auto& c : found) hits += std::count(want.begin(), want.end(), c.key);
    }
    CHECK(static_cast<double>(hits) / 300 >= 0.85);
  }
}

}  // namespace dynamod::vectors
