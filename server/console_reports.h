#pragma once
// The reports the console draws, beside /dynamod/cost and /dynamod/patterns:
//   GET /dynamod/series?resolution=second|minute   per table and index, the
//       units, requests and throttled requests of each second of the last hour
//       (or minute of the last day) that saw any: points [start ms, read units,
//       write units, requests, throttled]
//   GET /dynamod/hot-keys      per table, the partition keys with the most units
//   GET /dynamod/collections   per table with local indexes, its largest item
//       collections against the item collection limit
// They hold key values, so with --credentials they answer signed requests only.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/catalog.h"
#include "storage/ledger.h"
#include "storage/store.h"

namespace dynamod {

// The resolution a query string asks for (second unless `resolution=minute`);
// nullopt for any other value.
std::optional<metering::UsageSeries::Resolution> series_resolution(std::string_view query);

std::string series_report(const Ledger& ledger, metering::UsageSeries::Resolution resolution, std::int64_t now_ms);
std::string hot_keys_report(const Ledger& ledger);
std::string collections_report(Store& store, const std::vector<TablePtr>& tables);

}  // namespace dynamod
