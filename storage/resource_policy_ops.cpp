#include "storage/resource_policy_ops.h"

#include <algorithm>

#include "protocol/utc_time.h"
#include "storage/table_ops.h"

namespace dynamod::ops {
namespace {

constexpr std::string_view kNotFound = "Resource-based policy not found for the provided ResourceArn: ";
// The first part of the window answers ResourceInUseException (0.6 to 2.4 s on the service).
constexpr std::int64_t kPendingMs = 1000;

// The table and stream a ResourceArn names, as `find` sees tables.
template <typename Find>
std::pair<TablePtr, std::string> resource_of(Find find, const Scope& scope, const std::string& arn) {
  std::optional<PolicyResource> resource = parse_policy_resource(arn);
  if (!resource || resource->account != scope.account_id || (!scope.shared_db && resource->region != scope.region)) {
    throw ApiError::validation("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
  }
  TablePtr table = find(QualifiedName{std::string(scope.ns()), resource->table});
  if (!table) throw table_not_found(resource->table);
  if (!resource->stream_label.empty()) {
    const auto& stream = table->schema.stream;
    if (!stream || stream->label != resource->stream_label) {
      throw ApiError::resource_not_found("Requested resource not found: ResourceArn: " + arn + " not found");
    }
  }
  return {std::move(table), std::move(resource->stream_label)};
}

// The entry of a resource (the table, or its stream by label) among a schema's policies.
template <typename Policies>
auto find_entry(Policies& policies, const std::string& stream_label) {
  return std::find_if(policies.begin(), policies.end(),
                      [&](const ResourcePolicy& p) { return p.stream_label == stream_label; });
}

const ResourcePolicy* entry_of(const TableSchema& schema, const std::string& stream_label) {
  auto it = find_entry(schema.resource_policies, stream_label);
  return it == schema.resource_policies.end() ? nullptr : &*it;
}

bool in_force(const ResourcePolicy* entry) { return entry && !entry->document.empty(); }

// ExpectedRevisionId against the policy in force ("NO_POLICY": there must be none).
void check_expected_revision(const std::optional<std::string>& expected, const ResourcePolicy* entry,
                             const std::string& table) {
  if (!expected) return;
  const std::string head = std::string(kNotFound) + "Requested update for policy with revision id " + *expected;
  if (!in_force(entry)) {
    if (*expected == "NO_POLICY") return;
    throw ApiError(ErrorCode::PolicyNotFoundException, head + ", but table " + table + " has no associated policy.");
  }
  if (*expected != entry->revision_id) {
    throw ApiError(ErrorCode::PolicyNotFoundException, head + ", but the policy associated to target table " + table +
                                                           " has revision id " + entry->revision_id + ".");
  }
}

// Refuses a change within the window after the last one.
void check_window(const ResourcePolicy* entry, const std::string& table, std::int64_t now, std::int64_t window) {
  if (!entry || now - entry->changed_ms >= window) return;
  if (now - entry->changed_ms < std::min(kPendingMs, window)) {
    throw ApiError::resource_in_use(
        "Attempt to change a resource which is still in use: Table is pending previous resource-based policy update: " +
        table);
  }
  throw ApiError(ErrorCode::ThrottlingException, "Resource-based policy for table " + table +
                                                     " modified within the previous " + std::to_string(window) +
                                                     " milliseconds. Please try again after " +
                                                     iso8601_millis(entry->changed_ms + window) + "Z.");
}

// Records `next` as the resource's entry and saves the schema.
void save(WriteContext& ctx, const Table& table, ResourcePolicy next) {
  TableSchema schema = table.schema;
  auto it = find_entry(schema.resource_policies, next.stream_label);
  if (it == schema.resource_policies.end()) schema.resource_policies.push_back(std::move(next));
  else *it = std::move(next);
  replace_schema(ctx, table, std::move(schema));
}

// A RevisionId: the change's time in milliseconds, after the entry's last one.
std::string next_revision(const ResourcePolicy* entry, std::int64_t now) {
  std::int64_t ms = now;
  if (entry && !entry->revision_id.empty()) ms = std::max<std::int64_t>(ms, std::stoll(entry->revision_id) + 1);
  return std::to_string(ms);
}

}  // namespace

std::string put_resource_policy(WriteContext& ctx, const Scope& scope, const PutResourcePolicyRequest& request) {
  auto [table, stream] =
      resource_of([&](const QualifiedName& n) { return ctx.find_table(n.ns, n.name); }, scope, request.resource_arn);
  const std::string& name = table->schema.name;
  CanonicalPolicy policy = canonical_policy(request.policy);
  std::string& document = policy.document;
  const ResourcePolicy* entry = entry_of(table->schema, stream);
  check_expected_revision(request.expected_revision_id, entry, name);
  if (in_force(entry) && entry->document == document) return entry->revision_id;  // the same policy: no change
  if (!request.confirm_remove_self_resource_access && policy.denies_policy_updates) {
    throw ApiError(ErrorCode::AccessDeniedException,
                   "The new resource policy will not allow you to update the resource policy in the future.");
  }
  const std::int64_t now = ctx.store().now_ms();
  check_window(entry, name, now, ctx.store().resource_policy_cooldown_ms());
  ResourcePolicy next{stream, std::move(document), next_revision(entry, now), now};
  std::string revision = next.revision_id;
  save(ctx, *table, std::move(next));
  return revision;
}

PolicyAnswer get_resource_policy(Store& store, const Scope& scope, const std::string& resource_arn) {
  auto [table, stream] =
      resource_of([&](const QualifiedName& n) { return store.catalog().find(n.ns, n.name); }, scope, resource_arn);
  const ResourcePolicy* entry = entry_of(table->schema, stream);
  if (!in_force(entry)) throw ApiError(ErrorCode::PolicyNotFoundException, std::string(kNotFound) + resource_arn);
  return {policy_as_answered(entry->document), entry->revision_id};
}

std::optional<std::string> delete_resource_policy(WriteContext& ctx, const Scope& scope,
                                                  const ResourceArnRequest& request) {
  auto [table, stream] =
      resource_of([&](const QualifiedName& n) { return ctx.find_table(n.ns, n.name); }, scope, request.resource_arn);
  const std::string& name = table->schema.name;
  const ResourcePolicy* entry = entry_of(table->schema, stream);
  check_expected_revision(request.expected_revision_id, entry, name);
  if (!in_force(entry)) {
    // Nothing to delete: answered with the last deletion's RevisionId, if any.
    if (entry) return entry->revision_id;
    return std::nullopt;
  }
  const std::int64_t now = ctx.store().now_ms();
  check_window(entry, name, now, ctx.store().resource_policy_cooldown_ms());
  std::string deleted = entry->revision_id;
  save(ctx, *table, ResourcePolicy{stream, "", next_revision(entry, now), now});
  return deleted;
}

}  // namespace dynamod::ops
