#include "server/reports.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "metering/cost_model.h"
#include "protocol/json_writer.h"
#include "storage/vector_memory.h"

namespace dynamod {
namespace {

using metering::CapacityCost;
using metering::ObservedUsage;
using metering::StorageCost;

std::string iso_time(std::int64_t ms) {
  std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

double window_seconds(const ReportInputs& in) {
  return std::max(1.0, static_cast<double>(in.now_ms - in.ledger.since_ms) / 1000.0);
}

// The all-operations totals of a table (index empty) or one of its indexes.
const UsageTotals* totals_of(const Ledger::Snapshot& ledger, const std::string& ns, const std::string& table,
                             const std::string& index) {
  auto it = ledger.usage.find(UsageKey{ns, table, index, std::string(kAllOperations)});
  return it == ledger.usage.end() ? nullptr : &it->second;
}

// Prometheus label values escape \, " and newlines.
std::string label(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

// One table or index as the cost report shows it.
struct CostLine {
  std::string ns, table, index;
  std::string kind;  // "table", "global", "local", "vector"
  UsageTotals usage;
  std::uint64_t items = 0, bytes = 0;
  bool has_capacity = true;  // local indexes use the table's
};

void write_cost(JsonWriter& out, const CostLine& line, double window, const metering::ClassPrices& prices,
                const metering::PriceTable& table, double& on_demand_total, double& provisioned_total,
                double& storage_total) {
  out.begin_object();
  out.key("region");
  out.string(line.ns);
  out.key("table");
  out.string(line.table);
  if (!line.index.empty()) {
    out.key("index");
    out.string(line.index);
  }
  out.key("kind");
  out.string(line.kind);
  if (line.has_capacity) {
    ObservedUsage usage{line.usage.read_units, line.usage.write_units, line.usage.peak_read_per_second,
                        line.usage.peak_write_per_second, window};
    CapacityCost c = metering::estimate_capacity_cost(usage, prices);
    out.key("read_units");
    out.real(line.usage.read_units);
    out.key("write_units");
    out.real(line.usage.write_units);
    out.key("read_units_per_second");
    out.real(c.read_per_second);
    out.key("write_units_per_second");
    out.real(c.write_per_second);
    out.key("peak_read_units_per_second");
    out.real(line.usage.peak_read_per_second);
    out.key("peak_write_units_per_second");
    out.real(line.usage.peak_write_per_second);
    out.key("on_demand_monthly_usd");
    out.real(c.on_demand_monthly);
    out.key("provisioned");
    out.begin_object();
    out.key("read_capacity_units");
    out.integer(c.provisioned_rcu);
    out.key("write_capacity_units");
    out.integer(c.provisioned_wcu);
    out.key("monthly_usd");
    out.real(c.provisioned_monthly);
    out.key("utilisation");
    out.real(c.provisioned_utilisation);
    out.end_object();
    out.key("break_even_utilisation");
    out.real(c.break_even_utilisation);
    out.key("cheaper");
    out.string(c.provisioned_cheaper ? "provisioned" : "on-demand");
    on_demand_total += c.on_demand_monthly;
    provisioned_total += c.provisioned_monthly;
  }
  // A vector index's own units (VectorCapacity), in bytes: AWS publishes no
  // price for them that the price table could hold, so they are counted, not priced.
  if (line.kind == "vector") {
    out.key("vector_search_bytes");
    out.real(line.usage.vector_search_bytes);
    out.key("vector_write_bytes");
    out.real(line.usage.vector_write_bytes);
  }
  StorageCost s = metering::estimate_storage_cost(line.bytes, line.items, table);
  out.key("items");
  out.unsigned_integer(line.items);
  out.key("storage_bytes");
  out.unsigned_integer(line.bytes);
  out.key("billable_storage_bytes");
  out.unsigned_integer(s.billable_bytes);
  out.key("storage_standard_monthly_usd");
  out.real(s.standard_monthly);
  out.key("storage_standard_ia_monthly_usd");
  out.real(s.infrequent_access_monthly);
  storage_total += &prices == &table.standard ? s.standard_monthly : s.infrequent_access_monthly;
  out.end_object();
}

std::uint64_t counter(const std::shared_ptr<TableStats>& stats, bool bytes) {
  if (!stats) return 0;
  return static_cast<std::uint64_t>(
      std::max<std::int64_t>(0, bytes ? stats->size_bytes.load() : stats->item_count.load()));
}

}  // namespace

std::string metrics_report(const ReportInputs& in, const RequestMetrics& requests) {
  std::string out;
  requests.render(out);
  fmt::format_to(std::back_inserter(out),
                 "# HELP dynamod_write_commits_total Write transactions committed (each a group of write requests).\n"
                 "# TYPE dynamod_write_commits_total counter\n"
                 "dynamod_write_commits_total {}\n"
                 "# HELP dynamod_write_committed_requests_total Write requests carried by those transactions.\n"
                 "# TYPE dynamod_write_committed_requests_total counter\n"
                 "dynamod_write_committed_requests_total {}\n"
                 "# HELP dynamod_write_commit_seconds_total Time in LMDB's commit: writing the dirty pages and, "
                 "when durable, syncing them.\n"
                 "# TYPE dynamod_write_commit_seconds_total counter\n"
                 "dynamod_write_commit_seconds_total {}\n",
                 in.writes.commits, in.writes.requests, in.writes.commit_seconds);
  out +=
      "# HELP dynamod_consumed_read_units_total Read units consumed since the ledger started, per table and index.\n"
      "# TYPE dynamod_consumed_read_units_total counter\n";
  for (const auto& [key, t] : in.ledger.usage) {
    if (key.operation != kAllOperations) continue;
    fmt::format_to(std::back_inserter(out),
                   "dynamod_consumed_read_units_total{{region=\"{}\",table=\"{}\",index=\"{}\"}} {}\n", label(key.ns),
                   label(key.table), label(key.index), t.read_units);
  }
  out +=
      "# HELP dynamod_consumed_write_units_total Write units consumed since the ledger started, per table and index.\n"
      "# TYPE dynamod_consumed_write_units_total counter\n";
  for (const auto& [key, t] : in.ledger.usage) {
    if (key.operation != kAllOperations) continue;
    fmt::format_to(std::back_inserter(out),
                   "dynamod_consumed_write_units_total{{region=\"{}\",table=\"{}\",index=\"{}\"}} {}\n", label(key.ns),
                   label(key.table), label(key.index), t.write_units);
  }
  // A vector index's units (VectorCapacity), one family after the other.
  for (const bool search : {true, false}) {
    const char* name = search ? "dynamod_vector_search_bytes_total" : "dynamod_vector_write_bytes_total";
    fmt::format_to(std::back_inserter(out),
                   "# HELP {0} {1} consumed since the ledger started, per vector index.\n# TYPE {0} counter\n", name,
                   search ? "VectorSearchRequestBytes" : "VectorWriteRequestBytes");
    for (const auto& [key, t] : in.ledger.usage) {
      if (key.operation != kAllOperations || (t.vector_search_bytes == 0 && t.vector_write_bytes == 0)) continue;
      fmt::format_to(std::back_inserter(out), "{}{{region=\"{}\",table=\"{}\",index=\"{}\"}} {}\n", name, label(key.ns),
                     label(key.table), label(key.index), search ? t.vector_search_bytes : t.vector_write_bytes);
    }
  }
  out += "# HELP dynamod_items Items in each table and entries in each index.\n# TYPE dynamod_items gauge\n";
  std::string sizes =
      "# HELP dynamod_storage_bytes Size of the items of each table and index (as DynamoDB sizes "
      "items, without the 100-byte per-item overhead).\n# TYPE dynamod_storage_bytes gauge\n";
  for (const TablePtr& table : in.tables) {
    auto line = [&](const std::string& index, const std::shared_ptr<TableStats>& stats) {
      auto labels = fmt::format("region=\"{}\",table=\"{}\",index=\"{}\"", label(table->ns), label(table->schema.name),
                                label(index));
      fmt::format_to(std::back_inserter(out), "dynamod_items{{{}}} {}\n", labels, counter(stats, false));
      fmt::format_to(std::back_inserter(sizes), "dynamod_storage_bytes{{{}}} {}\n", labels, counter(stats, true));
    };
    line("", table->stats);
    for (const auto* family : {&table->schema.global_indexes, &table->schema.local_indexes}) {
      for (const IndexSchema& index : *family) {
        auto it = table->index_stats.find(index.id);
        line(index.name, it == table->index_stats.end() ? nullptr : it->second);
      }
    }
    for (const VectorIndexSchema& index : table->schema.vector_indexes) {
      auto it = table->index_stats.find(index.id);
      line(index.name, it == table->index_stats.end() ? nullptr : it->second);
    }
  }
  out += sizes;
  if (in.vector_memory == nullptr || in.vector_memory->mode() != vectors::SearchMode::Approximate) return out;
  // What approximate search still scores exactly: vectors written (or loaded at start) that
  // the graph builder has not inserted yet. 0 once the graphs are complete.
  out +=
      "# HELP dynamod_vector_graph_pending Vectors of each vector index not yet in its HNSW graphs "
      "(searched exactly meanwhile).\n# TYPE dynamod_vector_graph_pending gauge\n";
  for (const TablePtr& table : in.tables) {
    for (const VectorIndexSchema& index : table->schema.vector_indexes) {
      fmt::format_to(std::back_inserter(out),
                     "dynamod_vector_graph_pending{{region=\"{}\",table=\"{}\",index=\"{}\"}} {}\n", label(table->ns),
                     label(table->schema.name), label(index.name), in.vector_memory->graph_pending(index.id));
    }
  }
  return out;
}

std::string cost_report(const ReportInputs& in, const metering::PriceTable& prices) {
  const double window = window_seconds(in);
  JsonWriter out;
  out.begin_object();
  out.key("since");
  out.string(iso_time(in.ledger.since_ms));
  out.key("window_seconds");
  out.real(window);
  out.key("prices");
  out.string(prices.region);
  out.key("hours_per_month");
  out.real(metering::kHoursPerMonth);
  out.key("tables");
  out.begin_array();
  double on_demand = 0, provisioned = 0, storage = 0;
  std::map<std::pair<std::string, std::string>, bool> listed;
  for (const TablePtr& t : in.tables) {
    const TableSchema& schema = t->schema;
    listed[{t->ns, schema.name}] = true;
    const metering::ClassPrices& class_prices =
        schema.table_class == TableClass::StandardInfrequentAccess ? prices.infrequent_access : prices.standard;
    out.begin_object();
    out.key("region");
    out.string(t->ns);
    out.key("table");
    out.string(schema.name);
    out.key("billing_mode");
    out.string(billing_mode_name(schema.billing_mode));
    out.key("table_class");
    out.string(table_class_name(schema.table_class.value_or(TableClass::Standard)));
    out.key("lines");
    out.begin_array();
    auto usage_of = [&](const std::string& index) {
      const UsageTotals* u = totals_of(in.ledger, t->ns, schema.name, index);
      return u ? *u : UsageTotals{};
    };
    CostLine table_line{
        t->ns, schema.name, "", "table", usage_of(""), counter(t->stats, false), counter(t->stats, true), true};
    write_cost(out, table_line, window, class_prices, prices, on_demand, provisioned, storage);
    for (const auto* family : {&schema.global_indexes, &schema.local_indexes}) {
      const bool global = family == &schema.global_indexes;
      for (const IndexSchema& index : *family) {
        auto it = t->index_stats.find(index.id);
        std::shared_ptr<TableStats> stats = it == t->index_stats.end() ? nullptr : it->second;
        CostLine line{t->ns,
                      schema.name,
                      index.name,
                      global ? "global" : "local",
                      usage_of(index.name),
                      counter(stats, false),
                      counter(stats, true),
                      global};
        write_cost(out, line, window, class_prices, prices, on_demand, provisioned, storage);
      }
    }
    for (const VectorIndexSchema& index : schema.vector_indexes) {
      auto it = t->index_stats.find(index.id);
      std::shared_ptr<TableStats> stats = it == t->index_stats.end() ? nullptr : it->second;
      CostLine line{
          t->ns, schema.name, index.name, "vector", usage_of(index.name), counter(stats, false), counter(stats, true),
          false};
      write_cost(out, line, window, class_prices, prices, on_demand, provisioned, storage);
    }
    out.end_array();
    out.end_object();
  }
  out.end_array();
  // Usage of tables deleted since the ledger started still cost money.
  out.key("deleted_tables");
  out.begin_array();
  for (const auto& [key, t] : in.ledger.usage) {
    if (key.operation != kAllOperations || !key.index.empty() || listed.count({key.ns, key.table}) != 0) continue;
    CostLine line{key.ns, key.table, "", "table", t, 0, 0, true};
    write_cost(out, line, window, prices.standard, prices, on_demand, provisioned, storage);
  }
  out.end_array();
  out.key("total");
  out.begin_object();
  out.key("on_demand_monthly_usd");
  out.real(on_demand);
  out.key("provisioned_monthly_usd");
  out.real(provisioned);
  out.key("storage_monthly_usd");
  out.real(storage);
  out.end_object();
  out.end_object();
  return out.take();
}

std::string patterns_report(const ReportInputs& in) {
  struct Row {
    const PatternKey* key;
    const PatternTotals* totals;
  };
  std::vector<Row> rows;
  for (const auto& [key, t] : in.ledger.patterns) rows.push_back({&key, &t});
  // The costliest patterns first.
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.totals->read_units + a.totals->write_units > b.totals->read_units + b.totals->write_units;
  });
  JsonWriter out;
  out.begin_object();
  out.key("since");
  out.string(iso_time(in.ledger.since_ms));
  out.key("patterns");
  out.begin_array();
  for (const Row& row : rows) {
    const PatternTotals& t = *row.totals;
    out.begin_object();
    out.key("region");
    out.string(row.key->ns);
    out.key("table");
    out.string(row.key->table);
    if (!t.index.empty()) {
      out.key("index");
      out.string(t.index);
    }
    out.key("operation");
    out.string(t.operation);
    out.key("pattern");
    out.string(row.key->shape);
    out.key("count");
    out.unsigned_integer(t.count);
    out.key("read_units");
    out.real(t.read_units);
    out.key("write_units");
    out.real(t.write_units);
    if (t.vector_search_bytes != 0 || t.vector_write_bytes != 0) {
      out.key("vector_search_bytes");
      out.real(t.vector_search_bytes);
      out.key("vector_write_bytes");
      out.real(t.vector_write_bytes);
    }
    const bool reads_many = t.operation == "Query" || t.operation == "Scan";
    if (reads_many) {
      out.key("items_read");
      out.unsigned_integer(t.items_read);
      out.key("items_returned");
      out.unsigned_integer(t.items_returned);
    }
    out.key("flags");
    out.begin_array();
    if (t.operation == "Scan") out.string("full-table-scan");
    if (reads_many && t.items_read >= kMinItemsForWaste &&
        static_cast<double>(t.items_read - std::min(t.items_read, t.items_returned)) >
            kFilterWasteShare * static_cast<double>(t.items_read)) {
      out.string("filter-waste");
    }
    out.end_array();
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

}  // namespace dynamod
