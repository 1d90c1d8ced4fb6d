#pragma once
// The settings of protocol/capacity_settings.h in the catalog's schema JSON (storage/schema_codec):
// "on_demand" {read, write} and "warm" {read, write} in a table's object and in each index's, and
// the table's "sse_kms_key". Each is absent when unset, as in catalogs written before them.

#include <simdjson.h>

#include <optional>

#include "protocol/json_writer.h"
#include "protocol/table_schema.h"

namespace dynamod {

void write_capacity_settings(JsonWriter& w, const std::optional<OnDemandMaximum>& on_demand,
                             const std::optional<WarmUnits>& warm);
void read_capacity_settings(simdjson::dom::object o, std::optional<OnDemandMaximum>& on_demand,
                            std::optional<WarmUnits>& warm);

}  // namespace dynamod
