#pragma once
// Table settings kept beside the schema: tags and point-in-time recovery.

#include <string>
#include <vector>

#include "protocol/settings_requests.h"
#include "storage/scope.h"
#include "storage/write_queue.h"

namespace dynamod::ops {

void tag_resource(WriteContext& ctx, const Scope& scope, const TagResourceRequest& request);
void untag_resource(WriteContext& ctx, const Scope& scope, const UntagResourceRequest& request);
std::vector<Tag> list_tags(Store& store, const Scope& scope, const ListTagsRequest& request);

PointInTimeRecovery describe_continuous_backups(Store& store, const Scope& scope, const std::string& table);
PointInTimeRecovery update_continuous_backups(WriteContext& ctx, const Scope& scope,
                                              const UpdateContinuousBackupsRequest& request, double now);

}  // namespace dynamod::ops
