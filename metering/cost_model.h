#pragma once
// What observed usage would cost per month, under on-demand and under
// provisioned capacity, and what storing the data costs. Pure arithmetic.
//
// The month is 730 hours, as AWS's pricing calculator counts. On-demand bills
// the units consumed; provisioned bills the capacity provisioned, used or
// not, so its estimate sizes capacity for the busiest second observed (at
// least one unit, the service's minimum). Provisioned capacity used at
// utilisation U costs less than on-demand once U passes the break-even
// utilisation, unit-hour price / (3600 × request-unit price): 28.9% at
// us-east-1's prices (AWS's guide rounds it to "below 35%" for on-demand).

#include <cstdint>

#include "metering/prices.h"

namespace dynamod::metering {

inline constexpr double kHoursPerMonth = 730;

struct ObservedUsage {
  double read_units = 0;
  double write_units = 0;
  double peak_read_per_second = 0;
  double peak_write_per_second = 0;
  double window_seconds = 0;  // how long the usage was collected
};

struct CapacityCost {
  double read_per_second = 0;  // average over the window
  double write_per_second = 0;
  double on_demand_monthly = 0;      // USD at the average rate
  std::int64_t provisioned_rcu = 0;  // sized for the busiest second
  std::int64_t provisioned_wcu = 0;
  double provisioned_monthly = 0;      // USD for that capacity
  double provisioned_utilisation = 0;  // average rate / provisioned capacity (0..1)
  double break_even_utilisation = 0;   // provisioned is cheaper above it (0..1)
  bool provisioned_cheaper = false;
};

CapacityCost estimate_capacity_cost(const ObservedUsage& usage, const ClassPrices& prices);

struct StorageCost {
  std::uint64_t billable_bytes = 0;  // data + 100 bytes per item
  double standard_monthly = 0;
  double infrequent_access_monthly = 0;
};

// `items` counts table items or index entries; each adds 100 bytes of overhead.
StorageCost estimate_storage_cost(std::uint64_t bytes, std::uint64_t items, const PriceTable& prices);

}  // namespace dynamod::metering
