// Handlers of the operations on a table's settings and the account: Time to
// Live, Contributor Insights, resource-based policies, tags, DescribeLimits and
// DescribeEndpoints.

#include <array>

#include "protocol/contributor_insights.h"
#include "protocol/json_writer.h"
#include "protocol/resource_policy.h"
#include "protocol/settings_requests.h"
#include "protocol/table_requests.h"
#include "protocol/ttl_requests.h"
#include "server/async_write.h"
#include "server/operations.h"
#include "storage/contributor_insights_ops.h"
#include "storage/resource_policy_ops.h"
#include "storage/settings_ops.h"
#include "storage/table_ops.h"

namespace dynamod {
namespace {

using boost::asio::awaitable;

// ---------------------------------------------------------------- Time to Live

awaitable<Reply> update_time_to_live(OperationContext& ctx, json::object body) {
  UpdateTimeToLiveRequest request = decode_update_time_to_live(body);
  ctx.table_name = *request.table_name;
  Scope scope = ctx.scope;
  auto job = write_job(
      [scope, request = std::move(request)](WriteContext& w) { return ops::update_time_to_live(w, scope, request); });
  TimeToLive ttl = co_await async_write(ctx.writer, std::move(job));
  // The answer echoes the specification.
  JsonWriter out;
  out.begin_object();
  out.key("TimeToLiveSpecification");
  out.begin_object();
  out.key("Enabled");
  out.boolean(ttl.enabled);
  out.key("AttributeName");
  out.string(ttl.attribute);
  out.end_object();
  out.end_object();
  co_return out.take();
}

awaitable<Reply> describe_time_to_live(OperationContext& ctx, json::object body) {
  const std::string name = checked_table_name(decode_table_name_request(body));
  ctx.table_name = name;
  std::optional<TimeToLive> ttl = ops::describe_time_to_live(ctx.store, ctx.scope, name);
  JsonWriter out;
  out.begin_object();
  out.key("TimeToLiveDescription");
  out.begin_object();
  out.key("TimeToLiveStatus");
  // A disabled setting keeps no attribute name in the answer.
  if (ttl && ttl->enabled) {
    out.string("ENABLED");
    out.key("AttributeName");
    out.string(ttl->attribute);
  } else {
    out.string("DISABLED");
  }
  out.end_object();
  out.end_object();
  co_return out.take();
}

// ---------------------------------------------------------------- Contributor Insights

awaitable<Reply> update_contributor_insights(OperationContext& ctx, json::object body) {
  UpdateContributorInsightsRequest request = decode_update_contributor_insights(body);
  ctx.table_name = request.table_name;
  Scope scope = ctx.scope;
  auto job = write_job([scope, request = std::move(request)](WriteContext& w) {
    return ops::update_contributor_insights(w, scope, request);
  });
  ops::ContributorInsightsChange change = co_await async_write(ctx.writer, std::move(job));
  co_return encode_update_contributor_insights(change.entry, change.update);
}

awaitable<Reply> describe_contributor_insights(OperationContext& ctx, json::object body) {
  DescribeContributorInsightsRequest request = decode_describe_contributor_insights(body);
  ctx.table_name = request.table_name;
  co_return encode_describe_contributor_insights(ops::describe_contributor_insights(ctx.store, ctx.scope, request));
}

awaitable<Reply> list_contributor_insights(OperationContext& ctx, json::object body) {
  ListContributorInsightsRequest request = decode_list_contributor_insights(body);
  if (request.table_name) ctx.table_name = *request.table_name;
  ops::ContributorInsightsPage page = ops::list_contributor_insights(ctx.store, ctx.scope, request);
  co_return encode_list_contributor_insights(page.entries, page.next_token);
}

// ---------------------------------------------------------------- resource-based policies

std::string revision_answer(const std::optional<std::string>& revision_id) {
  JsonWriter out;
  out.begin_object();
  if (revision_id) {
    out.key("RevisionId");
    out.string(*revision_id);
  }
  out.end_object();
  return out.take();
}

awaitable<Reply> put_resource_policy(OperationContext& ctx, json::object body) {
  PutResourcePolicyRequest request = decode_put_resource_policy(body);
  Scope scope = ctx.scope;
  auto job = write_job(
      [scope, request = std::move(request)](WriteContext& w) { return ops::put_resource_policy(w, scope, request); });
  std::string revision = co_await async_write(ctx.writer, std::move(job));
  co_return revision_answer(revision);
}

awaitable<Reply> get_resource_policy(OperationContext& ctx, json::object body) {
  ResourceArnRequest request = decode_get_resource_policy(body);
  ops::PolicyAnswer answer = ops::get_resource_policy(ctx.store, ctx.scope, request.resource_arn);
  JsonWriter out;
  out.begin_object();
  out.key("Policy");
  out.string(answer.policy);
  out.key("RevisionId");
  out.string(answer.revision_id);
  out.end_object();
  co_return out.take();
}

awaitable<Reply> delete_resource_policy(OperationContext& ctx, json::object body) {
  ResourceArnRequest request = decode_delete_resource_policy(body);
  Scope scope = ctx.scope;
  auto job = write_job([scope, request = std::move(request)](WriteContext& w) {
    return ops::delete_resource_policy(w, scope, request);
  });
  std::optional<std::string> revision = co_await async_write(ctx.writer, std::move(job));
  co_return revision_answer(revision);
}

// ---------------------------------------------------------------- tags

awaitable<Reply> tag_resource(OperationContext& ctx, json::object body) {
  TagResourceRequest request = decode_tag_resource(body);
  Scope scope = ctx.scope;
  auto job = write_job([scope, request = std::move(request)](WriteContext& w) {
    ops::tag_resource(w, scope, request);
    return true;
  });
  co_await async_write(ctx.writer, std::move(job));
  co_return std::string();  // the service answers with an empty body
}

awaitable<Reply> untag_resource(OperationContext& ctx, json::object body) {
  UntagResourceRequest request = decode_untag_resource(body);
  Scope scope = ctx.scope;
  auto job = write_job([scope, request = std::move(request)](WriteContext& w) {
    ops::untag_resource(w, scope, request);
    return true;
  });
  co_await async_write(ctx.writer, std::move(job));
  co_return std::string();
}

awaitable<Reply> list_tags_of_resource(OperationContext& ctx, json::object body) {
  std::vector<Tag> tags = ops::list_tags(ctx.store, ctx.scope, decode_list_tags(body));
  JsonWriter out;
  out.begin_object();
  out.key("Tags");
  out.begin_array();
  for (const Tag& tag : tags) {
    out.begin_object();
    out.key("Key");
    out.string(tag.key);
    out.key("Value");
    out.string(tag.value);
    out.end_object();
  }
  out.end_array();
  out.end_object();
  co_return out.take();
}

// ---------------------------------------------------------------- account

awaitable<Reply> describe_limits(OperationContext&, json::object) {
  // The service's default account and table quotas.
  co_return std::string(R"({"AccountMaxReadCapacityUnits":80000,"AccountMaxWriteCapacityUnits":80000,)"
                        R"("TableMaxReadCapacityUnits":40000,"TableMaxWriteCapacityUnits":40000})");
}

awaitable<Reply> describe_endpoints(OperationContext& ctx, json::object) {
  // The address the client reached us at, so that it can be used again
  // (on the service this is the regional endpoint's host name).
  JsonWriter out;
  out.begin_object();
  out.key("Endpoints");
  out.begin_array();
  out.begin_object();
  out.key("Address");
  out.string(ctx.host);
  out.key("CachePeriodInMinutes");
  out.integer(1440);
  out.end_object();
  out.end_array();
  out.end_object();
  co_return out.take();
}

constexpr std::array<NamedOperation, 13> kSettingsOperations{{
    {"DeleteResourcePolicy", delete_resource_policy},
    {"DescribeContributorInsights", describe_contributor_insights},
    {"DescribeEndpoints", describe_endpoints},
    {"DescribeLimits", describe_limits},
    {"DescribeTimeToLive", describe_time_to_live},
    {"GetResourcePolicy", get_resource_policy},
    {"ListContributorInsights", list_contributor_insights},
    {"ListTagsOfResource", list_tags_of_resource},
    {"PutResourcePolicy", put_resource_policy},
    {"TagResource", tag_resource},
    {"UntagResource", untag_resource},
    {"UpdateContributorInsights", update_contributor_insights},
    {"UpdateTimeToLive", update_time_to_live},
}};

}  // namespace

std::span<const NamedOperation> settings_operations() { return kSettingsOperations; }

}  // namespace dynamod
