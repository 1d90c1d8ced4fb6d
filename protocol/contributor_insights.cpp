#include "protocol/contributor_insights.h"

#include "protocol/api_error.h"
#include "protocol/item_requests.h"
#include "protocol/table_requests.h"

namespace dynamod {
namespace {

using Status = ContributorInsightsStatus;
using Mode = ContributorInsightsMode;

constexpr std::string_view kActionValues = "Member must satisfy enum value set: [ENABLE, DISABLE]";
constexpr std::string_view kModeValues =
    "Member must satisfy enum value set: [ACCESSED_AND_THROTTLED_KEYS, THROTTLED_KEYS]";
// FailureException of an ENABLE past the quota, as the service words it.
constexpr std::string_view kRuleLimitReached =
    "Amazon CloudWatch Contributor Insights rule limit reached. Please disable Contributor Insights for other "
    "tables/indexes OR disable other CloudWatch Contributor Insights rules before retrying.";

std::optional<Mode> parse_mode(std::string_view text) {
  if (text == "ACCESSED_AND_THROTTLED_KEYS") return Mode::AccessedAndThrottledKeys;
  if (text == "THROTTLED_KEYS") return Mode::ThrottledKeys;
  return std::nullopt;
}

// TableName and IndexName, shared by the update and the describe.
void check_names(const std::string& table, const std::optional<std::string>& index, ConstraintErrors& errors) {
  check_table_name_constraints(table, errors);
  if (index) check_name(*index, "indexName", errors);
}

void write_names(JsonWriter& out, const ContributorInsightsEntry& entry) {
  out.key("TableName");
  out.string(entry.table_name);
  if (entry.index_name) {
    out.key("IndexName");
    out.string(*entry.index_name);
  }
}

}  // namespace

std::string_view contributor_insights_status_name(ContributorInsightsStatus status) {
  switch (status) {
    case Status::Enabling: return "ENABLING";
    case Status::Enabled: return "ENABLED";
    case Status::Disabling: return "DISABLING";
    case Status::Disabled: return "DISABLED";
    case Status::Failed: return "FAILED";
  }
  return "DISABLED";
}

std::string_view contributor_insights_mode_name(ContributorInsightsMode mode) {
  return mode == Mode::ThrottledKeys ? "THROTTLED_KEYS" : "ACCESSED_AND_THROTTLED_KEYS";
}

UpdateContributorInsightsRequest decode_update_contributor_insights(json::object body) {
  std::optional<std::string> table;
  std::optional<std::string> index;
  std::optional<std::string> action;
  std::optional<std::string> mode;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") table = decode::optional_string(value);
    else if (key == "IndexName") index = decode::optional_string(value);
    else if (key == "ContributorInsightsAction") action = decode::optional_string(value);
    else if (key == "ContributorInsightsMode") mode = decode::optional_string(value);
  }
  UpdateContributorInsightsRequest r;
  r.table_name = require_table_name(table);
  ConstraintErrors errors;
  check_names(r.table_name, index, errors);
  if (!action) errors.add_null("contributorInsightsAction", "Member must not be null");
  else if (*action != "ENABLE" && *action != "DISABLE") errors.add(*action, "contributorInsightsAction", kActionValues);
  if (mode && !parse_mode(*mode)) errors.add(*mode, "contributorInsightsMode", kModeValues);
  errors.throw_if_any();
  r.index_name = std::move(index);
  r.enable = *action == "ENABLE";
  if (mode) r.mode = parse_mode(*mode);
  return r;
}

DescribeContributorInsightsRequest decode_describe_contributor_insights(json::object body) {
  std::optional<std::string> table;
  std::optional<std::string> index;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") table = decode::optional_string(value);
    else if (key == "IndexName") index = decode::optional_string(value);
  }
  DescribeContributorInsightsRequest r;
  r.table_name = require_table_name(table);
  ConstraintErrors errors;
  check_names(r.table_name, index, errors);
  errors.throw_if_any();
  r.index_name = std::move(index);
  return r;
}

ListContributorInsightsRequest decode_list_contributor_insights(json::object body) {
  ListContributorInsightsRequest r;
  std::optional<std::int64_t> max_results;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") r.table_name = decode::optional_string(value);
    else if (key == "NextToken") r.next_token = decode::optional_string(value);
    else if (key == "MaxResults" && !json::is_null(value)) max_results = json::read_integer(value);
  }
  ConstraintErrors errors;
  if (r.table_name) check_table_name_constraints(*r.table_name, errors);
  if (max_results && *max_results > 100) {
    errors.add(std::to_string(*max_results), "maxResults", "Member must have value less than or equal to 100");
  }
  errors.throw_if_any();
  // The model sets no lower bound; a page holds at least one entry.
  if (max_results) r.max_results = std::max<std::int64_t>(*max_results, 1);
  return r;
}

int contributor_insights_rule_count(ContributorInsightsMode mode, bool has_sort_key) {
  return (mode == Mode::AccessedAndThrottledKeys ? 2 : 1) * (has_sort_key ? 2 : 1);
}

std::vector<std::string> contributor_insights_rule_names(const ContributorInsights& setting, std::string_view table,
                                                         const std::optional<std::string>& index, bool has_sort_key) {
  std::string resource(table);
  if (index) resource += "-" + *index;
  const std::string suffix = "-" + resource + "-" + std::to_string(setting.rules_created_ms);
  const bool accessed = setting.mode == Mode::AccessedAndThrottledKeys;
  std::vector<std::string> names;
  for (std::string_view key : {"PK", "SK"}) {
    if (key == "SK" && !has_sort_key) break;
    if (accessed) names.push_back("DynamoDBContributorInsights-" + std::string(key) + "C" + suffix);
    names.push_back("DynamoDBContributorInsights-" + std::string(key) + "T" + suffix);
  }
  return names;
}

ContributorInsightsUpdate update_contributor_insights(const std::optional<ContributorInsights>& current,
                                                      const UpdateContributorInsightsRequest& request,
                                                      bool has_sort_key, std::int64_t rules_free, double now) {
  ContributorInsightsUpdate u;
  u.setting = current;
  if (!request.enable) {
    // A DISABLE answers with the setting's own mode, whatever the request says.
    if (!current) return u;  // DISABLED, and still never changed
    u.answer_mode = current->mode;
    if (current->status == Status::Disabled) return u;
    u.setting->status = Status::Disabled;
    u.setting->last_update = now;
    u.answer_status = Status::Disabling;
    return u;
  }
  // An ENABLE without a mode asks for the default one, even of a setting in the other.
  const Mode mode = request.mode.value_or(Mode::AccessedAndThrottledKeys);
  u.answer_mode = mode;
  if (current && current->status == Status::Enabled && current->mode == mode) {
    u.answer_status = Status::Enabled;  // nothing to change
    return u;
  }
  ContributorInsights next = current.value_or(ContributorInsights{});
  const bool had_rules = current && current->status == Status::Enabled;
  next.mode = mode;
  next.last_update = now;
  if (contributor_insights_rule_count(mode, has_sort_key) > rules_free) {
    next.status = Status::Failed;  // no rule is made
  } else {
    next.status = Status::Enabled;
    // A change of mode keeps the rules' names; new rules are named by now.
    if (!had_rules) next.rules_created_ms = static_cast<std::int64_t>(now * 1000.0);
  }
  u.setting = next;
  u.answer_status = Status::Enabling;
  return u;
}

std::string encode_update_contributor_insights(const ContributorInsightsEntry& entry,
                                               const ContributorInsightsUpdate& update) {
  JsonWriter out;
  out.begin_object();
  write_names(out, entry);
  out.key("ContributorInsightsStatus");
  out.string(contributor_insights_status_name(update.answer_status));
  if (update.answer_mode) {
    out.key("ContributorInsightsMode");
    out.string(contributor_insights_mode_name(*update.answer_mode));
  }
  out.end_object();
  return out.take();
}

std::string encode_describe_contributor_insights(const ContributorInsightsEntry& entry) {
  JsonWriter out;
  out.begin_object();
  write_names(out, entry);
  if (!entry.setting) {
    out.key("ContributorInsightsStatus");
    out.string("DISABLED");
    out.end_object();
    return out.take();
  }
  const ContributorInsights& s = *entry.setting;
  if (s.status == Status::Enabled) {
    out.key("ContributorInsightsRuleList");
    out.begin_array();
    for (const auto& name :
         contributor_insights_rule_names(s, entry.table_name, entry.index_name, entry.has_sort_key)) {
      out.string(name);
    }
    out.end_array();
  }
  out.key("ContributorInsightsStatus");
  out.string(contributor_insights_status_name(s.status));
  out.key("LastUpdateDateTime");
  out.real(s.last_update);
  if (s.status == Status::Failed) {
    out.key("FailureException");
    out.begin_object();
    out.key("ExceptionName");
    out.string("LimitExceededException");
    out.key("ExceptionDescription");
    out.string(kRuleLimitReached);
    out.end_object();
  }
  out.key("ContributorInsightsMode");
  out.string(contributor_insights_mode_name(s.mode));
  out.end_object();
  return out.take();
}

std::string encode_list_contributor_insights(const std::vector<ContributorInsightsEntry>& entries,
                                             const std::optional<std::string>& next_token) {
  JsonWriter out;
  out.begin_object();
  out.key("ContributorInsightsSummaries");
  out.begin_array();
  for (const auto& entry : entries) {
    out.begin_object();
    write_names(out, entry);
    out.key("ContributorInsightsStatus");
    out.string(contributor_insights_status_name(entry.setting->status));
    out.key("ContributorInsightsMode");
    out.string(contributor_insights_mode_name(entry.setting->mode));
    out.end_object();
  }
  out.end_array();
  if (next_token) {
    out.key("NextToken");
    out.string(*next_token);
  }
  out.end_object();
  return out.take();
}

std::string contributor_insights_token(std::string_view table, const std::optional<std::string>& index) {
  // Names never hold a '/'.
  return std::string(table) + "/" + index.value_or("");
}

std::pair<std::string, std::string> parse_contributor_insights_token(std::string_view token) {
  std::size_t slash = token.find('/');
  if (slash == std::string_view::npos) return {std::string(token), ""};
  return {std::string(token.substr(0, slash)), std::string(token.substr(slash + 1))};
}

}  // namespace dynamod
