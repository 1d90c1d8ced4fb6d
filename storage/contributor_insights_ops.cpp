#include "storage/contributor_insights_ops.h"

#include <algorithm>

#include "storage/table_ops.h"

namespace dynamod::ops {
namespace {

ApiError index_not_found(std::string_view index, std::string_view table) {
  return ApiError::resource_not_found("Requested resource not found: Index: " + std::string(index) +
                                      " not found for table: " + std::string(table));
}

// The global index a request names (a local index has no setting of its own).
const IndexSchema& global_index(const TableSchema& schema, const std::string& name) {
  for (const auto& index : schema.global_indexes) {
    if (index.name == name) return index;
  }
  throw index_not_found(name, schema.name);
}

// The setting of the table (index == nullptr) or of one of its global indexes.
ContributorInsightsEntry entry_of(const TableSchema& schema, const IndexSchema* index) {
  ContributorInsightsEntry entry;
  entry.table_name = schema.name;
  const KeyDef& key = index ? index->key : schema.key;
  entry.has_sort_key = key.sort.has_value();
  if (index) entry.index_name = index->name;
  entry.setting = index ? index->contributor_insights : schema.contributor_insights;
  return entry;
}

ContributorInsightsEntry entry_of(const TableSchema& schema, const std::optional<std::string>& index_name) {
  return entry_of(schema, index_name ? &global_index(schema, *index_name) : nullptr);
}

std::int64_t rules_of(const ContributorInsightsEntry& entry) {
  const auto& s = entry.setting;
  if (!s || s->status != ContributorInsightsStatus::Enabled) return 0;
  return contributor_insights_rule_count(s->mode, entry.has_sort_key);
}

// Every setting of a table, its own first, then its global indexes by name:
// ListContributorInsights' order.
template <typename Visit>
void for_each_entry(const TableSchema& schema, Visit visit) {
  visit(entry_of(schema, nullptr));
  std::vector<const IndexSchema*> indexes;
  for (const auto& index : schema.global_indexes) indexes.push_back(&index);
  std::sort(indexes.begin(), indexes.end(), [](auto* a, auto* b) { return a->name < b->name; });
  for (const IndexSchema* index : indexes) visit(entry_of(schema, index));
}

}  // namespace

ContributorInsightsChange update_contributor_insights(WriteContext& ctx, const Scope& scope,
                                                      const UpdateContributorInsightsRequest& request) {
  TablePtr table = find_control_table(ctx, scope, request.table_name);
  const TableSchema& schema = table->schema;
  const IndexSchema* index = request.index_name ? &global_index(schema, *request.index_name) : nullptr;
  ContributorInsightsEntry entry = entry_of(schema, index);
  if (index && index->status != IndexStatus::Active) {
    throw ApiError::validation(
        "Table or Index is not in a valid state to update Key Access Insights: IndexStatus must be ACTIVE to enable "
        "ContributorInsights.");
  }
  // The quota counts the rules of every other setting of the region.
  std::int64_t in_use = -rules_of(entry);
  for (const TablePtr& other : ctx.tables_in(table->ns)) {
    for_each_entry(other->schema, [&](const ContributorInsightsEntry& e) { in_use += rules_of(e); });
  }
  const double now = static_cast<double>(ctx.store().now_ms()) / 1000.0;
  ContributorInsightsUpdate update = update_contributor_insights(
      entry.setting, request, entry.has_sort_key, ctx.store().contributor_insights_rule_limit() - in_use, now);
  if (update.setting != entry.setting) {
    TableSchema next = schema;
    auto& setting =
        index ? next.global_indexes[static_cast<std::size_t>(index - schema.global_indexes.data())].contributor_insights
              : next.contributor_insights;
    setting = update.setting;
    replace_schema(ctx, *table, std::move(next));
  }
  entry.setting = update.setting;
  return {std::move(entry), std::move(update)};
}

ContributorInsightsEntry describe_contributor_insights(Store& store, const Scope& scope,
                                                       const DescribeContributorInsightsRequest& request) {
  TablePtr table = find_control_table(store, scope, request.table_name);
  return entry_of(table->schema, request.index_name);
}

ContributorInsightsPage list_contributor_insights(Store& store, const Scope& scope,
                                                  const ListContributorInsightsRequest& request) {
  std::vector<TablePtr> tables;
  if (request.table_name) {
    tables.push_back(find_control_table(store, scope, *request.table_name));
  } else {
    for (const std::string& name : store.catalog().list(scope.ns(), "", store.catalog().count(scope.ns()))) {
      if (TablePtr table = store.catalog().find(scope.ns(), name)) tables.push_back(std::move(table));
    }
  }
  // Resumes after the entry the token names.
  std::optional<std::pair<std::string, std::string>> after;
  if (request.next_token) after = parse_contributor_insights_token(*request.next_token);
  ContributorInsightsPage page;
  bool more = false;
  for (const TablePtr& table : tables) {
    for_each_entry(table->schema, [&](ContributorInsightsEntry entry) {
      if (more || !entry.setting || entry.setting->status == ContributorInsightsStatus::Disabled) return;
      if (after && std::pair(entry.table_name, entry.index_name.value_or("")) <= *after) return;
      if (static_cast<std::int64_t>(page.entries.size()) == request.max_results) {
        more = true;
        return;
      }
      page.entries.push_back(std::move(entry));
    });
  }
  if (more)
    page.next_token = contributor_insights_token(page.entries.back().table_name, page.entries.back().index_name);
  return page;
}

}  // namespace dynamod::ops
