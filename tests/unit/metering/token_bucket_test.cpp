// The provisioned-throughput model: refill at the rate, at most
// burst_seconds of credit, debt after an oversized request.
#include <doctest/doctest.h>

#include "metering/token_bucket.h"

using dynamod::metering::TokenBucket;

TEST_CASE("a new bucket holds its whole burst") {
  TokenBucket bucket(5, 300, 0);
  CHECK(bucket.available(0) == doctest::Approx(1500));
  // 1 WCU: about 300 quick one-unit writes before the credit is spent.
  TokenBucket one(1, 300, 0);
  int writes = 0;
  while (one.has_credit(0)) {
    one.take(1, 0);
    ++writes;
  }
  CHECK(writes == 300);
}

TEST_CASE("credit refills at the rate and never past the burst") {
  TokenBucket bucket(10, 300, 0);
  bucket.take(3000, 0);
  CHECK_FALSE(bucket.has_credit(0));
  CHECK(bucket.available(1) == doctest::Approx(10));
  CHECK(bucket.available(1000) == doctest::Approx(3000));
}

TEST_CASE("a request larger than the credit leaves a debt") {
  TokenBucket bucket(1, 300, 0);
  bucket.take(299.5, 0);
  CHECK(bucket.has_credit(0));
  bucket.take(10, 0);  // starts with half a unit, takes ten
  CHECK(bucket.available(0) == doctest::Approx(-9.5));
  CHECK_FALSE(bucket.has_credit(9));
  CHECK(bucket.has_credit(10));
}

TEST_CASE("a time earlier than the last one adds nothing") {
  TokenBucket bucket(1, 300, 100);
  bucket.take(300, 100);
  CHECK(bucket.available(50) == doctest::Approx(0));
}

TEST_CASE("a new rate keeps the credit within the new capacity") {
  TokenBucket bucket(10, 300, 0);
  bucket.set_rate(1, 0);
  CHECK(bucket.available(0) == doctest::Approx(300));
  bucket.take(300, 0);
  bucket.set_rate(1, 0);
  CHECK(bucket.available(0) == doctest::Approx(0));
}

TEST_CASE("a higher rate is there at once, debts forgiven") {
  TokenBucket bucket(1, 300, 0);
  bucket.take(302, 0);
  bucket.set_rate(100, 0);
  CHECK(bucket.available(0) == doctest::Approx(100));
  CHECK(bucket.available(1) == doctest::Approx(200));
}
