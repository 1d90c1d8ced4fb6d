#include "server/unimplemented_operations.h"

#include <algorithm>
#include <array>

namespace dynamod {
namespace {

// Sorted, for binary search. Keep the list of missing operations at the end of docs/features.md in step.
constexpr std::array<std::string_view, 12> kUnimplemented{
    "CreateGlobalTable",
    "DescribeGlobalTable",
    "DescribeGlobalTableSettings",
    "DescribeKinesisStreamingDestination",
    "DescribeTableReplicaAutoScaling",
    "DisableKinesisStreamingDestination",
    "EnableKinesisStreamingDestination",
    "ListGlobalTables",
    "UpdateGlobalTable",
    "UpdateGlobalTableSettings",
    "UpdateKinesisStreamingDestination",
    "UpdateTableReplicaAutoScaling",
};

static_assert(std::is_sorted(kUnimplemented.begin(), kUnimplemented.end()));

}  // namespace

std::optional<std::string> unimplemented_operation_message(std::string_view operation) {
  if (!std::binary_search(kUnimplemented.begin(), kUnimplemented.end(), operation)) return std::nullopt;
  return "dynamod does not implement " + std::string(operation) +
         " (see the list of supported operations in dynamod's README)";
}

}  // namespace dynamod
