// The bucket store maps s3:// locations into one folder per bucket and never
// lets a bucket name or key reach outside it.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "protocol/api_error.h"
#include "storage/bucket_store.h"

using dynamod::ApiError;
using dynamod::ErrorCode;
using dynamod::storage::BucketStore;
using dynamod::storage::TemporaryFolder;

namespace {

ErrorCode refusal(const BucketStore& store, std::string_view bucket, std::string_view key) {
  try {
    store.path_of(bucket, key);
  } catch (const ApiError& e) {
    return e.code();
  }
  FAIL("accepted s3://" << bucket << "/" << key);
  return ErrorCode::InternalServerError;
}

}  // namespace

TEST_CASE("bucket store: objects live under <root>/<bucket>/<key>") {
  BucketStore store("/srv/s3");
  CHECK(store.root() == "/srv/s3");
  CHECK(store.path_of("my-bucket", "exports/AWSDynamoDB/01/_started") ==
        "/srv/s3/my-bucket/exports/AWSDynamoDB/01/_started");
  CHECK(store.path_of("my.bucket_2", "") == "/srv/s3/my.bucket_2");
  CHECK(store.path_of("b1", "a..b/c.d/...") == "/srv/s3/b1/a..b/c.d/...");
}

TEST_CASE("bucket store: names and keys that would leave the bucket are refused") {
  BucketStore store("/srv/s3");
  for (std::string_view bucket : {"", "a", "..", "-ab", "ab-", "a/b", "a b", "a\\b"}) {
    CHECK(refusal(store, bucket, "k") == ErrorCode::ValidationException);
  }
  CHECK(refusal(store, std::string(256, 'a'), "k") == ErrorCode::ValidationException);
  for (std::string_view key : {"..", "../x", "a/../../x", "a/./b", "/etc/passwd", "a/.."}) {
    CHECK(refusal(store, "bucket", key) == ErrorCode::ValidationException);
  }
  CHECK(refusal(store, "bucket", std::string_view("a\0b", 3)) == ErrorCode::ValidationException);
}

TEST_CASE("bucket store: put writes the object whole, creating its folders") {
  std::filesystem::path kept;
  {
    TemporaryFolder folder("dynamod-bucket-test-");
    kept = folder.path();
    BucketStore store(folder.path());
    auto object = store.path_of("bucket", "a/b/c.json");
    store.put(object, std::string("x\0y", 3));
    std::ifstream in(object, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    CHECK(bytes.str() == std::string("x\0y", 3));
    CHECK_FALSE(std::filesystem::exists(object.string() + ".partial"));
    store.put(object, "second");
    std::ifstream again(object, std::ios::binary);
    std::stringstream replaced;
    replaced << again.rdbuf();
    CHECK(replaced.str() == "second");
  }
  CHECK_FALSE(std::filesystem::exists(kept));
}
