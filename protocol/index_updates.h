#pragma once
// UpdateTable's GlobalSecondaryIndexUpdates, validated against the table.

#include <optional>
#include <string>
#include <vector>

#include "protocol/table_requests.h"
#include "protocol/table_schema.h"

namespace dynamod {

struct IndexUpdates {
  std::optional<IndexSchema> create;                 // its id is assigned by the engine
  std::vector<AttributeDefinition> new_definitions;  // key attributes the new index adds
  std::optional<std::string> delete_name;
  std::vector<std::pair<std::string, std::pair<std::int64_t, std::int64_t>>> throughput_updates;
  std::vector<std::pair<std::string, OnDemandMaximum>> on_demand_updates;
  std::vector<std::pair<std::string, WarmUnits>> warm_updates;

  bool empty() const {
    return !create && !delete_name && throughput_updates.empty() && on_demand_updates.empty() && warm_updates.empty();
  }
};

// `mode` is the table's billing mode after this request. UpdateTable checks the index updates
// before the table's own changes (units, billing mode, stream): a missing index, or an index's bad
// key, is named before units on an on-demand table, a switch to PROVISIONED without units, or a
// stream change beside an index change (DynamoDB Local's order; the documentation is silent).
IndexUpdates validate_index_updates(const UpdateTableRequest& request, const TableSchema& table, BillingMode mode);

// A switch to PROVISIONED (`mode`) gives every GSI units too, by an Update of each (ACKQ,
// /work/notes/errors-indexes.md); checked after the table's own units.
void require_units_of_every_index(const TableSchema& table, BillingMode mode, const IndexUpdates& updates);

}  // namespace dynamod
