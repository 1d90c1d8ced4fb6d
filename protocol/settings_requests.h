#pragma once
// Requests that change a table's settings other than its schema: tags and
// point-in-time recovery.

#include <optional>
#include <string>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/json_reader.h"
#include "protocol/table_schema.h"

namespace dynamod {

inline constexpr std::size_t kMaxTags = 50;

// A Tag as sent: Key and Value may be missing.
struct RawTag {
  std::optional<std::string> key;
  std::optional<std::string> value;
};
RawTag decode_raw_tag(json::value& v);

// The tags, each missing Key or Value a Coral "Member must not be null" under
// `path` ("tags.1.member.value"); the tags come back only if none is missing.
std::optional<std::vector<Tag>> required_tags(const std::vector<RawTag>& raw, const std::string& path,
                                              ConstraintErrors& errors);

struct TagResourceRequest {
  std::optional<std::string> resource_arn;
  std::optional<std::vector<Tag>> tags;
};

struct UntagResourceRequest {
  std::optional<std::string> resource_arn;
  std::optional<std::vector<std::string>> tag_keys;
};

struct ListTagsRequest {
  std::optional<std::string> resource_arn;
  std::optional<std::string> next_token;
};

struct UpdateContinuousBackupsRequest {
  std::optional<std::string> table_name;
  bool has_specification = false;
  std::optional<bool> enabled;
  std::optional<std::int64_t> recovery_period_days;
};

TagResourceRequest decode_tag_resource(json::object body);
UntagResourceRequest decode_untag_resource(json::object body);
ListTagsRequest decode_list_tags(json::object body);
UpdateContinuousBackupsRequest decode_update_continuous_backups(json::object body);

// Keys 1..128 and values 0..256 characters of letters, digits, white space
// and + - = . _ : / @; at most 50 per table (`existing` already there).
void check_tags(const std::vector<Tag>& tags, const char* path);
// At most kMaxTags on one table once a change is applied.
void check_tag_count(std::size_t count);

}  // namespace dynamod
