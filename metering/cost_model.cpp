#include "metering/cost_model.h"

#include <algorithm>
#include <cmath>

namespace dynamod::metering {
namespace {

constexpr double kSecondsPerMonth = kHoursPerMonth * 3600;
constexpr std::uint64_t kItemOverheadBytes = 100;
constexpr double kBytesPerGb = 1024.0 * 1024.0 * 1024.0;

std::int64_t capacity_for(double peak_per_second) {
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(peak_per_second)));
}

}  // namespace

CapacityCost estimate_capacity_cost(const ObservedUsage& usage, const ClassPrices& prices) {
  CapacityCost c;
  if (usage.window_seconds > 0) {
    c.read_per_second = usage.read_units / usage.window_seconds;
    c.write_per_second = usage.write_units / usage.window_seconds;
  }
  c.on_demand_monthly =
      (c.read_per_second * prices.read_request_unit + c.write_per_second * prices.write_request_unit) *
      kSecondsPerMonth;
  c.provisioned_rcu = capacity_for(usage.peak_read_per_second);
  c.provisioned_wcu = capacity_for(usage.peak_write_per_second);
  c.provisioned_monthly = (static_cast<double>(c.provisioned_rcu) * prices.rcu_hour +
                           static_cast<double>(c.provisioned_wcu) * prices.wcu_hour) *
                          kHoursPerMonth;
  // Utilisation weighted by price, so that one number compares the two modes.
  const double used_cost =
      (c.read_per_second * prices.rcu_hour + c.write_per_second * prices.wcu_hour) * kHoursPerMonth;
  c.provisioned_utilisation = c.provisioned_monthly > 0 ? used_cost / c.provisioned_monthly : 0;
  // Provisioned capacity fully used at the observed mix, against on-demand.
  c.break_even_utilisation = c.on_demand_monthly > 0 ? used_cost / c.on_demand_monthly : 0;
  c.provisioned_cheaper = c.provisioned_monthly < c.on_demand_monthly;
  return c;
}

StorageCost estimate_storage_cost(std::uint64_t bytes, std::uint64_t items, const PriceTable& prices) {
  StorageCost s;
  s.billable_bytes = bytes + items * kItemOverheadBytes;
  const double gb = static_cast<double>(s.billable_bytes) / kBytesPerGb;
  s.standard_monthly = gb * prices.standard.storage_gb_month;
  s.infrequent_access_monthly = gb * prices.infrequent_access.storage_gb_month;
  return s;
}

}  // namespace dynamod::metering
