#pragma once
// When DynamoDB would throttle a table: the throughput model behind
// --throttle. One ThroughputModel per table, covering its global secondary
// indexes. Not thread-safe (the server holds it under a lock); time is passed
// in as seconds on a steady clock, so the model is a pure function of its
// inputs.
//
// - PROVISIONED: a token bucket per table and per GSI, for reads and for
//   writes, refilled at the provisioned rate and keeping 300 seconds of unused
//   capacity as burst; a new table starts with a full bucket. A request may
//   start while its buckets hold credit and is charged when its units are
//   known. A base-table write also needs credit in every GSI's write bucket
//   (GSI back-pressure); a read of a GSI uses only that GSI's bucket.
// - PAY_PER_REQUEST: up to twice the previous peak per second, the previous
//   peak starting at half the warm throughput (6,000 read / 2,000 write units
//   for a new table, so 12,000 / 4,000) and rising to a busier second 30
//   minutes after it happened, or to half a higher warm throughput at once;
//   never past the table quota of 40,000 units per second, nor past the
//   table's or GSI's OnDemandThroughput maximum.
// - Both modes: at most 3,000 read and 1,000 write units per second on one
//   partition key value, burst or not.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "metering/token_bucket.h"
#include "protocol/consumed_capacity.h"

namespace dynamod::metering {

struct ProvisionedRate {
  double read_units = 0;
  double write_units = 0;
  friend bool operator==(const ProvisionedRate&, const ProvisionedRate&) = default;
};

// On demand: the warm throughput a table or GSI serves at once (0: the service's 12,000 / 4,000)
// and its OnDemandThroughput maximum (0: none).
struct OnDemandRates {
  ProvisionedRate warm;
  ProvisionedRate maximum;
  friend bool operator==(const OnDemandRates&, const OnDemandRates&) = default;
};

// A table's capacity settings (from its description).
struct ThroughputSettings {
  bool provisioned = false;
  ProvisionedRate table;
  std::map<std::string, ProvisionedRate> global_indexes;
  OnDemandRates table_on_demand;
  std::map<std::string, OnDemandRates> index_on_demand;  // by GSI name; a GSI left out has the defaults
  friend bool operator==(const ThroughputSettings&, const ThroughputSettings&) = default;
};

// Why a request is throttled, in the service's terms: the reason string is
// <Table|Index><Read|Write><limit>ThroughputExceeded.
struct Throttle {
  enum class Limit : std::uint8_t { Provisioned, KeyRange, OnDemand, TableQuota, MaxOnDemand };
  bool read = false;
  std::string index;  // empty: the table
  Limit limit = Limit::Provisioned;
  bool provisioned_table = false;
};

class ThroughputModel {
 public:
  ThroughputModel() = default;
  ThroughputModel(const ThroughputSettings& settings, double now);

  // UpdateTable: takes effect at once; provisioned credit carries over.
  void configure(const ThroughputSettings& settings, double now);

  // Whether a read of the table (index empty) or one GSI may start.
  // `partition` identifies the partition key value read (0: none, a Scan).
  std::optional<Throttle> admit_read(const std::string& index, std::uint64_t partition, double now);
  // Whether a write to the table may start.
  std::optional<Throttle> admit_write(std::uint64_t partition, double now);
  // The units a request consumed, against the buckets it used.
  void charge(const ConsumedCapacity& consumed, std::uint64_t partition, double now);

 private:
  // Per-second usage of one table or index in on-demand mode.
  struct OnDemand {
    double previous_peak = 0;
    std::int64_t second = -1;
    double used = 0;  // in `second`
    // The busiest second of each of the last 30 minutes (slot = minute % 30),
    // folded into previous_peak once 30 minutes old.
    std::array<double, 30> minute_peak{};
    std::array<std::int64_t, 30> minute{};
    void roll(std::int64_t now_second);
  };
  struct Resource {
    TokenBucket read_bucket, write_bucket;  // provisioned
    OnDemand read_demand, write_demand;     // on-demand
    ProvisionedRate maximum;                // on-demand: OnDemandThroughput (0: none)
  };
  struct PartitionUse {
    std::int64_t second = -1;
    double read = 0, write = 0;
  };

  std::optional<Throttle::Limit> admit(Resource& r, bool read, double now);
  void charge(Resource& r, bool read, double units, double now);
  PartitionUse& partition_use(const std::string& index, std::uint64_t partition, std::int64_t second);

  bool configured_ = false;
  bool provisioned_ = false;
  Resource table_;
  std::map<std::string, Resource> indexes_;
  std::map<std::pair<std::string, std::uint64_t>, PartitionUse> partitions_;
};

}  // namespace dynamod::metering
