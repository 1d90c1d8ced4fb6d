// The console's time series: per-second buckets for the last hour, per-minute
// for the last day, and the hot-key counters.
#include <doctest/doctest.h>

#include "metering/hot_keys.h"
#include "metering/usage_series.h"

using namespace dynamod::metering;
using dynamod::AttributeValue;
using Resolution = UsageSeries::Resolution;

namespace {
constexpr std::int64_t kStart = 1'780'000'020'000;  // a whole minute, in ms
static_assert(kStart % 60000 == 0);
AttributeValue s(std::string text) { return AttributeValue::string(std::move(text)); }
}  // namespace

TEST_CASE("a second's units, requests and throttles land in one bucket") {
  UsageSeries s;
  s.add(kStart + 100, 1, 0, true);
  s.add(kStart + 900, 0.5, 2, true);
  s.add(kStart + 999, 0, 1, false);  // an index's units: no request of its own
  s.add_throttled(kStart + 500);
  auto points = s.points(Resolution::Second, kStart + 1500);
  REQUIRE(points.size() == 1);
  CHECK(points[0].start_ms == kStart);
  CHECK(points[0].read_units == doctest::Approx(1.5));
  CHECK(points[0].write_units == doctest::Approx(3));
  CHECK(points[0].requests == 2);
  CHECK(points[0].throttled == 1);
}

TEST_CASE("points come oldest first and skip quiet intervals") {
  UsageSeries s;
  s.add(kStart + 5000, 1, 0, true);
  s.add(kStart + 1000, 2, 0, true);
  s.add(kStart + 3000, 3, 0, true);
  auto points = s.points(Resolution::Second, kStart + 10000);
  REQUIRE(points.size() == 3);
  CHECK(points[0].start_ms == kStart + 1000);
  CHECK(points[1].start_ms == kStart + 3000);
  CHECK(points[2].start_ms == kStart + 5000);
  CHECK(points[2].read_units == 1);
}

TEST_CASE("the minute series sums its seconds") {
  UsageSeries s;
  for (int i = 0; i < 60; ++i) s.add(kStart + i * 1000, 1, 2, true);
  s.add(kStart + 60000, 4, 0, true);
  auto minutes = s.points(Resolution::Minute, kStart + 61000);
  REQUIRE(minutes.size() == 2);
  CHECK(minutes[0].start_ms == kStart);
  CHECK(minutes[0].read_units == 60);
  CHECK(minutes[0].write_units == 120);
  CHECK(minutes[0].requests == 60);
  CHECK(minutes[1].read_units == 4);
  CHECK(s.points(Resolution::Second, kStart + 61000).size() == 61);
}

TEST_CASE("the hour by the second forgets what is older than an hour") {
  UsageSeries s;
  s.add(kStart, 7, 0, true);
  // Still in the window 3,599 seconds later, gone at 3,600.
  CHECK(s.points(Resolution::Second, kStart + 3599 * 1000).size() == 1);
  CHECK(s.points(Resolution::Second, kStart + 3600 * 1000).empty());
  // A write one lap later reuses the bucket and starts it from zero.
  s.add(kStart + 3600 * 1000, 1, 0, true);
  auto points = s.points(Resolution::Second, kStart + 3600 * 1000);
  REQUIRE(points.size() == 1);
  CHECK(points[0].start_ms == kStart + 3600 * 1000);
  CHECK(points[0].read_units == 1);
  CHECK(points[0].requests == 1);
  // The day by the minute still holds the first second's minute.
  CHECK(s.points(Resolution::Minute, kStart + 3600 * 1000).size() == 2);
}

TEST_CASE("the day by the minute forgets what is older than a day") {
  UsageSeries s;
  s.add(kStart, 1, 0, true);
  CHECK(s.points(Resolution::Minute, kStart + 1439ll * 60000).size() == 1);
  CHECK(s.points(Resolution::Minute, kStart + 1440ll * 60000).empty());
  s.add_throttled(kStart + 1440ll * 60000 + 5);
  auto points = s.points(Resolution::Minute, kStart + 1440ll * 60000 + 10);
  REQUIRE(points.size() == 1);
  CHECK(points[0].throttled == 1);
  CHECK(points[0].read_units == 0);
}

TEST_CASE("hot keys keep the heaviest partition keys") {
  HotKeys hot;
  for (int i = 0; i < 100; ++i) hot.add(s("hot"), 1);
  for (int i = 0; i < 40; ++i) hot.add(s("warm"), 1);
  // Many keys read once each: they churn through the smallest counters.
  for (int i = 0; i < 200; ++i) hot.add(s("cold" + std::to_string(i)), 0.5);
  auto top = hot.top();
  REQUIRE(top.size() == HotKeys::kCounters);
  CHECK(top[0].key == s("hot"));
  CHECK(top[0].units == 100);
  CHECK(top[0].error == 0);
  CHECK(top[0].requests == 100);
  CHECK(top[1].key == s("warm"));
  CHECK(top[1].units == 40);
  // A churned counter overstates by at most its error.
  for (std::size_t i = 2; i < top.size(); ++i) CHECK(top[i].units - top[i].error <= 0.5);
}

TEST_CASE("hot keys below the counter count are exact") {
  HotKeys hot;
  hot.add(s("a"), 1);
  hot.add(s("b"), 3);
  hot.add(s("a"), 1);
  auto top = hot.top();
  REQUIRE(top.size() == 2);
  CHECK(top[0].key == s("b"));
  CHECK(top[0].units == 3);
  CHECK(top[1].key == s("a"));
  CHECK(top[1].units == 2);
  CHECK(top[1].requests == 2);
}
