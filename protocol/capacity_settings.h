#pragma once
// The settings infrastructure tools write and read back on tables and GSIs: OnDemandThroughput
// (maximum request units), WarmThroughput (units served at once) and SSESpecification (the KMS
// key). Decoding and checks for CreateTable and UpdateTable, and how DescribeTable shows them.
// Sources: docs/service-fidelity.md ("Table settings").

#include <cstdint>
#include <optional>
#include <string>

#include "protocol/api_error.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"
#include "protocol/table_schema.h"

namespace dynamod {

struct RawOnDemandThroughput {
  std::optional<std::int64_t> read_units;   // MaxReadRequestUnits
  std::optional<std::int64_t> write_units;  // MaxWriteRequestUnits
};

struct RawWarmThroughput {
  std::optional<std::int64_t> read_units;   // ReadUnitsPerSecond
  std::optional<std::int64_t> write_units;  // WriteUnitsPerSecond
};

struct RawSseSpecification {
  std::optional<bool> enabled;
  std::optional<std::string> sse_type;
  std::optional<std::string> kms_key;  // KMSMasterKeyId
};

std::optional<RawOnDemandThroughput> decode_raw_on_demand(json::value& v);
std::optional<RawWarmThroughput> decode_raw_warm(json::value& v);
std::optional<RawSseSpecification> decode_raw_sse(json::value& v);

// Coral constraints: warm units of at least 1 (`path` e.g. "warmThroughput"), SSEType's enum.
void check_warm_constraints(const RawWarmThroughput& warm, const std::string& path, ConstraintErrors& errors);
void check_sse_constraints(const RawSseSpecification& sse, ConstraintErrors& errors);

// The maximums `raw` sets on a table (`index` empty) or a GSI whose billing mode is `mode`, over
// `current` (a member left out keeps its value): each -1 or at least 1, on demand only.
OnDemandMaximum checked_on_demand(const RawOnDemandThroughput& raw, BillingMode mode, const std::string& index,
                                  const std::optional<OnDemandMaximum>& current);
// The floor of what DescribeTable reports: 12,000 / 4,000 on demand, the provisioned units otherwise.
WarmUnits warm_floor(BillingMode mode, const Throughput* provisioned);
// What a table or GSI reports: what was asked or reached, never below its floor.
WarmUnits described_warm(const std::optional<WarmUnits>& warm, BillingMode mode, const Throughput* provisioned);
// A table's new warm throughput: the service refuses a decrease of either member (a GSI's may go down).
WarmUnits checked_table_warm(const RawWarmThroughput& raw, const WarmUnits& current);
WarmUnits checked_index_warm(const RawWarmThroughput& raw, const WarmUnits& current);

// The key SSESpecification names, as the table keeps it: "" for the AWS-owned key (Enabled false or
// absent), "alias/aws/dynamodb" for the AWS-managed key, else the KMSMasterKeyId as given.
std::string checked_sse_key(const RawSseSpecification& sse);
// KMSMasterKeyArn for a kept key: an ARN as given; a key id as arn:aws:kms:<region>:<account>:key/<id>;
// an alias (name or ARN) as the ARN of the key it names, whose id is derived from the account,
// region and alias (dynamod has no KMS, so one alias always names the same made-up key).
std::string kms_key_arn(const std::string& key, std::string_view region, std::string_view account);

void encode_on_demand(JsonWriter& out, const OnDemandMaximum& maximum);
void encode_warm(JsonWriter& out, const WarmUnits& warm, std::string_view status);
void encode_sse_description(JsonWriter& out, const std::string& key_arn);

}  // namespace dynamod
