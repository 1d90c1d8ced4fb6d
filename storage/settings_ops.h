#pragma once
// Tags: a table setting kept in its schema.

#include <string>
#include <vector>

#include "protocol/settings_requests.h"
#include "storage/scope.h"
#include "storage/write_queue.h"

namespace dynamod::ops {

void tag_resource(WriteContext& ctx, const Scope& scope, const TagResourceRequest& request);
void untag_resource(WriteContext& ctx, const Scope& scope, const UntagResourceRequest& request);
std::vector<Tag> list_tags(Store& store, const Scope& scope, const ListTagsRequest& request);

}  // namespace dynamod::ops
