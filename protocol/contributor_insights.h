#pragma once
// CloudWatch Contributor Insights settings (UpdateContributorInsights,
// DescribeContributorInsights, ListContributorInsights): the requests, what
// an update makes of a setting, and the answers.
//
// Each table and each global index has a setting of its own
// (ContributorInsights, kept in the schema). dynamod has no CloudWatch: it
// keeps the settings and names the rules as the service does, and passes the
// ENABLING and DISABLING states at once. It keeps the service's default quota
// of rules per region, past which an ENABLE ends FAILED.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/json_reader.h"
#include "protocol/json_writer.h"
#include "protocol/table_schema.h"

namespace dynamod {

std::string_view contributor_insights_status_name(ContributorInsightsStatus status);
std::string_view contributor_insights_mode_name(ContributorInsightsMode mode);

struct UpdateContributorInsightsRequest {
  std::string table_name;  // a name or a table ARN
  std::optional<std::string> index_name;
  bool enable = false;
  std::optional<ContributorInsightsMode> mode;
};

struct DescribeContributorInsightsRequest {
  std::string table_name;
  std::optional<std::string> index_name;
};

struct ListContributorInsightsRequest {
  std::optional<std::string> table_name;
  std::optional<std::string> next_token;
  std::int64_t max_results = 100;  // the most a page may hold
};

// Each throws the service's ValidationException (or SerializationException
// for a value of the wrong JSON type).
UpdateContributorInsightsRequest decode_update_contributor_insights(json::object body);
DescribeContributorInsightsRequest decode_describe_contributor_insights(json::object body);
ListContributorInsightsRequest decode_list_contributor_insights(json::object body);

// The CloudWatch rules a setting has while ENABLED: most accessed (PKC) and
// most throttled (PKT) partition keys, and with a sort key the same for
// partition and sort keys (SKC, SKT); THROTTLED_KEYS keeps the throttled ones.
int contributor_insights_rule_count(ContributorInsightsMode mode, bool has_sort_key);
// DynamoDBContributorInsights-<kind>-<table>[-<index>]-<creation ms>.
std::vector<std::string> contributor_insights_rule_names(const ContributorInsights& setting, std::string_view table,
                                                         const std::optional<std::string>& index, bool has_sort_key);

// What UpdateContributorInsights makes of a setting: the setting to keep
// (nullopt: still never changed) and the status and mode its answer reports.
struct ContributorInsightsUpdate {
  std::optional<ContributorInsights> setting;
  ContributorInsightsStatus answer_status = ContributorInsightsStatus::Disabled;
  std::optional<ContributorInsightsMode> answer_mode;
};
// `rules_free`: how many more rules the region's quota allows besides the
// ones this setting has now.
ContributorInsightsUpdate update_contributor_insights(const std::optional<ContributorInsights>& current,
                                                      const UpdateContributorInsightsRequest& request,
                                                      bool has_sort_key, std::int64_t rules_free, double now);

// One setting as the answers name it.
struct ContributorInsightsEntry {
  std::string table_name;
  std::optional<std::string> index_name;
  std::optional<ContributorInsights> setting;
  bool has_sort_key = false;
};

std::string encode_update_contributor_insights(const ContributorInsightsEntry& entry,
                                               const ContributorInsightsUpdate& update);
std::string encode_describe_contributor_insights(const ContributorInsightsEntry& entry);
// A page of ListContributorInsights: the settings that are not DISABLED.
std::string encode_list_contributor_insights(const std::vector<ContributorInsightsEntry>& entries,
                                             const std::optional<std::string>& next_token);

// ListContributorInsights pages through (table name, index name) in
// ascending order, a table's own setting (no index) first; NextToken names
// the last entry of a page.
std::string contributor_insights_token(std::string_view table, const std::optional<std::string>& index);
std::pair<std::string, std::string> parse_contributor_insights_token(std::string_view token);

}  // namespace dynamod
