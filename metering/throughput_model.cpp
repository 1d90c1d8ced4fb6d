#include "metering/throughput_model.h"

#include <algorithm>
#include <cmath>

namespace dynamod::metering {
namespace {

constexpr double kBurstSeconds = 300;
constexpr double kInitialReadPeak = 6000;  // a new on-demand table serves twice these
constexpr double kInitialWritePeak = 2000;
constexpr double kTableQuota = 40000;  // units per second, per table, in either mode
constexpr double kPartitionReadLimit = 3000;
constexpr double kPartitionWriteLimit = 1000;
constexpr std::int64_t kPeakSettleMinutes = 30;
constexpr std::size_t kMaxTrackedPartitions = 4096;

std::int64_t whole_second(double now) { return static_cast<std::int64_t>(std::floor(now)); }

}  // namespace

void ThroughputModel::OnDemand::roll(std::int64_t now_second) {
  if (now_second == second) return;
  if (second >= 0) {
    // The second that just ended counts towards its minute's peak.
    const std::int64_t m = second / 60;
    auto slot = static_cast<std::size_t>(m % kPeakSettleMinutes);
    if (minute[slot] != m) {
      previous_peak = std::max(previous_peak, minute_peak[slot]);  // 30 minutes old: settled
      minute[slot] = m;
      minute_peak[slot] = 0;
    }
    minute_peak[slot] = std::max(minute_peak[slot], used);
  }
  // Peaks of minutes that have aged out since are settled too.
  const std::int64_t now_minute = now_second / 60;
  for (std::size_t i = 0; i < minute.size(); ++i) {
    if (minute_peak[i] > 0 && now_minute - minute[i] >= kPeakSettleMinutes) {
      previous_peak = std::max(previous_peak, minute_peak[i]);
      minute_peak[i] = 0;
    }
  }
  second = now_second;
  used = 0;
}

ThroughputModel::ThroughputModel(const ThroughputSettings& settings, double now) { configure(settings, now); }

void ThroughputModel::configure(const ThroughputSettings& settings, double now) {
  auto set = [&](Resource& r, const ProvisionedRate& rate, const OnDemandRates& on_demand, bool fresh) {
    // Warm throughput is what the resource serves at once: twice the previous peak.
    const double read_peak = on_demand.warm.read_units > 0 ? on_demand.warm.read_units / 2 : kInitialReadPeak;
    const double write_peak = on_demand.warm.write_units > 0 ? on_demand.warm.write_units / 2 : kInitialWritePeak;
    if (fresh) {
      r.read_bucket = TokenBucket(rate.read_units, kBurstSeconds, now);
      r.write_bucket = TokenBucket(rate.write_units, kBurstSeconds, now);
      r.read_demand.previous_peak = read_peak;
      r.write_demand.previous_peak = write_peak;
    } else {
      r.read_bucket.set_rate(rate.read_units, now);
      r.write_bucket.set_rate(rate.write_units, now);
      r.read_demand.previous_peak = std::max(r.read_demand.previous_peak, read_peak);
      r.write_demand.previous_peak = std::max(r.write_demand.previous_peak, write_peak);
    }
    r.maximum = on_demand.maximum;
  };
  const bool first = !configured_;
  configured_ = true;
  // A switch to provisioned starts with full buckets, as a new table does.
  const bool to_provisioned = settings.provisioned && !provisioned_;
  provisioned_ = settings.provisioned;
  set(table_, settings.table, settings.table_on_demand, first || to_provisioned);
  std::map<std::string, Resource> next;
  for (const auto& [name, rate] : settings.global_indexes) {
    auto it = indexes_.find(name);
    const bool fresh = it == indexes_.end() || to_provisioned;
    Resource r = fresh ? Resource{} : it->second;
    auto on_demand = settings.index_on_demand.find(name);
    set(r, rate, on_demand == settings.index_on_demand.end() ? OnDemandRates{} : on_demand->second, fresh);
    next.emplace(name, r);
  }
  indexes_ = std::move(next);
}

std::optional<Throttle::Limit> ThroughputModel::admit(Resource& r, bool read, double now) {
  if (provisioned_) {
    TokenBucket& bucket = read ? r.read_bucket : r.write_bucket;
    if (!bucket.has_credit(now)) return Throttle::Limit::Provisioned;
    return std::nullopt;
  }
  OnDemand& d = read ? r.read_demand : r.write_demand;
  d.roll(whole_second(now));
  const double maximum = read ? r.maximum.read_units : r.maximum.write_units;
  if (maximum > 0 && d.used >= maximum) return Throttle::Limit::MaxOnDemand;
  if (d.used >= kTableQuota) return Throttle::Limit::TableQuota;
  if (d.used >= 2 * d.previous_peak) return Throttle::Limit::OnDemand;
  return std::nullopt;
}

void ThroughputModel::charge(Resource& r, bool read, double units, double now) {
  if (units <= 0) return;
  if (provisioned_) {
    (read ? r.read_bucket : r.write_bucket).take(units, now);
    return;
  }
  OnDemand& d = read ? r.read_demand : r.write_demand;
  d.roll(whole_second(now));
  d.used += units;
}

ThroughputModel::PartitionUse& ThroughputModel::partition_use(const std::string& index, std::uint64_t partition,
                                                              std::int64_t second) {
  if (partitions_.size() > kMaxTrackedPartitions) {
    std::erase_if(partitions_, [&](const auto& entry) { return entry.second.second < second; });
  }
  PartitionUse& use = partitions_[{index, partition}];
  if (use.second != second) use = PartitionUse{second, 0, 0};
  return use;
}

std::optional<Throttle> ThroughputModel::admit_read(const std::string& index, std::uint64_t partition, double now) {
  Resource* r = &table_;
  if (!index.empty()) {
    auto it = indexes_.find(index);
    if (it != indexes_.end()) r = &it->second;  // a local index reads the table's capacity
  }
  const std::string& charged_index = r == &table_ ? std::string() : index;
  if (auto limit = admit(*r, true, now)) return Throttle{true, charged_index, *limit, provisioned_};
  if (partition != 0 && partition_use(charged_index, partition, whole_second(now)).read >= kPartitionReadLimit) {
    return Throttle{true, charged_index, Throttle::Limit::KeyRange, provisioned_};
  }
  return std::nullopt;
}

std::optional<Throttle> ThroughputModel::admit_write(std::uint64_t partition, double now) {
  if (auto limit = admit(table_, false, now)) return Throttle{false, {}, *limit, provisioned_};
  for (auto& [name, r] : indexes_) {
    if (auto limit = admit(r, false, now)) return Throttle{false, name, *limit, provisioned_};
  }
  if (partition != 0 && partition_use({}, partition, whole_second(now)).write >= kPartitionWriteLimit) {
    return Throttle{false, {}, Throttle::Limit::KeyRange, provisioned_};
  }
  return std::nullopt;
}

void ThroughputModel::charge(const ConsumedCapacity& consumed, std::uint64_t partition, double now) {
  charge(table_, true, consumed.table_read_units, now);
  charge(table_, false, consumed.table_write_units, now);
  // Local indexes use the table's capacity.
  for (const auto& index : consumed.local_indexes) {
    charge(table_, true, index.read_units, now);
    charge(table_, false, index.write_units, now);
  }
  std::string read_index;  // the GSI a read went to, for its partition
  for (const auto& index : consumed.global_indexes) {
    auto it = indexes_.find(index.index_name);
    if (it == indexes_.end()) continue;
    charge(it->second, true, index.read_units, now);
    charge(it->second, false, index.write_units, now);
    if (index.read_units > 0) read_index = index.index_name;
  }
  if (partition == 0) return;
  PartitionUse& use = partition_use(read_index, partition, whole_second(now));
  use.read += read_index.empty() ? consumed.table_read_units : 0;
  for (const auto& index : consumed.global_indexes) use.read += index.index_name == read_index ? index.read_units : 0;
  if (read_index.empty()) use.write += consumed.table_write_units;
}

}  // namespace dynamod::metering
