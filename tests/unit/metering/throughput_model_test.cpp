// The throttling model behind --throttle.
#include <doctest/doctest.h>

#include "metering/throughput_model.h"

using namespace dynamod;
using namespace dynamod::metering;

namespace {

ThroughputSettings provisioned(double rcu, double wcu) {
  ThroughputSettings s;
  s.provisioned = true;
  s.table = {rcu, wcu};
  return s;
}

ConsumedCapacity writes(double units) {
  ConsumedCapacity c;
  c.table_name = "t";
  c.table_write_units = units;
  return c;
}

ConsumedCapacity reads(double units) {
  ConsumedCapacity c;
  c.table_name = "t";
  c.table_read_units = units;
  return c;
}

// Writes of `units` each at time `now` until one is throttled; how many went
// through. Without a partition the writes spread over many key values.
int writes_until_throttled(ThroughputModel& m, double units, double now, std::uint64_t partition = 0) {
  int n = 0;
  for (;;) {
    const std::uint64_t key = partition != 0 ? partition : 1000 + static_cast<std::uint64_t>(n);
    if (m.admit_write(key, now) || n == 1000000) return n;
    m.charge(writes(units), key, now);
    ++n;
  }
}

}  // namespace

TEST_CASE("a provisioned table spends its 300 seconds of burst, then throttles") {
  ThroughputModel m(provisioned(5, 5), 0);
  CHECK(writes_until_throttled(m, 1, 0) == 1500);
  auto t = m.admit_write(1, 0);
  REQUIRE(t);
  CHECK_FALSE(t->read);
  CHECK(t->index.empty());
  CHECK(t->limit == Throttle::Limit::Provisioned);
  CHECK(t->provisioned_table);
  // A second later five more units are there.
  CHECK(writes_until_throttled(m, 1, 1) == 5);
  // Reads have their own bucket.
  CHECK_FALSE(m.admit_read("", 1, 1));
}

TEST_CASE("GSI back-pressure throttles base-table writes; GSI reads use the index") {
  ThroughputSettings s = provisioned(100, 100);
  s.global_indexes["gsi"] = {1, 1};
  ThroughputModel m(s, 0);
  ConsumedCapacity c = writes(1);
  c.index("gsi", true).write_units = 1;
  for (int i = 0; i < 300; ++i) m.charge(c, 1 + i, 0);  // spread over partitions
  auto t = m.admit_write(2, 0);
  REQUIRE(t);
  CHECK(t->index == "gsi");
  CHECK(t->limit == Throttle::Limit::Provisioned);
  // Reading the base table is unaffected; reading the GSI has its own credit.
  CHECK_FALSE(m.admit_read("", 1, 0));
  CHECK_FALSE(m.admit_read("gsi", 1, 0));
  ConsumedCapacity r;
  r.table_name = "t";
  r.index("gsi", true).read_units = 300;
  m.charge(r, 9, 0);
  auto rt = m.admit_read("gsi", 9, 0);
  REQUIRE(rt);
  CHECK(rt->read);
  CHECK(rt->index == "gsi");
}

TEST_CASE("one partition key value takes at most 1,000 write units a second") {
  ThroughputModel m(provisioned(40000, 40000), 0);
  CHECK(writes_until_throttled(m, 10, 0.5, 42) == 100);
  auto t = m.admit_write(42, 0.5);
  REQUIRE(t);
  CHECK(t->limit == Throttle::Limit::KeyRange);
  CHECK_FALSE(m.admit_write(43, 0.5));  // another key is fine
  CHECK_FALSE(m.admit_write(42, 1.0));  // and the next second
}

TEST_CASE("one partition key value takes at most 3,000 read units a second") {
  ThroughputModel m(provisioned(40000, 40000), 0);
  int n = 0;
  while (!m.admit_read("", 7, 0) && n < 100000) {
    m.charge(reads(1), 7, 0);
    ++n;
  }
  CHECK(n == 3000);
  CHECK(m.admit_read("", 7, 0)->limit == Throttle::Limit::KeyRange);
  CHECK_FALSE(m.admit_read("", 0, 0));  // a Scan names no partition
}

TEST_CASE("a new on-demand table serves 4,000 write units a second, then twice a settled peak") {
  ThroughputModel m(ThroughputSettings{}, 0);
  // Spread over partitions so that the partition limit stays out of the way.
  int n = 0;
  while (!m.admit_write(1 + n / 500, 10) && n < 100000) {
    m.charge(writes(1), 1 + n / 500, 10);
    ++n;
  }
  CHECK(n == 4000);
  auto t = m.admit_write(999, 10);
  REQUIRE(t);
  CHECK(t->limit == Throttle::Limit::OnDemand);
  CHECK_FALSE(t->provisioned_table);
  // A peak of 4,000 becomes the previous peak 30 minutes later: then 8,000.
  double later = 10 + 31 * 60;
  n = 0;
  while (!m.admit_write(1 + n / 500, later) && n < 100000) {
    m.charge(writes(1), 1 + n / 500, later);
    ++n;
  }
  CHECK(n == 8000);
}

TEST_CASE("UpdateTable's new rate applies at once") {
  ThroughputModel m(provisioned(1, 1), 0);
  CHECK(writes_until_throttled(m, 1, 0) == 300);
  ThroughputSettings faster = provisioned(1, 100);
  m.configure(faster, 0);
  CHECK(writes_until_throttled(m, 1, 0) == 100);
  CHECK(writes_until_throttled(m, 1, 1) == 100);
}

TEST_CASE("an on-demand maximum caps the table and each GSI; warm throughput is where the model starts") {
  ThroughputSettings s;
  s.table_on_demand.maximum = {0, 50};
  s.table_on_demand.warm = {0, 10000};
  s.global_indexes["g"] = {};
  s.index_on_demand["g"].maximum = {7, 0};
  ThroughputModel m(s, 0);
  int n = 0;
  while (!m.admit_write(1 + n, 10) && n < 1000) {
    m.charge(writes(1), 1 + n, 10);
    ++n;
  }
  CHECK(n == 50);
  auto t = m.admit_write(999, 10);
  REQUIRE(t);
  CHECK(t->limit == Throttle::Limit::MaxOnDemand);
  CHECK(t->index.empty());
  // The next second serves 50 more: a maximum is per second.
  CHECK_FALSE(m.admit_write(999, 11));
  // A GSI's read maximum caps reads of that index only.
  ConsumedCapacity index_read;
  index_read.table_name = "t";
  index_read.global_indexes.push_back({"g", 1, 0});
  for (int i = 0; i < 7; ++i) {
    REQUIRE_FALSE(m.admit_read("g", 0, 20));
    m.charge(index_read, 0, 20);
  }
  auto r = m.admit_read("g", 0, 20);
  REQUIRE(r);
  CHECK(r->limit == Throttle::Limit::MaxOnDemand);
  CHECK(r->index == "g");
  CHECK_FALSE(m.admit_read("", 0, 20));

  // Without a maximum, a warm throughput of 10,000 write units is served at once.
  ThroughputSettings warm;
  warm.table_on_demand.warm = {0, 10000};
  ThroughputModel w(warm, 0);
  n = 0;
  while (!w.admit_write(1 + n / 500, 10) && n < 100000) {
    w.charge(writes(1), 1 + n / 500, 10);
    ++n;
  }
  CHECK(n == 10000);
}
