// CreateTable's request: decoding, then validation into the table's schema.

#include <algorithm>
#include <set>

#include "protocol/index_key_schema.h"
#include "protocol/resource_policy.h"
#include "protocol/settings_requests.h"
#include "protocol/table_request_fields.h"
#include "protocol/table_requests.h"
#include "protocol/vector_index.h"

namespace dynamod {

CreateTableRequest decode_create_table(json::object body) {
  CreateTableRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") {
      r.table_name = read_optional_string(value);
    } else if (key == "KeySchema") {
      r.key_schema = read_optional_list<RawKeyElement>(value, decode_key_element);
    } else if (key == "AttributeDefinitions") {
      r.attribute_definitions = read_optional_list<RawAttributeDefinition>(value, decode_raw_attribute_definition);
    } else if (key == "BillingMode") {
      r.billing_mode = read_optional_string(value);
    } else if (key == "ProvisionedThroughput") {
      r.throughput = decode_raw_throughput(value);
    } else if (key == "GlobalSecondaryIndexes") {
      r.global_indexes = decode_raw_indexes(value);
    } else if (key == "LocalSecondaryIndexes") {
      r.local_indexes = decode_raw_indexes(value);
    } else if (key == "StreamSpecification") {
      r.stream = decode_raw_stream_specification(value);
    } else if (key == "Tags") {
      r.tags = read_optional_list<RawTag>(value, decode_raw_tag);
    } else if (key == "TableClass") {
      r.table_class = read_optional_string(value);
    } else if (key == "DeletionProtectionEnabled") {
      r.deletion_protection = read_optional_bool(value);
    } else if (key == "ResourcePolicy") {
      r.resource_policy = read_optional_string(value);
    } else if (key == "VectorIndexes") {
      r.vector_indexes = decode_raw_vector_indexes(value);
    } else if (key == "OnDemandThroughput") {
      r.on_demand = decode_raw_on_demand(value);
    } else if (key == "WarmThroughput") {
      r.warm = decode_raw_warm(value);
    } else if (key == "SSESpecification") {
      r.sse = decode_raw_sse(value);
    }
  }
  return r;
}

TableSchema validate_create_table(const CreateTableRequest& r) {
  const std::string& name = require_table_name(r.table_name);
  ConstraintErrors errors;
  check_table_name_constraints(name, errors, /*allow_arn=*/false);
  if (r.billing_mode && *r.billing_mode != "PROVISIONED" && *r.billing_mode != "PAY_PER_REQUEST") {
    errors.add(*r.billing_mode, "billingMode", "Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
  }
  if (r.throughput) check_throughput_constraints(*r.throughput, "provisionedThroughput", errors);
  check_key_schema_constraints(r.key_schema, "keySchema", errors);
  if (!r.attribute_definitions) {
    errors.add_null("attributeDefinitions", "Member must not be null");
  } else {
    for (std::size_t i = 0; i < r.attribute_definitions->size(); ++i) {
      const RawAttributeDefinition& a = (*r.attribute_definitions)[i];
      std::string member = "attributeDefinitions." + std::to_string(i + 1) + ".member.";
      if (!a.attribute_name) errors.add_null(member + "attributeName", "Member must not be null");
      if (!a.attribute_type) {
        errors.add_null(member + "attributeType", "Member must not be null");
      } else if (!parse_scalar_type(*a.attribute_type)) {
        errors.add(*a.attribute_type, member + "attributeType", "Member must satisfy enum value set: [B, N, S]");
      }
    }
  }
  check_index_constraints(r.local_indexes, "localSecondaryIndexes", errors);
  check_index_constraints(r.global_indexes, "globalSecondaryIndexes", errors);
  if (r.vector_indexes) check_vector_index_constraints(*r.vector_indexes, "vectorIndexes", errors);
  std::optional<std::vector<Tag>> tags;
  if (r.tags) tags = required_tags(*r.tags, "tags", errors);
  if (r.table_class && *r.table_class != "STANDARD" && *r.table_class != "STANDARD_INFREQUENT_ACCESS") {
    errors.add(*r.table_class, "tableClass",
               "Member must satisfy enum value set: [STANDARD, STANDARD_INFREQUENT_ACCESS]");
  }
  if (r.sse) check_sse_constraints(*r.sse, errors);
  if (r.warm) check_warm_constraints(*r.warm, "warmThroughput", errors);
  errors.throw_if_any();

  TableSchema schema;
  schema.name = name;
  schema.billing_mode =
      r.billing_mode && *r.billing_mode == "PAY_PER_REQUEST" ? BillingMode::PayPerRequest : BillingMode::Provisioned;
  if (schema.billing_mode == BillingMode::PayPerRequest && r.throughput) {
    throw ApiError::invalid_parameter(
        "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  }
  if (r.throughput) check_throughput_bounds(*r.throughput);
  if (schema.billing_mode == BillingMode::Provisioned) {
    if (!r.throughput) {
      throw ApiError::invalid_parameter(
          "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
    }
    schema.throughput.read_units = *r.throughput->read_units;
    schema.throughput.write_units = *r.throughput->write_units;
  }

  for (const auto& a : *r.attribute_definitions) {
    if (schema.find_attribute(*a.attribute_name) != nullptr) {
      throw ApiError::invalid_parameter("Cannot have two attributes with the same name: " + *a.attribute_name);
    }
    schema.attribute_definitions.push_back({*a.attribute_name, *parse_scalar_type(*a.attribute_type)});
  }
  schema.key = check_key_structure(*r.key_schema, schema.attribute_definitions, *r.attribute_definitions);

  if (r.global_indexes && r.global_indexes->empty()) {
    throw ApiError::invalid_parameter("List of GlobalSecondaryIndexes is empty");
  }
  if (r.local_indexes && r.local_indexes->empty()) {
    throw ApiError::invalid_parameter("List of LocalSecondaryIndexes is empty");
  }
  std::set<std::string> index_names;
  if (r.local_indexes) {
    if (!schema.key.sort) {
      throw ApiError::invalid_parameter(
          "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex");
    }
    if (r.local_indexes->size() > 5) {
      throw ApiError::invalid_parameter("Number of LocalSecondaryIndexes exceeds per-table limit of 5");
    }
    for (const auto& raw : *r.local_indexes) {
      IndexSchema index;
      index.name = *raw.index_name;
      if (!index_names.insert(index.name).second) {
        throw ApiError::invalid_parameter("Duplicate index name: " + index.name);
      }
      index.key = check_key_structure(*raw.key_schema, schema.attribute_definitions, *r.attribute_definitions);
      if (index.key.partition.name != schema.key.partition.name) {
        throw ApiError::invalid_parameter(
            "Index KeySchema does not have the same leading hash key as table KeySchema "
            "for index: " +
            index.name + ". index hash key: " + index.key.partition.name +
            ", table hash key: " + schema.key.partition.name);
      }
      if (!index.key.sort) {
        throw ApiError::invalid_parameter("Index KeySchema does not have a range key for index: " + index.name);
      }
      index.projection = check_projection(*raw.projection);
      schema.local_indexes.push_back(std::move(index));
    }
  }
  if (r.global_indexes) {
    if (r.global_indexes->size() > 20) {
      throw ApiError::invalid_parameter("GlobalSecondaryIndex count exceeds the per-table limit of 20");
    }
    for (const auto& raw : *r.global_indexes) {
      IndexSchema index;
      index.name = *raw.index_name;
      if (!index_names.insert(index.name).second) {
        throw ApiError::invalid_parameter("Duplicate index name: " + index.name);
      }
      index.key = check_global_index_key(*raw.key_schema, schema.attribute_definitions, *r.attribute_definitions);
      index.projection = check_projection(*raw.projection);
      if (schema.billing_mode == BillingMode::PayPerRequest) {
        if (raw.throughput) {
          throw ApiError::invalid_parameter("ProvisionedThroughput should not be specified for index: " + index.name +
                                            " when BillingMode is PAY_PER_REQUEST");
        }
      } else {
        if (!raw.throughput) {
          throw ApiError::invalid_parameter("ProvisionedThroughput must be specified for index: " + index.name);
        }
        check_throughput_bounds(*raw.throughput);
        Throughput t;
        t.read_units = *raw.throughput->read_units;
        t.write_units = *raw.throughput->write_units;
        index.throughput = t;
      }
      if (raw.on_demand)
        index.on_demand_maximum = checked_on_demand(*raw.on_demand, schema.billing_mode, index.name, {});
      if (raw.warm) index.warm = checked_index_warm(*raw.warm, {});
      schema.global_indexes.push_back(std::move(index));
    }
  }
  if (r.vector_indexes) add_vector_indexes(*r.vector_indexes, schema, index_names);
  std::size_t projected = 0;
  for (const auto* family : {&schema.local_indexes, &schema.global_indexes}) {
    for (const auto& index : *family) projected += index.projection.non_key_attributes.size();
  }
  if (projected > 100) {
    throw ApiError::limit_exceeded(
        "The number of projected attributes in all secondary indexes exceeds the limit of "
        "100");
  }

  // Every definition must be used by a key of the table or of an index.
  std::set<std::string> used{schema.key.partition.name};
  if (schema.key.sort) used.insert(schema.key.sort->name);
  for (const auto* family : {&schema.local_indexes, &schema.global_indexes}) {
    for (const auto& index : *family) {
      for (const KeyElement* k : index.key.partition_elements()) used.insert(k->name);
      for (const KeyElement* k : index.key.sort_elements()) used.insert(k->name);
    }
  }
  used.merge(vector_search_attributes(schema));
  if (used.size() != schema.attribute_definitions.size()) {
    if (schema.local_indexes.empty() && schema.global_indexes.empty() && schema.vector_indexes.empty()) {
      throw ApiError::invalid_parameter(
          "Number of attributes in KeySchema does not exactly match number of attributes defined in "
          "AttributeDefinitions");
    }
    std::set<std::string> defined;
    for (const auto& a : schema.attribute_definitions) defined.insert(a.name);
    throw ApiError::invalid_parameter("Some AttributeDefinitions are not used. AttributeDefinitions: " +
                                      render_list({defined.begin(), defined.end()}) +
                                      ", keys used: " + render_list({used.begin(), used.end()}));
  }

  if (r.stream) {
    bool enabled = r.stream->enabled.value_or(false);
    if (!r.stream->enabled) {
      throw ApiError::validation(
          "1 validation error detected: Value null at 'streamSpecification.streamEnabled' failed to satisfy "
          "constraint: Member must not be null");
    }
    if (!enabled && r.stream->view_type) {
      throw ApiError::invalid_parameter(
          "Table is being created with a stream disabled, UpdateViewType should not be specified");
    }
    if (enabled) {
      if (!r.stream->view_type) {
        throw ApiError::invalid_parameter("Table is being created with a stream enabled, UpdateViewType is required");
      }
      StreamSpec spec;
      spec.enabled = true;
      spec.view_type = parse_stream_view_type(*r.stream->view_type);
      schema.stream = spec;
    }
  }
  if (tags) {
    schema.tags = std::move(*tags);
    check_tags(schema.tags, "tags");
    check_tag_count(schema.tags.size());
  }
  if (r.table_class) {
    schema.table_class = *r.table_class == "STANDARD" ? TableClass::Standard : TableClass::StandardInfrequentAccess;
  }
  schema.deletion_protection = r.deletion_protection.value_or(false);
  if (r.on_demand) schema.on_demand_maximum = checked_on_demand(*r.on_demand, schema.billing_mode, "", {});
  // What the table starts with is at least its floor, and only grows from there.
  schema.warm = described_warm(r.warm ? std::optional(checked_index_warm(*r.warm, {})) : std::nullopt,
                               schema.billing_mode, &schema.throughput);
  if (r.sse) schema.sse_kms_key = checked_sse_key(*r.sse);
  // Its RevisionId is the table's creation time, given with the table's storage id.
  if (r.resource_policy) schema.resource_policies.push_back({"", canonical_policy(*r.resource_policy).document, "", 0});
  return schema;
}

}  // namespace dynamod
