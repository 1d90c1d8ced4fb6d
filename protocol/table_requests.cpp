#include "protocol/table_requests.h"

#include "protocol/resource_policy.h"
#include "protocol/settings_requests.h"
#include "protocol/vector_index.h"

#include <algorithm>
#include <set>

namespace dynamod {
namespace {

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";
constexpr std::string_view kNamePattern = "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+";
constexpr std::int64_t kMaxUnits = 1000000000000;

std::optional<std::string> read_optional_string(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  return std::string(json::read_string(v));
}

std::optional<std::int64_t> read_optional_integer(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  return json::read_integer(v);
}

std::optional<bool> read_optional_bool(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  return json::read_bool(v);
}

template <typename T, typename Decode>
std::optional<std::vector<T>> read_optional_list(json::value& v, Decode decode) {
  if (json::is_null(v)) return std::nullopt;
  std::vector<T> out;
  for (auto element : json::read_array(v)) {
    json::value e = element.value();
    out.push_back(decode(e));
  }
  return out;
}

std::vector<std::string> read_string_list(json::value& v) {
  std::vector<std::string> out;
  for (auto element : json::read_array(v)) {
    json::value e = element.value();
    out.emplace_back(json::read_string(e));
  }
  return out;
}

RawKeyElement decode_key_element(json::value& v) {
  RawKeyElement k;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "AttributeName") k.attribute_name = read_optional_string(value);
    else if (key == "KeyType") k.key_type = read_optional_string(value);
  }
  return k;
}

}  // namespace

RawAttributeDefinition decode_raw_attribute_definition(json::value& v) {
  RawAttributeDefinition a;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "AttributeName") a.attribute_name = read_optional_string(value);
    else if (key == "AttributeType") a.attribute_type = read_optional_string(value);
  }
  return a;
}

std::optional<RawThroughput> decode_raw_throughput(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  RawThroughput t;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "ReadCapacityUnits") t.read_units = read_optional_integer(value);
    else if (key == "WriteCapacityUnits") t.write_units = read_optional_integer(value);
  }
  return t;
}

std::optional<std::vector<RawIndex>> decode_raw_indexes(json::value& v) {
  return read_optional_list<RawIndex>(v, decode_raw_index);
}

RawIndex decode_raw_index(json::value& v) {
  RawIndex index;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "IndexName") {
      index.index_name = read_optional_string(value);
    } else if (key == "KeySchema") {
      index.key_schema = read_optional_list<RawKeyElement>(value, decode_key_element);
    } else if (key == "Projection") {
      if (json::is_null(value)) continue;
      RawProjection p;
      for (auto pf : json::read_object(value)) {
        std::string_view pkey = pf.unescaped_key().value();
        json::value pv = pf.value();
        if (pkey == "ProjectionType") p.projection_type = read_optional_string(pv);
        else if (pkey == "NonKeyAttributes" && !json::is_null(pv)) p.non_key_attributes = read_string_list(pv);
      }
      index.projection = std::move(p);
    } else if (key == "ProvisionedThroughput") {
      index.throughput = decode_raw_throughput(value);
    }
  }
  return index;
}

namespace {

// Java-style rendering of a KeySchema list, as the service echoes it.
std::string render_key_schema(const std::vector<RawKeyElement>& elements) {
  std::string out = "[";
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (i > 0) out += ", ";
    out += "KeySchemaElement(attributeName=" + elements[i].attribute_name.value_or("null") +
           ", keyType=" + elements[i].key_type.value_or("null") + ")";
  }
  return out + "]";
}

std::string render_list(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += values[i];
  }
  return out + "]";
}

bool matches_name_pattern(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
  });
}

void check_key_schema_constraints(const std::optional<std::vector<RawKeyElement>>& key_schema,
                                  const std::string& path, ConstraintErrors& errors) {
  if (!key_schema) {
    errors.add_null(path, "Member must not be null");
    return;
  }
  if (key_schema->empty()) errors.add("[]", path, "Member must have length greater than or equal to 1");
  if (key_schema->size() > 2) {
    errors.add(render_key_schema(*key_schema), path, "Member must have length less than or equal to 2");
  }
  for (std::size_t i = 0; i < key_schema->size(); ++i) {
    const RawKeyElement& k = (*key_schema)[i];
    std::string member = path + "." + std::to_string(i + 1) + ".member.";
    if (!k.attribute_name) {
      errors.add_null(member + "attributeName", "Member must not be null");
    } else if (k.attribute_name->size() > 255) {
      errors.add(*k.attribute_name, member + "attributeName", "Member must have length less than or equal to 255");
    } else if (k.attribute_name->empty()) {
      errors.add(*k.attribute_name, member + "attributeName", "Member must have length greater than or equal to 1");
    }
    if (!k.key_type) {
      errors.add_null(member + "keyType", "Member must not be null");
    } else if (*k.key_type != "HASH" && *k.key_type != "RANGE") {
      errors.add(*k.key_type, member + "keyType", "Member must satisfy enum value set: [HASH, RANGE]");
    }
  }
}

}  // namespace

void check_name(const std::string& name, const std::string& path, ConstraintErrors& errors) {
  if (!matches_name_pattern(name)) errors.add(name, path, kNamePattern);
  if (name.size() < 3) errors.add(name, path, "Member must have length greater than or equal to 3");
  if (name.size() > 255) errors.add(name, path, "Member must have length less than or equal to 255");
}

void check_throughput_constraints(const RawThroughput& t, const std::string& path, ConstraintErrors& errors) {
  // The service lists writeCapacityUnits before readCapacityUnits.
  if (!t.write_units) {
    errors.add_null(path + ".writeCapacityUnits", "Member must not be null");
  } else if (*t.write_units < 1) {
    errors.add(std::to_string(*t.write_units), path + ".writeCapacityUnits",
               "Member must have value greater than or equal to 1");
  }
  if (!t.read_units) {
    errors.add_null(path + ".readCapacityUnits", "Member must not be null");
  } else if (*t.read_units < 1) {
    errors.add(std::to_string(*t.read_units), path + ".readCapacityUnits",
               "Member must have value greater than or equal to 1");
  }
}

void check_throughput_bounds(const RawThroughput& t) {
  if (*t.read_units > kMaxUnits) {
    throw ApiError::validation("Given value " + std::to_string(*t.read_units) + " for ReadCapacityUnits is out of bounds");
  }
  if (*t.write_units > kMaxUnits) {
    throw ApiError::validation("Given value " + std::to_string(*t.write_units) +
                               " for WriteCapacityUnits is out of bounds");
  }
}

void check_index_constraints(const std::optional<std::vector<RawIndex>>& indexes, const std::string& family,
                             ConstraintErrors& errors) {
  if (!indexes) return;
  for (std::size_t i = 0; i < indexes->size(); ++i) {
    check_one_index_constraints((*indexes)[i], family + "." + std::to_string(i + 1) + ".member.", errors);
  }
}

void check_one_index_constraints(const RawIndex& index, const std::string& member, ConstraintErrors& errors) {
  check_key_schema_constraints(index.key_schema, member + "keySchema", errors);
  if (!index.projection) {
    errors.add_null(member + "projection", "Member must not be null");
  } else {
    const RawProjection& p = *index.projection;
    if (p.projection_type && *p.projection_type != "ALL" && *p.projection_type != "INCLUDE" &&
        *p.projection_type != "KEYS_ONLY") {
      errors.add(*p.projection_type, member + "projection.projectionType",
                 "Member must satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]");
    }
    if (p.non_key_attributes && p.non_key_attributes->empty()) {
      errors.add("[]", member + "projection.nonKeyAttributes", "Member must have length greater than or equal to 1");
    }
    if (p.non_key_attributes && p.non_key_attributes->size() > 20) {
      errors.add(render_list(*p.non_key_attributes), member + "projection.nonKeyAttributes",
                 "Member must have length less than or equal to 20");
    }
  }
  if (!index.index_name) {
    errors.add_null(member + "indexName", "Member must not be null");
  } else {
    check_name(*index.index_name, member + "indexName", errors);
  }
  if (index.throughput) check_throughput_constraints(*index.throughput, member + "provisionedThroughput", errors);
}

KeyDef check_key_structure(const std::vector<RawKeyElement>& key_schema,
                           const std::vector<AttributeDefinition>& definitions,
                           const std::vector<RawAttributeDefinition>& raw_definitions) {
  std::vector<std::string> undefined;
  for (const auto& k : key_schema) {
    bool defined = std::any_of(definitions.begin(), definitions.end(),
                               [&](const AttributeDefinition& d) { return d.name == *k.attribute_name; });
    if (!defined) undefined.push_back(*k.attribute_name);
  }
  if (key_schema.size() == 2 && (!undefined.empty() || definitions.size() < 2)) {
    throw ApiError::validation("Invalid KeySchema: Some index key attribute have no definition");
  }
  if (!undefined.empty()) {
    std::vector<std::string> defined_names;
    for (const auto& d : raw_definitions) defined_names.push_back(d.attribute_name.value_or("null"));
    std::vector<std::string> key_names;
    for (const auto& k : key_schema) key_names.push_back(*k.attribute_name);
    throw ApiError::invalid_parameter("Some index key attributes are not defined in AttributeDefinitions. Keys: " +
                                      render_list(key_names) + ", AttributeDefinitions: " + render_list(defined_names));
  }
  if (*key_schema[0].key_type != "HASH") {
    throw ApiError::validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  if (key_schema.size() == 2 && *key_schema[1].key_type != "RANGE") {
    throw ApiError::validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
  }
  if (key_schema.size() == 2 && *key_schema[0].attribute_name == *key_schema[1].attribute_name) {
    throw ApiError::validation("Both the Hash Key and the Range Key element in the KeySchema have the same name");
  }
  auto element = [&](const RawKeyElement& k) {
    auto d = std::find_if(definitions.begin(), definitions.end(),
                          [&](const AttributeDefinition& a) { return a.name == *k.attribute_name; });
    return KeyElement{d->name, d->type};
  };
  KeyDef key;
  key.partition = element(key_schema[0]);
  if (key_schema.size() == 2) key.sort = element(key_schema[1]);
  return key;
}

Projection check_projection(const RawProjection& raw) {
  if (!raw.projection_type) throw ApiError::invalid_parameter("Unknown ProjectionType: null");
  Projection p;
  const std::string& type = *raw.projection_type;
  if (type == "ALL" || type == "KEYS_ONLY") {
    if (raw.non_key_attributes) {
      throw ApiError::invalid_parameter("ProjectionType is " + type + ", but NonKeyAttributes is specified");
    }
    p.type = type == "ALL" ? ProjectionType::All : ProjectionType::KeysOnly;
  } else {
    if (!raw.non_key_attributes) {
      throw ApiError::invalid_parameter("ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
    }
    p.type = ProjectionType::Include;
    p.non_key_attributes = *raw.non_key_attributes;
    // A name projected twice (DynamoDB Local's text; the service's is not established).
    std::set<std::string_view> seen;
    for (const auto& name : p.non_key_attributes) {
      if (!seen.insert(name).second) throw ApiError::validation("Cannot have two attributes with the same name");
    }
  }
  return p;
}

// ---------------------------------------------------------------- decoding

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
    }
  }
  return r;
}

namespace {

RawIndexUpdate decode_index_update(json::value& v) {
  RawIndexUpdate u;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (json::is_null(value)) continue;
    if (key == "Create") {
      ++u.actions;
      u.create = decode_raw_index(value);
    } else if (key == "Delete" || key == "Update") {
      ++u.actions;
      std::optional<std::string> name;
      std::optional<RawThroughput> throughput;
      for (auto member : json::read_object(value)) {
        std::string_view mkey = member.unescaped_key().value();
        json::value m = member.value();
        if (mkey == "IndexName") name = read_optional_string(m);
        else if (mkey == "ProvisionedThroughput") throughput = decode_raw_throughput(m);
      }
      if (key == "Delete") {
        u.delete_name = name.value_or("");
      } else {
        u.update_name = name.value_or("");
        u.update_throughput = throughput;
      }
    }
  }
  return u;
}

}  // namespace

std::optional<RawStreamSpecification> decode_raw_stream_specification(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  RawStreamSpecification s;
  for (auto field : json::read_object(v)) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "StreamEnabled") s.enabled = read_optional_bool(value);
    else if (key == "StreamViewType") s.view_type = read_optional_string(value);
  }
  return s;
}

StreamViewType parse_stream_view_type(const std::string& v) {
  if (v == "KEYS_ONLY") return StreamViewType::KeysOnly;
  if (v == "NEW_IMAGE") return StreamViewType::NewImage;
  if (v == "OLD_IMAGE") return StreamViewType::OldImage;
  if (v == "NEW_AND_OLD_IMAGES") return StreamViewType::NewAndOldImages;
  throw ApiError::validation("1 validation error detected: Value '" + v +
                             "' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must "
                             "satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]");
}

UpdateTableRequest decode_update_table(json::object body) {
  UpdateTableRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") {
      r.table_name = read_optional_string(value);
    } else if (key == "BillingMode") {
      r.billing_mode = read_optional_string(value);
    } else if (key == "ProvisionedThroughput") {
      r.throughput = decode_raw_throughput(value);
    } else if (key == "TableClass") {
      r.table_class = read_optional_string(value);
    } else if (key == "DeletionProtectionEnabled") {
      r.deletion_protection = read_optional_bool(value);
    } else if (key == "AttributeDefinitions") {
      r.attribute_definitions = read_optional_list<RawAttributeDefinition>(value, decode_raw_attribute_definition);
    } else if (key == "GlobalSecondaryIndexUpdates") {
      r.index_updates = read_optional_list<RawIndexUpdate>(value, decode_index_update);
    } else if (key == "StreamSpecification") {
      r.stream = decode_raw_stream_specification(value);
    } else if (key == "VectorIndexUpdates") {
      r.vector_index_updates = decode_vector_index_updates(value);
    } else if (json::is_null(value)) {
      continue;
    } else if (key == "SSESpecification" || key == "ReplicaUpdates" || key == "OnDemandThroughput" ||
               key == "WarmThroughput" || key == "MultiRegionConsistency") {
      r.has_other_unsupported = true;
      r.unsupported_parameter = std::string(key);
    }
  }
  return r;
}

TableNameRequest decode_table_name_request(json::object body) {
  TableNameRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") r.table_name = read_optional_string(value);
  }
  return r;
}

ListTablesRequest decode_list_tables(json::object body) {
  ListTablesRequest r;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "ExclusiveStartTableName") r.exclusive_start_table_name = read_optional_string(value);
    else if (key == "Limit") r.limit = read_optional_integer(value);
  }
  return r;
}

// ---------------------------------------------------------------- validation

const std::string& require_table_name(const std::optional<std::string>& name) {
  if (!name) throw ApiError::validation("The parameter 'TableName' is required but was not present in the request");
  return *name;
}

void check_table_name_constraints(const std::string& name, ConstraintErrors& errors, bool allow_arn) {
  if (allow_arn && looks_like_arn(name)) {
    if (name.size() > 1024) errors.add(name, "tableName", "Member must have length less than or equal to 1024");
    return;
  }
  check_name(name, "tableName", errors);
}

const std::string& checked_table_name(const TableNameRequest& request) {
  const std::string& name = require_table_name(request.table_name);
  ConstraintErrors errors;
  check_table_name_constraints(name, errors);
  errors.throw_if_any();
  return name;
}

std::optional<TableArn> parse_table_arn(std::string_view text) {
  constexpr std::string_view kPrefix = "arn:aws:dynamodb:";
  constexpr std::string_view kTable = "table/";
  if (text.rfind(kPrefix, 0) != 0) return std::nullopt;
  std::string_view rest = text.substr(kPrefix.size());
  std::size_t colon = rest.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  TableArn arn;
  arn.region = rest.substr(0, colon);
  rest = rest.substr(colon + 1);
  colon = rest.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  arn.account = rest.substr(0, colon);
  rest = rest.substr(colon + 1);
  if (rest.rfind(kTable, 0) != 0) return std::nullopt;
  arn.name = rest.substr(kTable.size());
  if (arn.name.empty() || arn.name.find('/') != std::string_view::npos) return std::nullopt;
  return arn;
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
        throw ApiError::invalid_parameter("Index KeySchema does not have the same leading hash key as table KeySchema "
                                          "for index: " + index.name + ". index hash key: " +
                                          index.key.partition.name + ", table hash key: " + schema.key.partition.name);
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
      index.key = check_key_structure(*raw.key_schema, schema.attribute_definitions, *r.attribute_definitions);
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
      schema.global_indexes.push_back(std::move(index));
    }
  }
  if (r.vector_indexes) add_vector_indexes(*r.vector_indexes, schema, index_names);
  std::size_t projected = 0;
  for (const auto* family : {&schema.local_indexes, &schema.global_indexes}) {
    for (const auto& index : *family) projected += index.projection.non_key_attributes.size();
  }
  if (projected > 100) {
    throw ApiError::limit_exceeded("The number of projected attributes in all secondary indexes exceeds the limit of "
                                   "100");
  }

  // Every definition must be used by a key of the table or of an index.
  std::set<std::string> used{schema.key.partition.name};
  if (schema.key.sort) used.insert(schema.key.sort->name);
  for (const auto* family : {&schema.local_indexes, &schema.global_indexes}) {
    for (const auto& index : *family) {
      used.insert(index.key.partition.name);
      if (index.key.sort) used.insert(index.key.sort->name);
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
    schema.table_class =
        *r.table_class == "STANDARD" ? TableClass::Standard : TableClass::StandardInfrequentAccess;
  }
  schema.deletion_protection = r.deletion_protection.value_or(false);
  // Its RevisionId is the table's creation time, given with the table's storage id.
  if (r.resource_policy) schema.resource_policies.push_back({"", canonical_policy(*r.resource_policy).document, "", 0});
  return schema;
}

void validate_update_table_request(const UpdateTableRequest& r) {
  const std::string& name = require_table_name(r.table_name);
  ConstraintErrors errors;
  check_table_name_constraints(name, errors);
  if (r.billing_mode && *r.billing_mode != "PROVISIONED" && *r.billing_mode != "PAY_PER_REQUEST") {
    errors.add(*r.billing_mode, "billingMode", "Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
  }
  if (r.throughput) check_throughput_constraints(*r.throughput, "provisionedThroughput", errors);
  if (r.table_class && *r.table_class != "STANDARD" && *r.table_class != "STANDARD_INFREQUENT_ACCESS") {
    errors.add(*r.table_class, "tableClass",
               "Member must satisfy enum value set: [STANDARD, STANDARD_INFREQUENT_ACCESS]");
  }
  errors.throw_if_any();
  if (r.has_other_unsupported) throw ApiError::validation("dynamod does not support " + r.unsupported_parameter);
  bool index_changes = (r.index_updates && !r.index_updates->empty()) ||
                       (r.vector_index_updates && !r.vector_index_updates->empty());
  if (!has_table_changes(r) && !index_changes) {
    throw ApiError::validation(
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, "
        "SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, "
        "DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput, GlobalTableWitnessUpdates or TableClass is "
        "required");
  }
}

bool has_table_changes(const UpdateTableRequest& r) {
  return r.billing_mode || r.throughput || r.table_class || r.deletion_protection || r.stream;
}

TableUpdate validate_update_table(const UpdateTableRequest& r, const TableSchema& current) {
  TableUpdate update;
  BillingMode mode = current.billing_mode;
  if (r.billing_mode) {
    mode = *r.billing_mode == "PAY_PER_REQUEST" ? BillingMode::PayPerRequest : BillingMode::Provisioned;
    update.billing_mode = mode;
  }
  if (mode == BillingMode::PayPerRequest && r.throughput) {
    throw ApiError::invalid_parameter(
        "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  }
  if (mode == BillingMode::Provisioned && current.billing_mode == BillingMode::PayPerRequest && !r.throughput) {
    throw ApiError::invalid_parameter("ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
  }
  if (r.throughput) {
    check_throughput_bounds(*r.throughput);
    update.throughput = {*r.throughput->read_units, *r.throughput->write_units};
  }
  if (r.table_class) {
    update.table_class =
        *r.table_class == "STANDARD" ? TableClass::Standard : TableClass::StandardInfrequentAccess;
  }
  update.deletion_protection = r.deletion_protection;
  if (r.stream) {
    if (!r.stream->enabled) {
      throw ApiError::validation("1 validation error detected: Value null at 'streamSpecification.streamEnabled' "
                                 "failed to satisfy constraint: Member must not be null");
    }
    // The service changes a stream alone, or with an on-demand switch.
    if (r.throughput || (r.billing_mode && *r.billing_mode == "PROVISIONED")) {
      throw ApiError::invalid_parameter("You cannot modify stream status while updating table IOPS");
    }
    if (r.index_updates) {
      for (const RawIndexUpdate& u : *r.index_updates) {
        if (u.create || u.delete_name) {
          throw ApiError::invalid_parameter("You cannot create or delete index while changing stream status");
        }
      }
    }
    StreamSpec spec;
    spec.enabled = *r.stream->enabled;
    if (spec.enabled && !r.stream->view_type) {
      throw ApiError::invalid_parameter("If stream is being enabled then UpdateViewType is required");
    }
    if (!spec.enabled && r.stream->view_type) {
      throw ApiError::invalid_parameter("If stream is being disabled, then UpdateViewType must not be specified");
    }
    // The state checks look at the current stream, not the requested view type.
    const bool currently = current.stream && current.stream->enabled;
    if (spec.enabled) {
      if (currently) throw ApiError::validation("Table already has an enabled stream: TableName: " + current.name);
      spec.view_type = parse_stream_view_type(*r.stream->view_type);
    } else if (!currently) {
      throw ApiError::validation("Table has no stream to disable: TableName: " + current.name);
    }
    update.stream = spec;
  }
  return update;
}

std::int64_t validate_list_tables_limit(const ListTablesRequest& r) {
  ConstraintErrors errors;
  if (r.exclusive_start_table_name) check_name(*r.exclusive_start_table_name, "exclusiveStartTableName", errors);
  if (r.limit && *r.limit < 1) {
    errors.add(std::to_string(*r.limit), "limit", "Member must have value greater than or equal to 1");
  }
  if (r.limit && *r.limit > 100) {
    errors.add(std::to_string(*r.limit), "limit", "Member must have value less than or equal to 100");
  }
  errors.throw_if_any();
  return r.limit.value_or(100);
}

}  // namespace dynamod
