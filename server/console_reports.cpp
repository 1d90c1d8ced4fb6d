#include "server/console_reports.h"

#include "protocol/attribute_json.h"
#include "protocol/json_writer.h"
#include "storage/collection_ops.h"

namespace dynamod {
namespace {

constexpr std::size_t kCollectionsPerTable = 10;

void write_place(JsonWriter& out, const std::string& ns, const std::string& table) {
  out.key("region");
  out.string(ns);
  out.key("table");
  out.string(table);
}

}  // namespace

std::optional<metering::UsageSeries::Resolution> series_resolution(std::string_view query) {
  using Resolution = metering::UsageSeries::Resolution;
  if (query.empty() || query == "resolution=second") return Resolution::Second;
  if (query == "resolution=minute") return Resolution::Minute;
  return std::nullopt;
}

std::string series_report(const Ledger& ledger, metering::UsageSeries::Resolution resolution, std::int64_t now_ms) {
  using Series = metering::UsageSeries;
  const bool seconds = resolution == Series::Resolution::Second;
  JsonWriter out;
  out.begin_object();
  out.key("resolution");
  out.string(seconds ? "second" : "minute");
  out.key("interval_seconds");
  out.integer(Series::interval_ms(resolution) / 1000);
  out.key("now_ms");
  out.integer(now_ms);
  out.key("window_seconds");
  out.integer(seconds ? static_cast<std::int64_t>(Series::kSeconds) : static_cast<std::int64_t>(Series::kMinutes) * 60);
  out.key("series");
  out.begin_array();
  for (const Ledger::SeriesLine& line : ledger.series(resolution, now_ms)) {
    out.begin_object();
    write_place(out, line.ns, line.table);
    if (!line.index.empty()) {
      out.key("index");
      out.string(line.index);
    }
    out.key("points");
    out.begin_array();
    for (const Series::Point& p : line.points) {
      out.begin_array();
      out.integer(p.start_ms);
      out.real(p.read_units);
      out.real(p.write_units);
      out.unsigned_integer(p.requests);
      out.unsigned_integer(p.throttled);
      out.end_array();
    }
    out.end_array();
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

std::string hot_keys_report(const Ledger& ledger) {
  JsonWriter out;
  out.begin_object();
  out.key("counters_per_table");
  out.unsigned_integer(metering::HotKeys::kCounters);
  out.key("tables");
  out.begin_array();
  for (const Ledger::HotKeysLine& line : ledger.hot_keys()) {
    out.begin_object();
    write_place(out, line.ns, line.table);
    out.key("keys");
    out.begin_array();
    for (const metering::HotKeys::Entry& e : line.keys) {
      out.begin_object();
      out.key("key");
      encode_attribute_value(out, e.key);
      out.key("units");
      out.real(e.units);
      out.key("error");
      out.real(e.error);
      out.key("requests");
      out.unsigned_integer(e.requests);
      out.end_object();
    }
    out.end_array();
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

std::string collections_report(Store& store, const std::vector<TablePtr>& tables) {
  JsonWriter out;
  out.begin_object();
  out.key("limit_bytes");
  out.unsigned_integer(store.item_collection_limit());
  out.key("tables");
  out.begin_array();
  for (const TablePtr& table : tables) {
    if (table->schema.local_indexes.empty()) continue;
    out.begin_object();
    write_place(out, table->ns, table->schema.name);
    out.key("collections");
    out.begin_array();
    for (const ops::CollectionSize& c : ops::largest_item_collections(store, *table, kCollectionsPerTable)) {
      out.begin_object();
      out.key("key");
      encode_attribute_value(out, c.partition);
      out.key("bytes");
      out.unsigned_integer(c.bytes);
      out.end_object();
    }
    out.end_array();
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

}  // namespace dynamod
