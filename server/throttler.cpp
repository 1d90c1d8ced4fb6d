#include "server/throttler.h"

#include <xxhash.h>

#include "protocol/capacity_settings.h"
#include "protocol/json_writer.h"

namespace dynamod {
namespace {

using metering::Throttle;

constexpr std::string_view kTableProvisioned =
    "The level of configured provisioned throughput for the table was exceeded. Consider increasing your "
    "provisioning level with the UpdateTable API.";
constexpr std::string_view kIndexWriteProvisioned =
    "The level of configured provisioned throughput for one or more global secondary indexes of the table was "
    "exceeded. Consider increasing your provisioning level for the under-provisioned global secondary indexes with "
    "the UpdateTable API";
constexpr std::string_view kIndexReadProvisioned =
    "The level of configured provisioned throughput for the index was exceeded";
constexpr std::string_view kOnDemand =
    "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table "
    "or index so please try again shortly. If exceptions persist, check if you have a hot key: "
    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";
constexpr std::string_view kOnDemandIndex =
    "Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB is automatically "
    "scaling your index so please try again shortly.";
constexpr std::string_view kTableQuota =
    "Throughput exceeds the current throughput limit for your account. Please contact AWS Support at "
    "https://aws.amazon.com/support request a limit increase";

std::uint64_t partition_id(const AttributeValue* v) {
  if (v == nullptr) return 0;
  std::string_view bytes = v->type() == AttributeType::S   ? std::string_view(v->as_string())
                           : v->type() == AttributeType::B ? std::string_view(v->as_binary())
                                                           : std::string_view();
  std::string number;
  if (v->type() == AttributeType::N) {
    number = v->as_number().to_string();
    bytes = number;
  }
  std::uint64_t h = XXH3_64bits_withSeed(bytes.data(), bytes.size(), static_cast<std::uint64_t>(v->type()));
  return h == 0 ? 1 : h;  // 0 means "no partition"
}

// The on-demand model's start (warm throughput) and cap (OnDemandThroughput; -1 is none).
metering::OnDemandRates on_demand_rates(const std::optional<WarmUnits>& warm,
                                        const std::optional<OnDemandMaximum>& maximum) {
  metering::OnDemandRates rates;
  WarmUnits w = described_warm(warm, BillingMode::PayPerRequest, nullptr);
  rates.warm = {static_cast<double>(w.read_units), static_cast<double>(w.write_units)};
  if (maximum) {
    rates.maximum = {static_cast<double>(std::max<std::int64_t>(maximum->read_units, 0)),
                     static_cast<double>(std::max<std::int64_t>(maximum->write_units, 0))};
  }
  return rates;
}

metering::ThroughputSettings settings_of(const TableSchema& schema) {
  metering::ThroughputSettings s;
  s.provisioned = schema.billing_mode == BillingMode::Provisioned;
  s.table = {static_cast<double>(schema.throughput.read_units), static_cast<double>(schema.throughput.write_units)};
  s.table_on_demand = on_demand_rates(schema.warm, schema.on_demand_maximum);
  for (const IndexSchema& index : schema.global_indexes) {
    metering::ProvisionedRate rate;
    if (index.throughput) {
      rate = {static_cast<double>(index.throughput->read_units), static_cast<double>(index.throughput->write_units)};
    }
    s.global_indexes.emplace(index.name, rate);
    s.index_on_demand.emplace(index.name, on_demand_rates(index.warm, index.on_demand_maximum));
  }
  return s;
}

}  // namespace

ApiError throttle_error(const Throttle& t, const std::string& table_arn) {
  std::string reason = t.index.empty() ? "Table" : "Index";
  reason += t.read ? "Read" : "Write";
  ErrorCode code = ErrorCode::ProvisionedThroughputExceededException;
  std::string_view message;
  switch (t.limit) {
    case Throttle::Limit::Provisioned:
      reason += "ProvisionedThroughputExceeded";
      message = t.index.empty() ? kTableProvisioned : t.read ? kIndexReadProvisioned : kIndexWriteProvisioned;
      break;
    case Throttle::Limit::KeyRange:
      reason += "KeyRangeThroughputExceeded";
      if (t.provisioned_table) {
        message = kTableProvisioned;
      } else {
        code = ErrorCode::ThrottlingException;
        message = t.index.empty() ? kOnDemand : kOnDemandIndex;
      }
      break;
    case Throttle::Limit::OnDemand:
      // The service has no reason of its own for on-demand scaling; it reports the key range.
      reason += "KeyRangeThroughputExceeded";
      code = ErrorCode::ThrottlingException;
      message = t.index.empty() ? kOnDemand : kOnDemandIndex;
      break;
    case Throttle::Limit::MaxOnDemand:
      // The maximum the table or GSI was given (OnDemandThroughput) is what it hit.
      reason += "MaxOnDemandThroughputExceeded";
      code = ErrorCode::ThrottlingException;
      message = t.index.empty() ? kOnDemand : kOnDemandIndex;
      break;
    case Throttle::Limit::TableQuota:
      reason += "AccountLimitExceeded";
      code = ErrorCode::RequestLimitExceeded;
      message = kTableQuota;
      break;
  }
  ApiError error(code, std::string(message));
  JsonWriter extra;
  extra.begin_object();
  extra.key(code == ErrorCode::ThrottlingException ? "throttlingReasons" : "ThrottlingReasons");
  extra.begin_array();
  extra.begin_object();
  extra.key("reason");
  extra.string(reason);
  extra.key("resource");
  extra.string(t.index.empty() ? table_arn : table_arn + "/index/" + t.index);
  extra.end_object();
  extra.end_array();
  extra.end_object();
  // extra_json is a member list without the braces.
  std::string members = extra.take();
  error.set_extra_json(members.substr(1, members.size() - 2));
  return error;
}

Throttler::Throttler(bool enabled) : enabled_(enabled) {}

double Throttler::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count();
}

metering::ThroughputModel& Throttler::model_of(const Table& table, double now) {
  metering::ThroughputSettings settings = settings_of(table.schema);
  auto it = tables_.find(table.schema.id);
  if (it == tables_.end()) {
    it = tables_.emplace(table.schema.id, Entry{settings, metering::ThroughputModel(settings, now)}).first;
  } else if (it->second.settings != settings) {
    it->second.model.configure(settings, now);  // UpdateTable applies at once
    it->second.settings = std::move(settings);
  }
  return it->second.model;
}

std::optional<ApiError> Throttler::admit_read(const Table& table, const std::string& index,
                                              const AttributeValue* partition, const std::string& arn) {
  if (!enabled_) return std::nullopt;
  const double t = now();
  std::lock_guard lock(mutex_);
  auto throttle = model_of(table, t).admit_read(index, partition_id(partition), t);
  if (!throttle) return std::nullopt;
  return throttle_error(*throttle, arn);
}

std::optional<ApiError> Throttler::admit_write(const Table& table, const AttributeValue* partition,
                                               const std::string& arn) {
  if (!enabled_) return std::nullopt;
  const double t = now();
  std::lock_guard lock(mutex_);
  auto throttle = model_of(table, t).admit_write(partition_id(partition), t);
  if (!throttle) return std::nullopt;
  return throttle_error(*throttle, arn);
}

void Throttler::charge(const Table& table, const ConsumedCapacity& consumed, const AttributeValue* partition) {
  if (!enabled_) return;
  const double t = now();
  std::lock_guard lock(mutex_);
  model_of(table, t).charge(consumed, partition_id(partition), t);
}

std::string_view Throttler::cancellation_code(const ApiError& error) {
  return error.code() == ErrorCode::ProvisionedThroughputExceededException ? "ProvisionedThroughputExceeded"
                                                                           : "ThrottlingError";
}

}  // namespace dynamod
