#include "protocol/vector_search_request.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "protocol/api_error.h"
#include "protocol/attribute_json.h"
#include "protocol/expr/expression.h"
#include "protocol/item_requests.h"

namespace dynamod {
namespace {

constexpr std::string_view kHashRequired =
    "SearchConditionExpression must be provided when SearchSchema has a HASH key";
// The service prefixes the guide's sentence (tier3 searchVectors.test.ts, measured 2026-08-11).
constexpr std::string_view kInvalidComparator =
    "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression";
// The service's answer to any search vector value that is not a number (tier3 searchVectors.test.ts);
// dynamod gives it too for a number beyond f32's range, which was not measured.
constexpr std::string_view kInvalidSearchVector =
    "Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point "
    "number attribute";

// The attribute and value of `attribute = :value` (either way round), or throws.
std::pair<std::string, AttributeValue> equality(const expr::Comparison& c) {
  if (c.op != expr::CompareOp::Eq) throw ApiError::validation(std::string(kInvalidComparator));
  const expr::Path* path = c.lhs.path() ? c.lhs.path() : c.rhs.path();
  const AttributeValue* value = c.lhs.constant() ? c.lhs.constant() : c.rhs.constant();
  if (path == nullptr || value == nullptr) throw ApiError::validation(std::string(kInvalidComparator));
  // "You can reference only top-level attributes from the search schema."
  if (path->steps.size() != 1) {
    throw ApiError::validation(
        "SearchConditionExpression can reference only top-level attributes of the "
        "SearchSchema: " +
        path->to_string());  // dynamod's wording
  }
  return {path->root(), *value};
}

// Collects the equalities of a condition made of `=` terms joined by AND.
void collect(const expr::Condition& c, std::uint32_t node, std::vector<std::pair<std::string, AttributeValue>>& out,
             int depth) {
  if (depth > 64) throw ApiError::validation(std::string(kInvalidComparator));  // bounded: the request controls it
  const auto& v = c.nodes[node].v;
  if (const auto* a = std::get_if<expr::And>(&v)) {
    collect(c, a->left, out, depth + 1);
    collect(c, a->right, out, depth + 1);
  } else if (const auto* cmp = std::get_if<expr::Comparison>(&v)) {
    out.push_back(equality(*cmp));
  } else {
    throw ApiError::validation(std::string(kInvalidComparator));
  }
}

std::vector<float> query_vector(const std::vector<AttributeValue>& raw, const VectorIndexSchema& index) {
  std::vector<float> out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i].type() != AttributeType::N) throw ApiError::validation(std::string(kInvalidSearchVector));
    double d = std::strtod(raw[i].as_number().to_string().c_str(), nullptr);
    if (!std::isfinite(d) || std::fabs(d) > std::numeric_limits<float>::max()) {
      throw ApiError::validation(std::string(kInvalidSearchVector));
    }
    out.push_back(static_cast<float>(d));
  }
  if (static_cast<std::int64_t>(out.size()) != index.dimensions) {
    throw ApiError::validation("Input search vector dimension " + std::to_string(out.size()) +
                               " does not match vector index dimension " + std::to_string(index.dimensions));
  }
  return out;
}

}  // namespace

SearchVectorsRequest decode_search_vectors(json::object body) {
  SearchVectorsRequest r;
  ConstraintErrors errors;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TableName") {
      r.table_name = decode::optional_string(value);
    } else if (key == "IndexName") {
      r.index_name = decode::optional_string(value);
    } else if (key == "SearchVector") {
      if (json::is_null(value)) continue;
      std::vector<AttributeValue> list;
      for (auto element : json::read_array(value)) {
        json::value e = element.value();
        list.push_back(decode_attribute_value(e));
      }
      r.search_vector = std::move(list);
    } else if (key == "TopK") {
      if (!json::is_null(value)) r.top_k = json::read_integer(value);
    } else if (key == "SearchConditionExpression") {
      r.search_condition = decode::optional_string(value);
    } else if (key == "ProjectionExpression") {
      r.projection_expression = decode::optional_string(value);
    } else if (key == "ExpressionAttributeNames") {
      r.names = decode::attribute_names(value);
    } else if (key == "ExpressionAttributeValues") {
      r.values = decode::attribute_values(value);
    } else if (key == "ReturnConsumedCapacity") {
      r.return_consumed_capacity = decode::return_consumed_capacity(value, errors);
    }
  }
  check_data_table_name(r.table_name, errors);
  if (!r.index_name) {
    errors.add_null("indexName", "Member must not be null");
  } else if (r.index_name->size() < 3) {
    errors.add(*r.index_name, "indexName", "Member must have length greater than or equal to 3");
  } else if (r.index_name->size() > 255) {
    errors.add(*r.index_name, "indexName", "Member must have length less than or equal to 255");
  }
  if (!r.search_vector) errors.add_null("searchVector", "Member must not be null");
  // The request model knows only the lower bound; the upper one is the service's own check,
  // which names the value (validation.test.ts and tier3 searchVectors.test.ts, measured 2026-08-11).
  if (!r.top_k) {
    errors.add_null("topK", "Member must not be null");
  } else if (*r.top_k < 1) {
    errors.add(std::to_string(*r.top_k), "topK", "Member must have value greater than or equal to 1");
  }
  errors.throw_if_any();
  if (*r.top_k > kMaxTopK) {
    throw ApiError::validation("Provided TopK value '" + std::to_string(*r.top_k) +
                               "' is out of valid range. The value must be between 1 and " + std::to_string(kMaxTopK) +
                               " inclusive");
  }
  return r;
}

VectorSearchSpec validate_search_vectors(const SearchVectorsRequest& r, const TableSchema& table) {
  const VectorIndexSchema* index = table.find_vector_index(*r.index_name);
  // An index added by UpdateTable is not there for searches until its backfill starts, then
  // refused as backfilling (tier2 vectorSearch/updateLifecycle.test.ts, measured 2026-08-11).
  if (index == nullptr || index->status == IndexStatus::Deleting ||
      (index->status == IndexStatus::Creating && !index->backfilling)) {
    throw ApiError::validation("The table does not have the specified index: " + *r.index_name);
  }
  if (index->status == IndexStatus::Creating) {
    throw ApiError::validation("Cannot search backfilling vector index: " + *r.index_name);
  }
  VectorSearchSpec spec;
  spec.index = index;
  spec.top_k = static_cast<std::size_t>(*r.top_k);
  spec.query = query_vector(*r.search_vector, *index);

  const expr::NameMap* names = r.names ? &*r.names : nullptr;
  const expr::ValueMap* values = r.values ? &*r.values : nullptr;
  if (!r.search_condition && values) {
    throw ApiError::validation(
        "ExpressionAttributeValues can only be specified when using expressions: "
        "SearchConditionExpression is null");
  }
  if (!r.search_condition && !r.projection_expression && names) {
    throw ApiError::validation("ExpressionAttributeNames can only be specified when using expressions");
  }
  expr::validate_placeholder_maps(names, values);
  expr::Placeholders placeholders(names, values);
  std::vector<std::pair<std::string, AttributeValue>> terms;
  if (r.search_condition) {
    expr::Condition condition = expr::parse_condition(*r.search_condition, expr::ConditionKind::Filter, placeholders);
    if (!condition.empty()) collect(condition, condition.root, terms, 0);
  }
  if (r.projection_expression) spec.projection = expr::parse_projection(*r.projection_expression, placeholders);
  placeholders.check_all_used();

  // Not a structured binding: clang 14 (the fuzzers' compiler) lets no lambda capture one.
  for (auto& term : terms) {
    const std::string& name = term.first;
    AttributeValue& value = term.second;
    const SearchSchemaElement* element = nullptr;
    for (const auto& e : index->search_schema) {
      if (e.name == name) element = &e;
    }
    if (element == nullptr) {
      // The service's grammar, as measured (tier3 searchVectors.test.ts).
      throw ApiError::validation(
          "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid "
          "attribute: " +
          name);
    }
    if (value.type() != to_attribute_type(element->type)) {
      throw ApiError::validation("Type mismatch in SearchConditionExpression for " + name +
                                 " Expected: " + std::string(scalar_type_name(element->type)) +
                                 " Actual: " + std::string(type_name(value.type())));  // dynamod's wording
    }
    bool repeated =
        (element->role == SearchSchemaRole::Hash && spec.hash_value) ||
        std::any_of(spec.filters.begin(), spec.filters.end(), [&](const auto& f) { return f.first == name; });
    if (repeated) {
      throw ApiError::validation("SearchConditionExpression names " + name + " more than once");  // dynamod's wording
    }
    if (element->role == SearchSchemaRole::Hash) {
      spec.hash_value = std::move(value);
    } else {
      spec.filters.emplace_back(name, std::move(value));
    }
  }
  if (index->hash() && !spec.hash_value) throw ApiError::validation(std::string(kHashRequired));
  return spec;
}

}  // namespace dynamod
