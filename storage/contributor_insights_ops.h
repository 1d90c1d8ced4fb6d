#pragma once
// Contributor Insights: a setting of each table and global index, kept in the
// table's schema (protocol/contributor_insights.h says what the settings do).

#include <optional>
#include <string>
#include <vector>

#include "protocol/contributor_insights.h"
#include "storage/scope.h"
#include "storage/write_queue.h"

namespace dynamod::ops {

struct ContributorInsightsChange {
  ContributorInsightsEntry entry;  // the setting after the change
  ContributorInsightsUpdate update;
};
// Counts the rules of the namespace's other settings against the store's quota.
ContributorInsightsChange update_contributor_insights(WriteContext& ctx, const Scope& scope,
                                                      const UpdateContributorInsightsRequest& request);
ContributorInsightsEntry describe_contributor_insights(Store& store, const Scope& scope,
                                                       const DescribeContributorInsightsRequest& request);

struct ContributorInsightsPage {
  std::vector<ContributorInsightsEntry> entries;  // none DISABLED
  std::optional<std::string> next_token;
};
ContributorInsightsPage list_contributor_insights(Store& store, const Scope& scope,
                                                  const ListContributorInsightsRequest& request);

}  // namespace dynamod::ops
