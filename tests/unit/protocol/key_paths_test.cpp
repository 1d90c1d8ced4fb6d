// check_whole_key_paths: a path into a key attribute is refused, the key
// attributes looked at in the service's order, not the order of the paths.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/key_paths.h"

namespace dynamod {
namespace {

// pk/sk; local index on lsk; global index on gpk/gsk.
TableSchema schema() {
  TableSchema t;
  t.key = KeyDef{{"pk", ScalarType::S}, KeyElement{"sk", ScalarType::N}};
  IndexSchema local;
  local.name = "lsi";
  local.key = KeyDef{{"pk", ScalarType::S}, KeyElement{"lsk", ScalarType::N}};
  t.local_indexes.push_back(local);
  IndexSchema global;
  global.name = "gsi";
  global.key = KeyDef{{"gpk", ScalarType::S}, KeyElement{"gsk", ScalarType::S}};
  t.global_indexes.push_back(global);
  return t;
}

expr::Path path(const std::string& root, bool nested) {
  expr::Path p = expr::make_path(root);
  if (nested) p.steps.push_back(expr::PathStep{std::string("x")});
  return p;
}

// The message check_whole_key_paths gives for these paths ("" when it accepts them).
std::string refusal(const std::vector<expr::Path>& paths) {
  PathList list;
  for (const auto& p : paths) list.push_back(&p);
  try {
    check_whole_key_paths(schema(), list);
  } catch (const ApiError& e) {
    CHECK(e.code() == ErrorCode::ValidationException);
    return e.message();
  }
  return "";
}

const std::string kPrefix =
    "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: ";

}  // namespace

TEST_CASE("key paths: whole keys and paths into other attributes pass") {
  CHECK(refusal({}).empty());
  CHECK(refusal({path("pk", false), path("gsk", false), path("lsk", false)}).empty());
  CHECK(refusal({path("x", true), path("pkx", true)}).empty());
}

TEST_CASE("key paths: table keys are Key, index keys IndexKey") {
  CHECK(refusal({path("pk", true)}) == kPrefix + "Key: pk");
  CHECK(refusal({path("sk", true)}) == kPrefix + "Key: sk");
  CHECK(refusal({path("lsk", true)}) == kPrefix + "IndexKey: lsk");
  CHECK(refusal({path("gpk", true)}) == kPrefix + "IndexKey: gpk");
  CHECK(refusal({path("gsk", true)}) == kPrefix + "IndexKey: gsk");
}

TEST_CASE("key paths: table keys, then local indexes, then global ones, whatever the order written") {
  CHECK(refusal({path("gsk", true), path("sk", true)}) == kPrefix + "Key: sk");
  CHECK(refusal({path("gpk", true), path("lsk", true)}) == kPrefix + "IndexKey: lsk");
  CHECK(refusal({path("gsk", true), path("gpk", true)}) == kPrefix + "IndexKey: gpk");
  CHECK(refusal({path("sk", true), path("pk", true)}) == kPrefix + "Key: pk");
}

}  // namespace dynamod
