// Vector scores as the API reference defines them, and vector indexes in the
// catalog's schema JSON.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "storage/schema_codec.h"
#include "storage/vector_math.h"

namespace dynamod {

TEST_CASE("vector scores") {
  const std::vector<float> q{1, 0};
  SUBCASE("COSINE: 1 - cosine similarity, 0 identical to 2 opposite; a zero vector scores 1") {
    CHECK(vectors::score(DistanceFunction::Cosine, q, std::vector<float>{3, 0}) == doctest::Approx(0.0));
    CHECK(vectors::score(DistanceFunction::Cosine, q, std::vector<float>{0, 2}) == doctest::Approx(1.0));
    CHECK(vectors::score(DistanceFunction::Cosine, q, std::vector<float>{-1, 0}) == doctest::Approx(2.0));
    CHECK(vectors::score(DistanceFunction::Cosine, q, std::vector<float>{1, 1}) ==
          doctest::Approx(1.0 - 1.0 / std::sqrt(2.0)));
    CHECK(vectors::score(DistanceFunction::Cosine, q, std::vector<float>{0, 0}) == 1.0);
  }
  SUBCASE("EUCLIDEAN: the distance") {
    CHECK(vectors::score(DistanceFunction::Euclidean, q, std::vector<float>{4, 4}) == doctest::Approx(5.0));
  }
  SUBCASE("DOT_PRODUCT: the dot product") {
    CHECK(vectors::score(DistanceFunction::DotProduct, std::vector<float>{2, -1}, std::vector<float>{3, 4}) ==
          doctest::Approx(2.0));
  }
  CHECK(vectors::ranks_before(DistanceFunction::Cosine, 0.1, 0.2));
  CHECK(vectors::ranks_before(DistanceFunction::Euclidean, 1, 2));
  CHECK(vectors::ranks_before(DistanceFunction::DotProduct, 2, 1));
}

TEST_CASE("vector indexes round-trip through the catalog's schema JSON") {
  TableSchema s;
  s.name = "t";
  s.key.partition = {"pk", ScalarType::S};
  s.billing_mode = BillingMode::PayPerRequest;
  VectorIndexSchema index;
  index.name = "vix";
  index.id = 7;
  index.attribute = "emb";
  index.dimensions = 768;
  index.distance = DistanceFunction::DotProduct;
  index.search_schema = {{"cat", SearchSchemaRole::Hash, ScalarType::S},
                         {"n", SearchSchemaRole::InlineFilter, ScalarType::N}};
  index.projection = {ProjectionType::Include, {"a", "b"}};
  index.status = IndexStatus::Creating;
  index.backfilling = true;
  s.vector_indexes.push_back(index);
  CHECK(decode_schema(encode_schema(s)) == s);
  // A catalog written before vector indexes has none.
  TableSchema plain = s;
  plain.vector_indexes.clear();
  CHECK(encode_schema(plain).find("vector_indexes") == std::string::npos);
  CHECK(decode_schema(encode_schema(plain)).vector_indexes.empty());
}

}  // namespace dynamod
