#pragma once
// UpdateTable's GlobalSecondaryIndexUpdates, validated against the table.

#include <optional>
#include <string>
#include <vector>

#include "protocol/table_requests.h"
#include "protocol/table_schema.h"

namespace dynamod {

struct IndexUpdates {
  std::optional<IndexSchema> create;  // its id is assigned by the engine
  std::vector<AttributeDefinition> new_definitions;  // key attributes the new index adds
  std::optional<std::string> delete_name;
  std::vector<std::pair<std::string, std::pair<std::int64_t, std::int64_t>>> throughput_updates;

  bool empty() const { return !create && !delete_name && throughput_updates.empty(); }
};

// `mode` is the table's billing mode after this request.
IndexUpdates validate_index_updates(const UpdateTableRequest& request, const TableSchema& table, BillingMode mode);

}  // namespace dynamod
