#pragma once
// Query and Scan: pages of items read in key order, filtered, projected and
// billed once per page on the data read.

#include <cstdint>
#include <optional>
#include <string>

#include "protocol/consumed_capacity.h"
#include "protocol/read_requests.h"
#include "storage/scope.h"
#include "storage/store.h"

namespace dynamod::ops {

struct ReadResult {
  std::optional<std::string> items_json;  // the Items array, rendered; absent for Select COUNT
  std::int64_t count = 0;                 // items returned (after the filter)
  std::int64_t scanned = 0;               // items read
  std::optional<std::string> last_evaluated_key_json;
  ConsumedCapacity consumed;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

// DynamoDB stops a page once it has read 1 MB of items.
inline constexpr std::uint64_t kPageBytes = 1024 * 1024;

// Query and Scan of a ReadSpec validated against `table` (validate_query,
// validate_scan, or PartiQL's translation); return_consumed_capacity is left
// to the caller.
ReadResult run_query(Store& store, const Table& table, const ReadSpec& spec);
ReadResult run_scan(Store& store, const Table& table, const ReadSpec& spec);

}  // namespace dynamod::ops
