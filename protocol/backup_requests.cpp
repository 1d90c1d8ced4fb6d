#include "protocol/backup_requests.h"

#include <set>

#include "protocol/api_error.h"
#include "protocol/backups.h"
#include "protocol/item_requests.h"
#include "protocol/vector_index.h"

namespace dynamod {
namespace {

constexpr std::string_view kNotNull = "Member must not be null";

// A timestamp member: epoch seconds, as the SDKs send them.
std::optional<double> optional_timestamp(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  double seconds = 0;
  if (v.get_double().get(seconds) != simdjson::SUCCESS) throw json::type_mismatch(v, "Date");
  return seconds;
}

void check_backup_arn(const std::string& arn, const std::string& path, ConstraintErrors& errors) {
  if (arn.size() < 37) errors.add(arn, path, "Member must have length greater than or equal to 37");
  if (arn.size() > 1024) errors.add(arn, path, "Member must have length less than or equal to 1024");
}

// After the length checks, a BackupArn that names a backup must have a
// backup ARN's form. The service answers "BackupArn is not valid" for a
// backup ARN of another partition or service, and "Invalid Backup ARN" for
// anything else (a table's ARN, a string that is no ARN).
void require_backup_arn_form(std::string_view arn) {
  if (parse_backup_arn(arn)) return;
  const bool backup_shaped = arn.rfind("arn:", 0) == 0 && arn.find("/backup/") != std::string_view::npos;
  throw ApiError::validation(backup_shaped ? "BackupArn is not valid" : "Invalid Backup ARN");
}

std::vector<RawKeyElement> raw_key_schema(const KeyDef& key) {
  std::vector<RawKeyElement> out;
  for (const KeyElement* k : key.partition_elements()) out.push_back({k->name, "HASH"});
  for (const KeyElement* k : key.sort_elements()) out.push_back({k->name, "RANGE"});
  return out;
}

RawThroughput raw_throughput(const Throughput& t) { return {t.read_units, t.write_units}; }

RawIndex raw_index(const IndexSchema& index, bool provisioned) {
  RawIndex raw;
  raw.index_name = index.name;
  raw.key_schema = raw_key_schema(index.key);
  RawProjection projection;
  projection.projection_type = std::string(projection_type_name(index.projection.type));
  if (index.projection.type == ProjectionType::Include)
    projection.non_key_attributes = index.projection.non_key_attributes;
  raw.projection = std::move(projection);
  if (provisioned && index.throughput) raw.throughput = raw_throughput(*index.throughput);
  return raw;
}

std::vector<RawIndex> raw_indexes(const std::vector<IndexSchema>& indexes, bool provisioned) {
  std::vector<RawIndex> out;
  for (const auto& index : indexes) out.push_back(raw_index(index, provisioned));
  return out;
}

// An override member of either restore; false for any other member.
bool read_override(std::string_view key, json::value& value, RestoreOverrides& o) {
  if (key == "BillingModeOverride") o.billing_mode = decode::optional_string(value);
  else if (key == "GlobalSecondaryIndexOverride") o.global_indexes = decode_raw_indexes(value);
  else if (key == "LocalSecondaryIndexOverride") o.local_indexes = decode_raw_indexes(value);
  else if (key == "ProvisionedThroughputOverride") o.throughput = decode_raw_throughput(value);
  else if (key == "VectorIndexOverride") o.vector_indexes = decode_raw_vector_indexes(value);
  else return false;
  return true;
}

void check_overrides(const RestoreOverrides& o, ConstraintErrors& errors) {
  if (o.billing_mode && *o.billing_mode != "PROVISIONED" && *o.billing_mode != "PAY_PER_REQUEST") {
    errors.add(*o.billing_mode, "billingModeOverride",
               "Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
  }
  check_index_constraints(o.global_indexes, "globalSecondaryIndexOverride", errors);
  check_index_constraints(o.local_indexes, "localSecondaryIndexOverride", errors);
  if (o.throughput) check_throughput_constraints(*o.throughput, "provisionedThroughputOverride", errors);
  if (o.vector_indexes) check_vector_index_constraints(*o.vector_indexes, "vectorIndexOverride", errors);
}

void check_target(const std::optional<std::string>& target, ConstraintErrors& errors) {
  if (!target) errors.add_null("targetTableName", kNotNull);
  else check_name(*target, "targetTableName", errors);
}

}  // namespace

CreateBackupRequest decode_create_backup(json::object body) {
  std::optional<std::string> table_name;
  std::optional<std::string> backup_name;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") table_name = decode::optional_string(value);
    else if (key == "BackupName") backup_name = decode::optional_string(value);
  }
  ConstraintErrors errors;
  if (!table_name) errors.add_null("tableName", kNotNull);
  else check_table_name_constraints(*table_name, errors);
  if (!backup_name) errors.add_null("backupName", kNotNull);
  else check_name(*backup_name, "backupName", errors);
  errors.throw_if_any();
  return {std::move(*table_name), std::move(*backup_name)};
}

BackupArnRequest decode_backup_arn_request(json::object body) {
  std::optional<std::string> arn;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "BackupArn") arn = decode::optional_string(value);
  }
  ConstraintErrors errors;
  if (!arn) errors.add_null("backupArn", kNotNull);
  else check_backup_arn(*arn, "backupArn", errors);
  errors.throw_if_any();
  require_backup_arn_form(*arn);
  return {std::move(*arn)};
}

ListBackupsRequest decode_list_backups(json::object body) {
  ListBackupsRequest r;
  std::optional<std::int64_t> limit;
  std::optional<std::string> backup_type;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") {
      r.table_name = decode::optional_string(value);
    } else if (key == "Limit") {
      if (!json::is_null(value)) limit = json::read_integer(value);
    } else if (key == "TimeRangeLowerBound") {
      r.created_from = optional_timestamp(value);
    } else if (key == "TimeRangeUpperBound") {
      r.created_before = optional_timestamp(value);
    } else if (key == "ExclusiveStartBackupArn") {
      r.exclusive_start_backup_arn = decode::optional_string(value);
    } else if (key == "BackupType") {
      backup_type = decode::optional_string(value);
    }
  }
  // Checked after the loop, in the order of the API's members, whatever the JSON's.
  ConstraintErrors errors;
  if (r.table_name) check_table_name_constraints(*r.table_name, errors);
  if (limit && *limit < 1)
    errors.add(std::to_string(*limit), "limit", "Member must have value greater than or equal to 1");
  if (limit && *limit > 100)
    errors.add(std::to_string(*limit), "limit", "Member must have value less than or equal to 100");
  if (r.exclusive_start_backup_arn) check_backup_arn(*r.exclusive_start_backup_arn, "exclusiveStartBackupArn", errors);
  if (backup_type && *backup_type != "USER" && *backup_type != "SYSTEM" && *backup_type != "AWS_BACKUP" &&
      *backup_type != "ALL") {
    errors.add(*backup_type, "backupType", "Member must satisfy enum value set: [USER, SYSTEM, AWS_BACKUP, ALL]");
  }
  errors.throw_if_any();
  if (r.created_from && r.created_before && *r.created_from > *r.created_before) {
    throw ApiError::validation("Time range lower bound must be less than or equal to upper bound");
  }
  if (limit) r.limit = *limit;
  if (backup_type) r.backup_type = *backup_type;
  return r;
}

RestoreTableFromBackupRequest decode_restore_table_from_backup(json::object body) {
  std::optional<std::string> target;
  std::optional<std::string> arn;
  RestoreTableFromBackupRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TargetTableName") target = decode::optional_string(value);
    else if (key == "BackupArn") arn = decode::optional_string(value);
    else read_override(key, value, r.overrides);
  }
  ConstraintErrors errors;
  check_target(target, errors);
  if (!arn) errors.add_null("backupArn", kNotNull);
  else check_backup_arn(*arn, "backupArn", errors);
  check_overrides(r.overrides, errors);
  errors.throw_if_any();
  require_backup_arn_form(*arn);
  r.target_table_name = std::move(*target);
  r.backup_arn = std::move(*arn);
  return r;
}

RestoreTableToPointInTimeRequest decode_restore_table_to_point_in_time(json::object body) {
  std::optional<std::string> source_arn;
  std::optional<std::string> source_name;
  std::optional<std::string> target;
  std::optional<bool> use_latest;
  RestoreTableToPointInTimeRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "SourceTableArn") source_arn = decode::optional_string(value);
    else if (key == "SourceTableName") source_name = decode::optional_string(value);
    else if (key == "TargetTableName") target = decode::optional_string(value);
    else if (key == "UseLatestRestorableTime")
      use_latest = json::is_null(value) ? std::nullopt : std::optional(json::read_bool(value));
    else if (key == "RestoreDateTime") r.restore_time = optional_timestamp(value);
    else read_override(key, value, r.overrides);
  }
  ConstraintErrors errors;
  if (source_arn && source_arn->empty()) {
    errors.add(*source_arn, "sourceTableArn", "Member must have length greater than or equal to 1");
  }
  if (source_arn && source_arn->size() > 1024) {
    errors.add(*source_arn, "sourceTableArn", "Member must have length less than or equal to 1024");
  }
  if (source_name) check_name(*source_name, "sourceTableName", errors);
  check_target(target, errors);
  check_overrides(r.overrides, errors);
  errors.throw_if_any();
  // The service's texts for these are not documented; these are dynamod's.
  if (source_arn && source_name) {
    throw ApiError::validation("Only one of SourceTableArn or SourceTableName can be specified");
  }
  if (!source_arn && !source_name) throw ApiError::validation("Either SourceTableArn or SourceTableName is required");
  r.use_latest_restorable_time = use_latest.value_or(false);
  if (r.use_latest_restorable_time && r.restore_time) {
    throw ApiError::validation("Only one of RestoreDateTime or UseLatestRestorableTime can be specified");
  }
  if (!r.use_latest_restorable_time && !r.restore_time) {
    throw ApiError::validation("Either RestoreDateTime or UseLatestRestorableTime must be specified");
  }
  r.source_table = source_arn ? std::move(source_arn) : std::move(source_name);
  r.target_table_name = std::move(*target);
  return r;
}

TableSchema restored_schema(const TableSchema& source, const std::string& target_table_name,
                            const RestoreOverrides& request) {
  CreateTableRequest create;
  create.table_name = target_table_name;
  create.key_schema = raw_key_schema(source.key);
  create.billing_mode = request.billing_mode.value_or(std::string(billing_mode_name(source.billing_mode)));
  const bool provisioned = *create.billing_mode == "PROVISIONED";
  if (request.throughput) {
    create.throughput = request.throughput;
  } else if (provisioned && source.billing_mode == BillingMode::Provisioned) {
    create.throughput = raw_throughput(source.throughput);
  }
  create.global_indexes =
      request.global_indexes ? *request.global_indexes : raw_indexes(source.global_indexes, provisioned);
  create.local_indexes =
      request.local_indexes ? *request.local_indexes : raw_indexes(source.local_indexes, provisioned);
  if (create.global_indexes->empty()) create.global_indexes.reset();
  if (create.local_indexes->empty()) create.local_indexes.reset();
  // The definitions the restored keys use (an index left out takes its own along).
  std::set<std::string> used{source.key.partition.name};
  if (source.key.sort) used.insert(source.key.sort->name);
  for (const auto* family : {&create.global_indexes, &create.local_indexes}) {
    if (!*family) continue;
    for (const RawIndex& index : **family) {
      if (!index.key_schema) continue;
      for (const RawKeyElement& element : *index.key_schema) {
        if (element.attribute_name) used.insert(*element.attribute_name);
      }
    }
  }
  create.attribute_definitions.emplace();
  for (const AttributeDefinition& a : source.attribute_definitions) {
    if (used.contains(a.name)) create.attribute_definitions->push_back({a.name, std::string(scalar_type_name(a.type))});
  }
  if (source.table_class) create.table_class = std::string(table_class_name(*source.table_class));
  TableSchema restored = validate_create_table(create);
  keep_vector_indexes(source, restored, request.vector_indexes);
  // The source's encryption key and on-demand maximums go along (an index by its name).
  restored.sse_kms_key = source.sse_kms_key;
  if (restored.billing_mode == BillingMode::PayPerRequest) {
    if (!restored.on_demand_maximum) restored.on_demand_maximum = source.on_demand_maximum;
    for (IndexSchema& index : restored.global_indexes) {
      const IndexSchema* was = source.find_index(index.name);
      if (!index.on_demand_maximum && was != nullptr) index.on_demand_maximum = was->on_demand_maximum;
    }
  }
  return restored;
}

}  // namespace dynamod
