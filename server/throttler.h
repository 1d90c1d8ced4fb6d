#pragma once
// --throttle: DynamoDB's throughput limits, simulated per table with
// metering::ThroughputModel, and the errors the service answers with when a
// request is throttled. Without --throttle every call admits and charges
// nothing.

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "metering/throughput_model.h"
#include "protocol/api_error.h"
#include "protocol/attribute_value.h"
#include "storage/catalog.h"

namespace dynamod {

// The service's answer to a throttle: the exception, its message and the
// reasons list (whose member is spelled differently per exception). Also what
// an injected throttling fault answers (server/fault_rules).
ApiError throttle_error(const metering::Throttle& t, const std::string& table_arn);

class Throttler {
 public:
  explicit Throttler(bool enabled);

  bool enabled() const { return enabled_; }

  // Whether a read of `table` (or its index) or a write to it may start; the
  // service's error if not. `partition` is the partition key value read or
  // written (null: not known, as for a Scan or a batch).
  std::optional<ApiError> admit_read(const Table& table, const std::string& index, const AttributeValue* partition,
                                     const std::string& arn);
  std::optional<ApiError> admit_write(const Table& table, const AttributeValue* partition, const std::string& arn);
  // The units a request consumed (it was admitted).
  void charge(const Table& table, const ConsumedCapacity& consumed, const AttributeValue* partition);

  // The reason code a transaction's CancellationReasons gives for `error`
  // (ProvisionedThroughputExceeded or ThrottlingError).
  static std::string_view cancellation_code(const ApiError& error);

 private:
  metering::ThroughputModel& model_of(const Table& table, double now);
  double now() const;

  bool enabled_;
  std::mutex mutex_;
  // By table id (ids are never reused), with the settings it was built from.
  struct Entry {
    metering::ThroughputSettings settings;
    metering::ThroughputModel model;
  };
  std::map<std::uint32_t, Entry> tables_;
  std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
};

}  // namespace dynamod
