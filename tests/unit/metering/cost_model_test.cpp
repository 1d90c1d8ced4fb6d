// The cost model's arithmetic at us-east-1's prices, and price tables from JSON.
#include <doctest/doctest.h>

#include <stdexcept>

#include "metering/cost_model.h"
#include "metering/prices.h"

using namespace dynamod::metering;

TEST_CASE("on-demand bills the units consumed, at the average rate for a month") {
  // One million write units and one million read units over one month.
  ObservedUsage usage{1e6, 1e6, 1, 1, kHoursPerMonth * 3600};
  CapacityCost c = estimate_capacity_cost(usage, PriceTable{}.standard);
  CHECK(c.on_demand_monthly == doctest::Approx(0.625 + 0.125));
}

TEST_CASE("provisioned capacity is sized for the busiest second, at least one unit") {
  ObservedUsage usage{100, 0, 4.5, 0, 100};
  CapacityCost c = estimate_capacity_cost(usage, PriceTable{}.standard);
  CHECK(c.provisioned_rcu == 5);
  CHECK(c.provisioned_wcu == 1);
  CHECK(c.provisioned_monthly == doctest::Approx((5 * 0.00013 + 1 * 0.00065) * 730));
}

TEST_CASE("the break-even utilisation is 28.9% at us-east-1's prices") {
  ObservedUsage reads{3600, 0, 1, 0, 3600};
  CHECK(estimate_capacity_cost(reads, PriceTable{}.standard).break_even_utilisation ==
        doctest::Approx(0.00013 / (3600 * 0.125e-6)));
  ObservedUsage writes{0, 3600, 0, 1, 3600};
  CapacityCost c = estimate_capacity_cost(writes, PriceTable{}.standard);
  CHECK(c.break_even_utilisation == doctest::Approx(0.2889).epsilon(0.001));
  // One write unit every second uses a provisioned WCU fully; the minimum of one RCU idles.
  CHECK(c.provisioned_utilisation == doctest::Approx(0.00065 / (0.00065 + 0.00013)));
  CHECK(c.provisioned_cheaper);
}

TEST_CASE("a burst once in a long quiet window favours on-demand") {
  ObservedUsage usage{0, 1000, 0, 1000, 3600};  // 1000 writes in one second of an hour
  CapacityCost c = estimate_capacity_cost(usage, PriceTable{}.standard);
  CHECK(c.provisioned_wcu == 1000);
  CHECK(c.provisioned_utilisation < c.break_even_utilisation);
  CHECK_FALSE(c.provisioned_cheaper);
}

TEST_CASE("nothing observed costs nothing on demand") {
  CapacityCost c = estimate_capacity_cost(ObservedUsage{}, PriceTable{}.standard);
  CHECK(c.on_demand_monthly == 0);
  CHECK(c.break_even_utilisation == 0);
}

TEST_CASE("storage adds 100 bytes per item and bills GB-months") {
  StorageCost s = estimate_storage_cost(1024 * 1024 * 1024 - 100, 1, PriceTable{});
  CHECK(s.billable_bytes == 1024ull * 1024 * 1024);
  CHECK(s.standard_monthly == doctest::Approx(0.25));
  CHECK(s.infrequent_access_monthly == doctest::Approx(0.10));
}

TEST_CASE("a price table from JSON replaces what it names") {
  PriceTable t = parse_price_table(
      R"({"region": "eu-west-1", "standard": {"write_request_units_per_million": 0.7625, "storage_gb_month": 0.283}})");
  CHECK(t.region == "eu-west-1");
  CHECK(t.standard.write_request_unit == doctest::Approx(0.7625e-6));
  CHECK(t.standard.storage_gb_month == doctest::Approx(0.283));
  CHECK(t.standard.read_request_unit == doctest::Approx(0.125e-6));  // kept
  CHECK(t.infrequent_access.storage_gb_month == doctest::Approx(0.10));
  CHECK(parse_price_table(R"({"standard_ia": {"wcu_hour": 1}})").infrequent_access.wcu_hour == 1);
}

TEST_CASE("a bad price table says what is wrong") {
  CHECK_THROWS_WITH_AS(parse_price_table("[1]"), "price table is not a JSON object", std::runtime_error);
  CHECK_THROWS_WITH_AS(parse_price_table(R"({"standard": {"wcu_hour": "cheap"}})"), "price 'wcu_hour' is not a number",
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(parse_price_table(R"({"standard": {"rcu_hour": -1}})"), "price 'rcu_hour' is negative",
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(parse_price_table(R"({"premium": {}})"), "unknown member 'premium'", std::runtime_error);
  CHECK_THROWS_WITH_AS(parse_price_table(R"({"standard": {"wcu": 1}})"), "unknown price 'wcu'", std::runtime_error);
}
