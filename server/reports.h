#pragma once
// The reports dynamod serves about itself, beside the DynamoDB API:
//   GET /dynamod/metrics   Prometheus text: requests, latency and errors per
//                          operation; consumed units, items and storage per
//                          table and index; the writer's group commits
//   GET /dynamod/cost      JSON: per table and index, the units consumed and
//                          what they would cost per month on demand and
//                          provisioned, and storage under both table classes
//   GET /dynamod/patterns  JSON: requests grouped by access pattern, with
//                          units, items read versus returned, and flags
// They read the ledger, the catalog's counters, the request metrics and the
// writer's totals, and (metrics) the vectors waiting for their graphs.

#include <cstdint>
#include <string>

#include "metering/prices.h"
#include "server/request_metrics.h"
#include "storage/catalog.h"
#include "storage/ledger.h"
#include "storage/write_queue.h"

namespace dynamod {
namespace vectors {
class VectorMemory;
}

struct ReportInputs {
  const Ledger::Snapshot& ledger;
  std::vector<TablePtr> tables;  // every table of every region
  std::int64_t now_ms = 0;
  WriteQueue::Totals writes;
  const vectors::VectorMemory* vector_memory = nullptr;  // for the metrics' vector graph gauge
};

std::string metrics_report(const ReportInputs& in, const RequestMetrics& requests);
std::string cost_report(const ReportInputs& in, const metering::PriceTable& prices);
std::string patterns_report(const ReportInputs& in);

// A pattern reads much more than it returns once its filter drops more than
// this share of the items it read (with at least kMinItemsForWaste read).
inline constexpr double kFilterWasteShare = 0.5;
inline constexpr std::uint64_t kMinItemsForWaste = 10;

}  // namespace dynamod
