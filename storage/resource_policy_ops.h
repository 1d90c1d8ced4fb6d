#pragma once
// Resource-based policies of tables and their streams, kept in the table's
// schema (protocol/resource_policy.h says what the service does with them).
//
// A change of a resource's policy opens a window (--resource-policy-cooldown,
// the service's 15 seconds) in which another change of it is refused: in its
// first second with ResourceInUseException, then ThrottlingException naming
// when to try again, as probes of the service found in 2026.

#include <optional>
#include <string>

#include "protocol/resource_policy.h"
#include "storage/scope.h"
#include "storage/write_queue.h"

namespace dynamod::ops {

// The RevisionId of the policy in force after the Put.
std::string put_resource_policy(WriteContext& ctx, const Scope& scope, const PutResourcePolicyRequest& request);

struct PolicyAnswer {
  std::string policy;  // as GetResourcePolicy answers it
  std::string revision_id;
};
PolicyAnswer get_resource_policy(Store& store, const Scope& scope, const std::string& resource_arn);

// The RevisionId DeleteResourcePolicy answers: the deleted policy's, or after
// an earlier deletion that deletion's; none for a resource that never had one.
std::optional<std::string> delete_resource_policy(WriteContext& ctx, const Scope& scope,
                                                  const ResourceArnRequest& request);

}  // namespace dynamod::ops
