#include "protocol/read_requests.h"

#include <algorithm>

#include "protocol/expr/expression.h"
#include "protocol/expr/java_hash.h"
#include "protocol/expr/legacy_json.h"
#include "protocol/item_requests.h"
#include "protocol/key_paths.h"
#include "protocol/key_validation.h"
#include "protocol/table_requests.h"

namespace dynamod {
namespace {

std::optional<Select> parse_select(json::value& v, ConstraintErrors& errors) {
  std::optional<std::string> s = decode::optional_string(v);
  if (!s) return std::nullopt;
  if (*s == "ALL_ATTRIBUTES") return Select::AllAttributes;
  if (*s == "ALL_PROJECTED_ATTRIBUTES") return Select::AllProjectedAttributes;
  if (*s == "SPECIFIC_ATTRIBUTES") return Select::SpecificAttributes;
  if (*s == "COUNT") return Select::Count;
  errors.add(
      *s, "select",
      "Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]",
      decode::kRankSelect);
  return std::nullopt;
}

std::optional<std::int64_t> optional_integer(json::value& v) {
  if (json::is_null(v)) return std::nullopt;
  return json::read_integer(v);
}

// Members Query and Scan share; false if `key` is not one of them.
bool read_member(std::string_view key, json::value& value, ReadParameters& r, ConstraintErrors& errors) {
  if (key == "TableName") {
    r.table_name = decode::optional_string(value);
  } else if (key == "IndexName") {
    r.index_name = decode::optional_string(value);
  } else if (key == "Select") {
    r.select = parse_select(value, errors);
  } else if (key == "AttributesToGet") {
    if (!json::is_null(value)) r.attributes_to_get = expr::decode_attributes_to_get(value);
  } else if (key == "Limit") {
    r.limit = optional_integer(value);
  } else if (key == "ConsistentRead") {
    r.consistent_read = decode::optional_bool(value);
  } else if (key == "ExclusiveStartKey") {
    r.exclusive_start_key = decode::optional_item(value);
  } else if (key == "ReturnConsumedCapacity") {
    r.return_consumed_capacity = decode::return_consumed_capacity(value, errors);
  } else if (key == "ProjectionExpression") {
    r.projection_expression = decode::optional_string(value);
  } else if (key == "FilterExpression") {
    r.filter_expression = decode::optional_string(value);
  } else if (key == "ConditionalOperator") {
    r.conditional_operator = decode::optional_string(value);
  } else if (key == "ExpressionAttributeNames") {
    r.names = decode::attribute_names(value);
  } else if (key == "ExpressionAttributeValues") {
    r.values = decode::attribute_values(value);
  } else {
    return false;
  }
  return true;
}

void check_read_constraints(const ReadParameters& r, ConstraintErrors& errors) {
  check_data_table_name(r.table_name, errors);
  if (r.index_name) {
    if (r.index_name->size() < 3) {
      errors.add(*r.index_name, "indexName", "Member must have length greater than or equal to 3",
                 decode::kRankTableName);
    }
    if (r.index_name->size() > 255) {
      errors.add(*r.index_name, "indexName", "Member must have length less than or equal to 255",
                 decode::kRankTableName);
    }
  }
}

// Limit below 1. The 2026 rewording of the service's validation reached Query's Limit (no
// value echoed, the member's API name) but not Scan's (the conformance suite's pinned
// answers; docs/service-fidelity.md).
void check_limit(const ReadParameters& r, bool reworded, ConstraintErrors& errors) {
  if (!r.limit || *r.limit >= 1) return;
  static constexpr std::string_view kRule = "Member must have value greater than or equal to 1";
  if (reworded) {
    errors.add_unechoed("Limit", kRule, decode::kRankLimit);
  } else {
    errors.add(std::to_string(*r.limit), "limit", kRule, decode::kRankLimit);
  }
}

// A Query's filter may not touch the key it queries by.
// (A path into a key is refused before, by check_whole_key_paths.)
void check_filter_keys(const expr::Condition& filter, const KeyDef& key, const char* parameter) {
  PathList paths;
  collect_paths(filter, paths);
  for (const expr::Path* p : paths) {
    const std::string& root = p->root();
    if (!key.includes(root)) continue;
    throw ApiError::validation(std::string(parameter) +
                               " can only contain non-primary key attributes: Primary key attribute: " + root);
  }
}

// The parts Query and Scan validate alike. `key_expression` is Query's
// KeyConditionExpression (it counts as an expression parameter).
struct ParsedRead {
  expr::Condition filter;
  std::optional<std::vector<expr::Path>> projection;
  std::optional<expr::Condition> key_condition;
};

ParsedRead parse_read(const ReadParameters& r, const char* filter_name,
                      const std::optional<std::string>& key_expression,
                      const std::optional<expr::LegacyConditions>& key_conditions) {
  // Parameters are named in the API model's member order. KeyConditions only
  // conflicts with KeyConditionExpression (with a FilterExpression it is accepted).
  std::vector<std::string_view> legacy;
  if (r.attributes_to_get) legacy.push_back("AttributesToGet");
  if (key_conditions && key_expression) legacy.push_back("KeyConditions");
  if (r.filter) legacy.push_back(filter_name);
  if (r.conditional_operator) legacy.push_back("ConditionalOperator");
  std::vector<std::string_view> expressions;
  if (r.projection_expression) expressions.push_back("ProjectionExpression");
  if (r.filter_expression) expressions.push_back("FilterExpression");
  if (key_expression) expressions.push_back("KeyConditionExpression");
  expr::check_no_mixing(legacy, expressions);

  if (r.values && !r.filter_expression && !key_expression) {
    throw ApiError::validation(std::string("ExpressionAttributeValues can only be specified when using expressions: ") +
                               (key_conditions || std::string_view(filter_name) == "QueryFilter"
                                    ? "FilterExpression and KeyConditionExpression are null"
                                    : "FilterExpression is null"));
  }
  if (r.names && expressions.empty()) {
    throw ApiError::validation("ExpressionAttributeNames can only be specified when using expressions");
  }
  if (r.conditional_operator && !r.filter) {
    throw ApiError::validation("ConditionalOperator cannot be used without Filter or Expected");
  }
  expr::validate_placeholder_maps(r.names ? &*r.names : nullptr, r.values ? &*r.values : nullptr);
  expr::Placeholders placeholders(r.names ? &*r.names : nullptr, r.values ? &*r.values : nullptr);
  // The service reads the filter, then the projection, then the key condition:
  // of errors in several, the filter's is named. The legacy parameters come
  // later (convert_legacy).
  ParsedRead parsed;
  if (r.filter_expression) {
    parsed.filter = expr::parse_condition(*r.filter_expression, expr::ConditionKind::Filter, placeholders);
  }
  if (r.projection_expression) {
    parsed.projection = expr::parse_projection(*r.projection_expression, placeholders);
  }
  if (key_expression) {
    parsed.key_condition = expr::parse_condition(*key_expression, expr::ConditionKind::KeyCondition, placeholders);
  }
  placeholders.check_all_used();
  return parsed;
}

// A QueryFilter or ScanFilter, then AttributesToGet, into the read: after the
// expressions, and in a Query after the key conditions too (DynamoDB Local).
void convert_legacy(const ReadParameters& r, ReadSpec& spec) {
  if (r.filter) spec.filter = expr::convert_filter(*r.filter, r.conditional_operator);
  if (r.attributes_to_get) spec.projection = expr::convert_attributes_to_get(*r.attributes_to_get);
}

const char* projection_parameter(const ReadParameters& r) {
  return r.projection_expression ? "ProjectionExpression" : "AttributesToGet";
}

// The index read, if any, and the key being read.
void find_target(const ReadParameters& r, const TableSchema& table, ReadSpec& spec) {
  if (r.index_name) {
    spec.index = table.find_index(*r.index_name);
    if (spec.index == nullptr || spec.index->status == IndexStatus::Deleting) {
      throw ApiError::validation("The table does not have the specified index: " + *r.index_name);
    }
    if (spec.index->status == IndexStatus::Creating) {
      throw ApiError::validation("Cannot read from backfilling global secondary index: " + *r.index_name);
    }
    spec.key = spec.index->key;
  } else {
    spec.key = table.key;
  }
}

// No expression may read into a key attribute (the key condition's paths
// count: `key_condition`); one expression after the other, in the order the
// service reads them.
void check_key_paths(const TableSchema& table, const ReadSpec& spec,
                     const std::optional<expr::Condition>& key_condition) {
  check_read_key_paths(table, spec.filter);
  check_read_key_paths(table, spec.projection);
  if (key_condition) expr::check_key_condition_not_nested(*key_condition);
}

// The attributes a projection asks for that the index does not hold, named as
// the service names them: it puts the attributes asked for in a
// java.util.HashSet, a ProjectionExpression's last to first and AttributesToGet
// first to last, and lists the missing ones in the set's order (DynamoDB
// Local, probed at random with up to 16 names; test_query.py).
std::string not_projected_in_service_order(const ReadParameters& r, const TableSchema& table, const ReadSpec& spec) {
  // Most projections ask only for what the index holds: no list to order.
  if (!spec.projection || std::all_of(spec.projection->begin(), spec.projection->end(),
                                      [&](const expr::Path& p) { return table.projects(*spec.index, p.root()); })) {
    return {};
  }
  std::vector<std::string_view> roots;
  roots.reserve(spec.projection->size());
  auto add = [&roots](const expr::Path& p) {
    if (std::find(roots.begin(), roots.end(), p.root()) == roots.end()) roots.push_back(p.root());
  };
  if (r.projection_expression) {
    std::for_each(spec.projection->rbegin(), spec.projection->rend(), add);
  } else {
    std::for_each(spec.projection->begin(), spec.projection->end(), add);
  }
  expr::java_hash_set_iteration_order(roots);
  std::string list;
  for (std::string_view root : roots) {
    if (table.projects(*spec.index, root)) continue;
    if (!list.empty()) list += ", ";
    list += root;
  }
  return list;
}

bool reads_global_index(const TableSchema& table, const ReadSpec& spec) {
  return spec.index != nullptr && std::any_of(table.global_indexes.begin(), table.global_indexes.end(),
                                              [&](const IndexSchema& i) { return &i == spec.index; });
}

// A GSI is read eventually consistent only. Checked once the index is known,
// before anything else about the read but the expressions a Query has read
// (DynamoDB Local: before the key condition's meaning, the filter's keys,
// ExclusiveStartKey and Select; a Scan looks its index up first of all).
void check_consistent_read(const ReadParameters& r, const TableSchema& table, const ReadSpec& spec) {
  if (r.consistent_read && reads_global_index(table, spec)) {
    throw ApiError::validation("Consistent reads are not supported on global secondary indexes");
  }
}

// Filter attributes an index does not hold, sorted by name (as the service
// lists them).
void check_filter_projected(const TableSchema& table, const ReadSpec& spec) {
  PathList filter_paths;
  collect_paths(spec.filter, filter_paths);
  std::vector<std::string> missing;
  for (const expr::Path* p : filter_paths) {
    if (!table.projects(*spec.index, p->root()) &&
        std::find(missing.begin(), missing.end(), p->root()) == missing.end()) {
      missing.push_back(p->root());
    }
  }
  if (missing.empty()) return;
  std::sort(missing.begin(), missing.end());
  std::string list;
  for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
  throw ApiError::invalid_parameter("Secondary index " + spec.index->name +
                                    " does not project one or more filter attributes: [" + list + "]");
}

bool reads_partial_index(const ReadSpec& spec) {
  return spec.index != nullptr && spec.index->projection.type != ProjectionType::All;
}

// Select's rules, against the projection asked for and the index read. SPECIFIC_ATTRIBUTES
// without a projection: a Query wraps the sentence in the constraint envelope, a Scan does not
// (the service, 2026; docs/service-fidelity.md).
enum class SelectRead { Query, Scan };
void apply_select(const ReadParameters& r, const TableSchema& table, ReadSpec& spec, SelectRead read) {
  const bool global = reads_global_index(table, spec);
  const bool partial_index = reads_partial_index(spec);
  bool has_projection = spec.projection.has_value();
  if (r.select) {
    switch (*r.select) {
      case Select::SpecificAttributes:
        if (!has_projection) {
          throw ApiError::validation(
              std::string(read == SelectRead::Query ? "1 validation error detected: " : "") +
              "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES");
        }
        break;
      case Select::AllProjectedAttributes:
        if (has_projection) {
          throw ApiError::validation(std::string("Cannot specify the ") + projection_parameter(r) +
                                     " when choosing to get ALL_PROJECTED_ATTRIBUTES");
        }
        if (spec.index == nullptr) {
          throw ApiError::validation("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
        }
        break;
      case Select::Count:
        if (has_projection) {
          throw ApiError::validation(std::string("Cannot specify the ") + projection_parameter(r) +
                                     " when choosing to get only the Count");
        }
        break;
      case Select::AllAttributes:
        if (has_projection) {
          throw ApiError::validation(std::string("Cannot specify the ") + projection_parameter(r) +
                                     " when choosing to get ALL_ATTRIBUTES");
        }
        if (global && partial_index) {
          throw ApiError::invalid_parameter("Select type ALL_ATTRIBUTES is not supported for global secondary index " +
                                            spec.index->name + " because its projection type is not ALL");
        }
        break;
    }
    spec.select = *r.select;
  } else {
    spec.select = has_projection ? Select::SpecificAttributes
                                 : (spec.index != nullptr ? Select::AllProjectedAttributes : Select::AllAttributes);
  }
}

// What a partial index cannot serve: attributes asked for that a GSI lacks
// (refused), or that an LSI lacks (fetched from the table).
void check_index_projection(const ReadParameters& r, const TableSchema& table, ReadSpec& spec) {
  if (!reads_partial_index(spec)) return;
  const bool global = reads_global_index(table, spec);
  std::string missing = not_projected_in_service_order(r, table, spec);
  if (global && !missing.empty()) {
    throw ApiError::invalid_parameter("Global secondary index " + spec.index->name + " does not project [" + missing +
                                      "]");
  }
  spec.fetch_table_items = !global && (spec.select == Select::AllAttributes || !missing.empty());
}

// ExclusiveStartKey: exactly the table's key, plus the index's key when reading an index.
// A key of other names, count or types is "The provided starting key is invalid", which a
// Scan of the table itself completes with the schema sentence (the service; dynalite's suite).
enum class StartKeyRead { Query, Scan };
void check_start_key(const Item& start, const TableSchema& table, const ReadSpec& spec, StartKeyRead read) {
  auto invalid = [](const std::string& detail = {}) {
    return ApiError::validation("The provided starting key is invalid" + (detail.empty() ? "" : ": " + detail));
  };
  const std::string mismatch =
      read == StartKeyRead::Scan && spec.index == nullptr ? "The provided key element does not match the schema" : "";
  std::vector<KeyElement> expected{table.key.partition};
  if (table.key.sort) expected.push_back(*table.key.sort);
  if (spec.index != nullptr) {
    for (const auto& elements : {spec.index->key.partition_elements(), spec.index->key.sort_elements()}) {
      for (const KeyElement* k : elements) {
        if (std::none_of(expected.begin(), expected.end(), [&](const KeyElement& e) { return e.name == k->name; })) {
          expected.push_back(*k);
        }
      }
    }
  }
  if (start.size() != expected.size()) throw invalid(mismatch);
  for (const KeyElement& k : expected) {
    const AttributeValue* v = start.find(k.name);
    if (v == nullptr || v->type() != to_attribute_type(k.type)) throw invalid(mismatch);
  }
  try {
    key_from_key(table.key, key_attributes(table.key, start));
  } catch (const ApiError& e) {
    throw invalid(e.message());
  }
}

}  // namespace

QueryRequest decode_query(json::object body) {
  QueryRequest r;
  ConstraintErrors errors;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (read_member(key, value, r.read, errors)) continue;
    if (key == "KeyConditionExpression") {
      r.key_condition_expression = decode::optional_string(value);
    } else if (key == "KeyConditions") {
      if (!json::is_null(value)) {
        r.key_conditions = expr::decode_legacy_conditions(value);
        expr::check_comparison_operators(*r.key_conditions, "keyConditions", true, errors, decode::kRankItem);
      }
    } else if (key == "QueryFilter") {
      if (!json::is_null(value)) {
        r.read.filter = expr::decode_legacy_conditions(value);
        expr::check_comparison_operators(*r.read.filter, "queryFilter", true, errors, decode::kRankItem);
      }
    } else if (key == "ScanIndexForward") {
      r.scan_index_forward = json::is_null(value) || json::read_bool(value);
    }
  }
  check_read_constraints(r.read, errors);
  check_limit(r.read, true, errors);
  errors.throw_if_any();
  return r;
}

ScanRequest decode_scan(json::object body) {
  ScanRequest r;
  ConstraintErrors errors;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (read_member(key, value, r.read, errors)) continue;
    if (key == "ScanFilter") {
      if (!json::is_null(value)) {
        r.read.filter = expr::decode_legacy_conditions(value);
        expr::check_comparison_operators(*r.read.filter, "scanFilter", true, errors, decode::kRankItem);
      }
    } else if (key == "Segment") {
      r.segment = optional_integer(value);
    } else if (key == "TotalSegments") {
      r.total_segments = optional_integer(value);
    }
  }
  check_read_constraints(r.read, errors);
  check_limit(r.read, false, errors);
  if (r.segment && *r.segment < 0) {
    errors.add(std::to_string(*r.segment), "segment", "Member must have value greater than or equal to 0",
               decode::kRankSegment);
  }
  if (r.segment && *r.segment > 999999) {
    errors.add(std::to_string(*r.segment), "segment", "Member must have value less than or equal to 999999",
               decode::kRankSegment);
  }
  if (r.total_segments && *r.total_segments < 1) {
    errors.add(std::to_string(*r.total_segments), "totalSegments", "Member must have value greater than or equal to 1",
               decode::kRankSegment);
  }
  if (r.total_segments && *r.total_segments > 1000000) {
    errors.add(std::to_string(*r.total_segments), "totalSegments",
               "Member must have value less than or equal to 1000000", decode::kRankSegment);
  }
  errors.throw_if_any();
  return r;
}

ReadSpec validate_query(const QueryRequest& request, const TableSchema& table) {
  const ReadParameters& r = request.read;
  if (!request.key_condition_expression && !request.key_conditions) {
    throw ApiError::validation(
        "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
  }
  ParsedRead parsed = parse_read(r, "QueryFilter", request.key_condition_expression, request.key_conditions);
  ReadSpec spec;
  spec.filter = std::move(parsed.filter);
  spec.projection = std::move(parsed.projection);
  find_target(r, table, spec);
  check_key_paths(table, spec, parsed.key_condition);
  check_consistent_read(r, table, spec);
  const std::string_view index = spec.index != nullptr ? std::string_view(spec.index->name) : std::string_view();
  bool key_condition_not_indexable = false;
  if (parsed.key_condition) {
    spec.key_condition = expr::extract_key_condition(*parsed.key_condition, spec.key, index);
  } else {
    expr::LegacyKeyCondition legacy = expr::convert_key_conditions(*request.key_conditions, spec.key, index);
    spec.key_condition = std::move(legacy.condition);
    key_condition_not_indexable = legacy.not_indexable;
  }
  convert_legacy(r, spec);
  check_filter_keys(spec.filter, spec.key, r.filter_expression ? "Filter Expression" : "QueryFilter");
  spec.limit = r.limit;
  spec.forward = request.scan_index_forward;
  spec.consistent = r.consistent_read;
  if (r.exclusive_start_key) {
    check_start_key(*r.exclusive_start_key, table, spec, StartKeyRead::Query);
    const Item& start = *r.exclusive_start_key;
    expr::check_start_key_bounds(*spec.key_condition, spec.key, start);
    spec.exclusive_start_key = start;
  }
  // The index's projection, after the key condition, the filter's keys and
  // ExclusiveStartKey (DynamoDB Local): filter attributes the index lacks,
  // Select, attributes asked for that a GSI lacks.
  if (reads_partial_index(spec)) check_filter_projected(table, spec);
  apply_select(r, table, spec, SelectRead::Query);
  check_index_projection(r, table, spec);
  if (key_condition_not_indexable) expr::throw_not_indexable();
  return spec;
}

ReadSpec validate_scan(const ScanRequest& request, const TableSchema& table) {
  const ReadParameters& r = request.read;
  if (request.segment && !request.total_segments) {
    throw ApiError::validation(
        "The TotalSegments parameter is required but was not present in the request when "
        "Segment parameter is present");
  }
  if (request.total_segments && !request.segment) {
    throw ApiError::validation(
        "The Segment parameter is required but was not present in the request when parameter "
        "TotalSegments is present");
  }
  if (request.segment && *request.segment >= *request.total_segments) {
    throw ApiError::validation(
        "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
        "Segment: " +
        std::to_string(*request.segment) +
        " is not less than TotalSegments: " + std::to_string(*request.total_segments));
  }
  // A Scan looks its index up before it reads its expressions, and checks
  // Select before the key paths, unlike a Query (DynamoDB Local).
  ReadSpec spec;
  find_target(r, table, spec);
  check_consistent_read(r, table, spec);
  ParsedRead parsed = parse_read(r, "ScanFilter", std::nullopt, std::nullopt);
  spec.filter = std::move(parsed.filter);
  spec.projection = std::move(parsed.projection);
  convert_legacy(r, spec);
  spec.limit = r.limit;
  spec.consistent = r.consistent_read;
  if (request.segment) {
    spec.segment = *request.segment;
    spec.total_segments = *request.total_segments;
  }
  if (r.exclusive_start_key) {
    check_start_key(*r.exclusive_start_key, table, spec, StartKeyRead::Scan);
    spec.exclusive_start_key = *r.exclusive_start_key;
  }
  apply_select(r, table, spec, SelectRead::Scan);
  check_key_paths(table, spec, std::nullopt);
  if (reads_partial_index(spec)) check_filter_projected(table, spec);
  check_index_projection(r, table, spec);
  return spec;
}

}  // namespace dynamod
