#include "protocol/table_requests.h"

#include "protocol/resource_policy.h"
#include "protocol/settings_requests.h"
#include "protocol/table_request_fields.h"

#include <algorithm>
#include <set>

namespace dynamod {
namespace {

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";
constexpr std::string_view kNamePattern = "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+";
constexpr std::int64_t kMaxUnits = 1000000000000;

std::optional<std::int64_t> read_optional_integer(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  return json::read_integer(v);
}

std::vector<std::string> read_string_list(json::value& v) {
  std::vector<std::string> out;
  for (auto element : json::read_array(v)) {
    json::value e = element.value();
    out.emplace_back(json::read_string(e));
  }
  return out;
}

}  // namespace

std::optional<std::string> read_optional_string(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  return std::string(json::read_string(v));
}

std::optional<bool> read_optional_bool(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  return json::read_bool(v);
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
    } else if (key == "OnDemandThroughput") {
      index.on_demand = decode_raw_on_demand(value);
    } else if (key == "WarmThroughput") {
      index.warm = decode_raw_warm(value);
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

bool matches_name_pattern(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
  });
}

}  // namespace

std::string render_list(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += values[i];
  }
  return out + "]";
}

// A global index's KeySchema has no upper bound in the model since multi-attribute keys
// (protocol/index_key_schema.h checks their counts).
void check_key_schema_constraints(const std::optional<std::vector<RawKeyElement>>& key_schema, const std::string& path,
                                  ConstraintErrors& errors, bool global) {
  if (!key_schema) {
    errors.add_null(path, "Member must not be null");
    return;
  }
  if (key_schema->empty()) errors.add("[]", path, "Member must have length greater than or equal to 1");
  if (key_schema->size() > 2 && !global) {
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
    throw ApiError::validation("Given value " + std::to_string(*t.read_units) +
                               " for ReadCapacityUnits is out of bounds");
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
    check_one_index_constraints((*indexes)[i], family + "." + std::to_string(i + 1) + ".member.", errors,
                                family.starts_with("global"));
  }
}

void check_one_index_constraints(const RawIndex& index, const std::string& member, ConstraintErrors& errors,
                                 bool global) {
  check_key_schema_constraints(index.key_schema, member + "keySchema", errors, global);
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
  if (index.warm) check_warm_constraints(*index.warm, member + "warmThroughput", errors);
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
