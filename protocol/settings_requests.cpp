#include "protocol/settings_requests.h"

#include "protocol/item_requests.h"
#include "protocol/utf8.h"

namespace dynamod {
namespace {

bool allowed_tag_text(std::string_view s) {
  for (unsigned char c : s) {
    if (c >= 0x80) continue;  // letters of other scripts
    if (std::isalnum(c) || std::isspace(c) ||
        std::string_view("+-=._:/@").find(static_cast<char>(c)) != std::string_view::npos) {
      continue;
    }
    return false;
  }
  return true;
}

std::optional<std::string> resource_arn_of(json::value& v) { return decode::optional_string(v); }

}  // namespace

void check_tags(const std::vector<Tag>& tags, const char* path) {
  ConstraintErrors errors;
  for (std::size_t i = 0; i < tags.size(); ++i) {
    const Tag& t = tags[i];
    std::string member = std::string(path) + "." + std::to_string(i + 1) + ".member.";
    constexpr std::string_view kPattern =
        "Member must satisfy regular expression pattern: ^([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)$";
    if (code_points(t.key) < 1) errors.add(t.key, member + "key", "Member must have length greater than or equal to 1");
    if (code_points(t.key) > 128)
      errors.add(t.key, member + "key", "Member must have length less than or equal to 128");
    if (!allowed_tag_text(t.key)) errors.add(t.key, member + "key", kPattern);
    if (code_points(t.value) > 256)
      errors.add(t.value, member + "value", "Member must have length less than or equal to 256");
    if (!allowed_tag_text(t.value)) errors.add(t.value, member + "value", kPattern);
  }
  errors.throw_if_any();
  for (const Tag& t : tags) {
    if (t.key.rfind("aws:", 0) == 0) {
      throw ApiError::invalid_parameter("Tag keys beginning with 'aws:' are reserved for AWS use: " + t.key);
    }
  }
}

RawTag decode_raw_tag(json::value& v) {
  RawTag tag;
  for (auto member : json::read_object(v)) {
    std::string_view key = member.unescaped_key().value();
    json::value m = member.value();
    if (json::is_null(m)) continue;
    if (key == "Key") {
      tag.key = std::string(json::read_string(m));
    } else if (key == "Value") {
      tag.value = std::string(json::read_string(m));
    }
  }
  return tag;
}

std::optional<std::vector<Tag>> required_tags(const std::vector<RawTag>& raw, const std::string& path,
                                              ConstraintErrors& errors) {
  std::vector<Tag> tags;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const std::string member = path + "." + std::to_string(i + 1) + ".member.";
    if (!raw[i].key) errors.add_null(member + "key", "Member must not be null");
    if (!raw[i].value) errors.add_null(member + "value", "Member must not be null");
    if (raw[i].key && raw[i].value) tags.push_back({*raw[i].key, *raw[i].value});
  }
  if (tags.size() != raw.size()) return std::nullopt;
  return tags;
}

void check_tag_count(std::size_t count) {
  if (count > kMaxTags)
    throw ApiError::invalid_parameter("The number of tags on the resource would exceed the limit of 50");
}

TagResourceRequest decode_tag_resource(json::object body) {
  TagResourceRequest r;
  ConstraintErrors errors;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "ResourceArn") {
      r.resource_arn = resource_arn_of(value);
    } else if (key == "Tags") {
      if (json::is_null(value)) continue;
      std::vector<RawTag> raw;
      for (auto element : json::read_array(value)) {
        json::value t = element.value();
        raw.push_back(decode_raw_tag(t));
      }
      // (A tag missing its Key or Value is named; the request is refused below.)
      r.tags = required_tags(raw, "tags", errors).value_or(std::vector<Tag>(raw.size()));
    }
  }
  if (!r.resource_arn) throw ApiError::validation("Invalid TableArn");
  if (!r.tags) errors.add_null("tags", "Member must not be null");
  errors.throw_if_any();
  if (r.tags->empty()) throw ApiError::validation("Atleast one Tag needs to be provided as Input.");
  check_tags(*r.tags, "tags");
  return r;
}

UntagResourceRequest decode_untag_resource(json::object body) {
  UntagResourceRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "ResourceArn") {
      r.resource_arn = resource_arn_of(value);
    } else if (key == "TagKeys") {
      if (json::is_null(value)) continue;
      std::vector<std::string> keys;
      for (auto element : json::read_array(value)) {
        json::value k = element.value();
        keys.emplace_back(json::read_string(k));
      }
      r.tag_keys = std::move(keys);
    }
  }
  if (!r.resource_arn) throw ApiError::validation("Invalid TableArn");
  if (!r.tag_keys) {
    throw ApiError::validation(
        "1 validation error detected: Value null at 'tagKeys' failed to satisfy constraint: Member must not be null");
  }
  if (r.tag_keys->empty()) throw ApiError::validation("Atleast one Tag Key needs to be provided as Input.");
  return r;
}

ListTagsRequest decode_list_tags(json::object body) {
  ListTagsRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "ResourceArn") r.resource_arn = resource_arn_of(value);
    else if (key == "NextToken") r.next_token = decode::optional_string(value);
  }
  if (!r.resource_arn) throw ApiError::validation("Invalid TableArn");
  return r;
}

UpdateContinuousBackupsRequest decode_update_continuous_backups(json::object body) {
  UpdateContinuousBackupsRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") {
      r.table_name = decode::optional_string(value);
    } else if (key == "PointInTimeRecoverySpecification") {
      if (json::is_null(value)) continue;
      r.has_specification = true;
      for (auto member : json::read_object(value)) {
        std::string_view mkey = member.unescaped_key().value();
        json::value m = member.value();
        if (json::is_null(m)) continue;
        if (mkey == "PointInTimeRecoveryEnabled") r.enabled = json::read_bool(m);
        else if (mkey == "RecoveryPeriodInDays") r.recovery_period_days = json::read_integer(m);
      }
    }
  }
  ConstraintErrors errors;
  if (!r.table_name) errors.add_null("tableName", "Member must not be null");
  if (!r.has_specification) {
    errors.add_null("pointInTimeRecoverySpecification", "Member must not be null");
  } else {
    if (!r.enabled) {
      errors.add_null("pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled", "Member must not be null");
    }
    if (r.recovery_period_days && *r.recovery_period_days < 1) {
      errors.add(std::to_string(*r.recovery_period_days), "pointInTimeRecoverySpecification.recoveryPeriodInDays",
                 "Member must have value greater than or equal to 1");
    }
    if (r.recovery_period_days && *r.recovery_period_days > 35) {
      errors.add(std::to_string(*r.recovery_period_days), "pointInTimeRecoverySpecification.recoveryPeriodInDays",
                 "Member must have value less than or equal to 35");
    }
  }
  errors.throw_if_any();
  return r;
}

}  // namespace dynamod
