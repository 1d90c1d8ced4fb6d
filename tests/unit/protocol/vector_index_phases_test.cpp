// A vector index added by UpdateTable passes through two phases while CREATING (resource
// allocation, Backfilling false; then backfilling). What a Delete and a search get in each is
// the service's answer, measured by nubo-db/dynamodb-conformance (tier2
// vectorSearch/updateLifecycle.test.ts, eu-west-2, 2026-08). A dynamod backfill of a small
// table is over in milliseconds, so the phases are checked here rather than over HTTP.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/vector_index.h"
#include "protocol/vector_search_request.h"

namespace dynamod {
namespace {

// Only what a Delete and a search of the index look at.
TableSchema table_adding_an_index(bool backfilling) {
  VectorIndexSchema index;
  index.name = "vix";
  index.dimensions = 2;
  index.status = IndexStatus::Creating;
  index.backfilling = backfilling;
  TableSchema s;
  s.name = "t";
  s.vector_indexes.push_back(index);
  return s;
}

std::vector<RawVectorIndexUpdate> delete_of(const std::string& name) {
  RawVectorIndexUpdate u;
  u.actions = 1;
  u.has_delete = true;
  u.delete_name = name;
  return {u};
}

ApiError refusal(const std::vector<RawVectorIndexUpdate>& updates, const TableSchema& table) {
  try {
    validate_vector_index_updates(updates, table, std::nullopt, BillingMode::PayPerRequest);
  } catch (const ApiError& e) {
    return e;
  }
  FAIL("accepted");
  return ApiError::validation("");
}

SearchVectorsRequest search_of(const std::string& index) {
  SearchVectorsRequest r;
  r.table_name = "t";
  r.index_name = index;
  r.search_vector = std::vector<AttributeValue>{AttributeValue::number(*Number::parse("1").number),
                                                AttributeValue::number(*Number::parse("0").number)};
  r.top_k = 1;
  return r;
}

}  // namespace

TEST_CASE("a Delete of a CREATING vector index: refused while allocating, a cancel once backfilling") {
  ApiError allocating = refusal(delete_of("vix"), table_adding_an_index(false));
  CHECK(allocating.code() == ErrorCode::ResourceInUseException);
  CHECK(allocating.message() ==
        "Attempt to change a resource which is still in use: Index creation is in resource allocation phase. Retry "
        "deletion during backfilling phase or when the index is active. Table: t Index: vix");

  VectorIndexChange cancel = validate_vector_index_updates(delete_of("vix"), table_adding_an_index(true), std::nullopt,
                                                           BillingMode::PayPerRequest);
  CHECK(cancel.delete_name == "vix");

  // Any other index operation meanwhile answers the one-at-a-time limit.
  TableSchema two = table_adding_an_index(true);
  VectorIndexSchema active = two.vector_indexes.front();
  active.name = "other";
  active.status = IndexStatus::Active;
  two.vector_indexes.push_back(active);
  ApiError limit = refusal(delete_of("other"), two);
  CHECK(limit.code() == ErrorCode::LimitExceededException);
  CHECK(limit.message() ==
        "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
}

TEST_CASE("a search of a vector index being added: not there while allocating, then backfilling") {
  for (bool backfilling : {false, true}) {
    TableSchema table = table_adding_an_index(backfilling);
    try {
      validate_search_vectors(search_of("vix"), table);
      FAIL("accepted");
    } catch (const ApiError& e) {
      CHECK(e.code() == ErrorCode::ValidationException);
      CHECK(e.message() == (backfilling ? "Cannot search backfilling vector index: vix"
                                        : "The table does not have the specified index: vix"));
    }
  }
}

}  // namespace dynamod
