// SELECT as a validated read (ReadSpec): the index, the select list, a key
// condition when the WHERE clause fixes the partition key (a Query; else a
// Scan), the other terms as the filter, ORDER BY, Limit and NextToken.
#include <algorithm>

#include "protocol/key_paths.h"
#include "protocol/key_validation.h"
#include "protocol/partiql/condition.h"
#include "protocol/partiql/key_types.h"
#include "protocol/partiql/keys.h"
#include "protocol/partiql/next_token.h"
#include "protocol/partiql/translate.h"

namespace dynamod::partiql {
namespace {

[[noreturn]] void fail(std::string message) { throw ApiError::validation(std::move(message)); }

std::string comma_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Attributes (by their top-level name, in statement order) an index does not hold.
std::vector<std::string> not_projected(const TableSchema& table, const IndexSchema& index,
                                       const std::vector<const expr::Path*>& paths) {
  std::vector<std::string> missing;
  for (const expr::Path* p : paths) {
    if (!table.projects(index, p->root()) && std::find(missing.begin(), missing.end(), p->root()) == missing.end()) {
      missing.push_back(p->root());
    }
  }
  return missing;
}

// Whether a top-level term fixes the read's partition key, by = or IN. Only then does the
// service refuse a filter on attributes an index does not project; without one the read is a
// scan of the index, whose entries lack those attributes, so the filter matches what it
// matches there (an OR branch holding the key does not count; public suites measured on the
// service, 2026-09: docs/service-fidelity.md).
bool keyed_on_partition(const Statement& s, const std::vector<NodeId>& terms, const KeyDef& key,
                        const Parameters& parameters) {
  return std::any_of(terms.begin(), terms.end(), [&](NodeId t) {
    return key_equality(s, t, key.partition.name, parameters) || key_in_list(s, t, key.partition, parameters);
  });
}

const IndexSchema* index_named(const TableSchema& table, const std::string& name) {
  // A vector index is there but out of PartiQL's reach (tier2 vectorSearch/partiql.test.ts,
  // measured in eu-west-2 on 2026-08-11, for a SELECT with no WHERE).
  if (const VectorIndexSchema* vector = table.find_vector_index(name);
      vector != nullptr && vector->status != IndexStatus::Deleting) {
    fail("Scan operation not supported on this index type");
  }
  const IndexSchema* index = table.find_index(name);
  // PartiQL names no index here (Query appends it).
  if (index == nullptr || index->status == IndexStatus::Deleting) fail("The table does not have the specified index");
  if (index->status == IndexStatus::Creating) fail("Cannot read from backfilling global secondary index: " + name);
  return index;
}

void select_list(const Select& select, const TableSchema& table, ReadSpec& spec) {
  if (!select.projection) {
    spec.select = spec.index != nullptr ? dynamod::Select::AllProjectedAttributes : dynamod::Select::AllAttributes;
    return;
  }
  std::vector<expr::Path> paths;
  for (const auto& item : *select.projection) {
    paths.push_back(item.path);
    spec.projection_names.push_back(item.name);
  }
  spec.projection = std::move(paths);
  spec.select = dynamod::Select::SpecificAttributes;
  if (spec.index == nullptr || spec.index->projection.type == ProjectionType::All) return;
  std::vector<const expr::Path*> selected;
  for (const auto& p : *spec.projection) selected.push_back(&p);
  const std::vector<std::string> missing = not_projected(table, *spec.index, selected);
  if (missing.empty()) return;
  if (table.is_global(*spec.index)) {
    throw ApiError::invalid_parameter("Global secondary index " + spec.index->name + " does not project [" +
                                      comma_list(missing) + "]");
  }
  spec.fetch_table_items = true;  // a local index reads the rest from the table
}

// The partition equality (and a sort-key condition) of the WHERE clause, as
// Query's key condition; the terms left are the filter's.
std::vector<NodeId> key_condition(const Statement& s, const std::vector<NodeId>& all_terms,
                                  const Parameters& parameters, ReadSpec& spec) {
  const KeyDef& key = spec.key;
  std::vector<NodeId> terms = all_terms;
  auto take = [&](auto&& match) -> bool {
    for (auto it = terms.begin(); it != terms.end(); ++it) {
      if (match(*it)) {
        terms.erase(it);
        return true;
      }
    }
    return false;
  };
  expr::KeyCondition kc;
  kc.partition_name = key.partition.name;
  const bool query = take([&](NodeId t) {
                       auto v = key_equality(s, t, key.partition.name, parameters);
                       if (!v || v->type() != to_attribute_type(key.partition.type)) return false;
                       kc.partition = std::move(*v);
                       return true;
                     }) ||
                     take([&](NodeId t) {
                       auto values = key_in_list(s, t, key.partition, parameters);
                       if (!values) return false;
                       kc.partition = values->front();
                       if (values->size() > 1) spec.partitions = std::move(*values);
                       return true;
                     });
  if (!query) return terms;
  if (key.sort) {
    take([&](NodeId t) {
      auto c = sort_condition(s, t, *key.sort, parameters);
      if (c) kc.sort = std::move(*c);
      return c.has_value();
    });
  }
  // What is left is the filter, which may not test a key attribute: a Scan
  // then reads with the whole WHERE clause (a repeated `pk = v` aside).
  const bool key_tested = std::any_of(terms.begin(), terms.end(), [&](NodeId t) {
    auto same = key_equality(s, t, key.partition.name, parameters);
    return !(same && spec.partitions.empty() && *same == kc.partition) && tests_key_attribute(s, t, key);
  });
  if (key_tested) {
    spec.partitions.clear();
    return all_terms;
  }
  // No key holds an empty S or B (named as a key here, on an index too, as the service does).
  check_key_value_not_empty(kc.partition_name, kc.partition);
  for (const AttributeValue& partition : spec.partitions) check_key_value_not_empty(kc.partition_name, partition);
  if (kc.sort) {
    check_key_value_not_empty(kc.sort->name, kc.sort->value);
    if (kc.sort->upper) check_key_value_not_empty(kc.sort->name, *kc.sort->upper);
  }
  spec.key_condition = std::move(kc);
  return terms;
}

// ORDER BY needs a WHERE clause that fixes the partition key in every
// branch ("non-optional"): checked before anything else about the read but
// its index (DynamoDB Local).
void check_order_by_where(const Statement& s, const Select& select, const KeyDef& key) {
  if (select.order_by.empty()) return;
  if (!select.where) fail("Must have WHERE clause in the statement when using ORDER BY clause.");
  if (!pins_attribute(s, *select.where, key.partition.name)) {
    fail("Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.");
  }
}

// ORDER BY names key attributes of what is read; a Query (or a Scan whose
// every branch fixes the partition key) reads each page in key order and
// sorts it (PageOrder). The first mention of a key decides its direction.
void order_by(const Select& select, ReadSpec& spec) {
  if (select.order_by.empty()) return;
  const KeyDef& key = spec.key;
  PageOrder order;
  bool partition_seen = false;
  bool sort_seen = false;
  for (const OrderBy& term : select.order_by) {
    const expr::Path& p = term.path;
    const bool partition = p.steps.size() == 1 && p.root() == key.partition.name;
    const bool sort = p.steps.size() == 1 && key.sort && p.root() == key.sort->name;
    if (!partition && !sort) {
      fail("Variable reference " + p.to_string() + " in ORDER BY clause must be part of the primary key");
    }
    bool& seen = partition ? partition_seen : sort_seen;
    if (seen) continue;
    seen = true;
    (partition ? order.partitions_descending : order.sort_descending) = term.descending;
  }
  spec.page_order = order;
}

// A NextToken's key must be one this read can continue from.
void check_start_key(const Item& start, const TableSchema& table, const ReadSpec& spec) {
  std::vector<const KeyElement*> expected{&table.key.partition};
  if (table.key.sort) expected.push_back(&*table.key.sort);
  if (spec.index != nullptr) {
    for (const KeyElement* k : {&spec.index->key.partition, spec.index->key.sort ? &*spec.index->key.sort : nullptr}) {
      if (k != nullptr &&
          std::none_of(expected.begin(), expected.end(), [&](const KeyElement* e) { return e->name == k->name; })) {
        expected.push_back(k);
      }
    }
  }
  if (start.size() != expected.size()) fail("Exclusive Start Key must have same size as table's key schema");
  for (const KeyElement* k : expected) {
    const AttributeValue* v = start.find(k->name);
    if (v == nullptr || v->type() != to_attribute_type(k->type)) fail("Invalid NextToken");
  }
  if (spec.key_condition) {
    const AttributeValue& partition = *start.find(spec.key.partition.name);
    const bool read = spec.partitions.empty() ? partition == spec.key_condition->partition
                                              : std::find(spec.partitions.begin(), spec.partitions.end(), partition) !=
                                                    spec.partitions.end();
    if (!read) fail("Invalid NextToken");
  }
}

}  // namespace

ReadPlan translate_select(const Statement& s, const Select& select, const TableSchema& table, const Inputs& inputs) {
  ReadPlan plan;
  ReadSpec& spec = plan.spec;
  std::optional<Item> start_key;
  if (inputs.next_token) start_key = decode_next_token(*inputs.next_token, inputs.request_fingerprint);
  if (select.from.index) {
    // One item is read from the table, before any index is looked for; with
    // ORDER BY, once the index and the ORDER BY's WHERE clause have passed.
    if (inputs.one_item && select.order_by.empty()) fail(std::string(*inputs.one_item));
    spec.index = index_named(table, *select.from.index);
  }
  spec.key = spec.index != nullptr ? spec.index->key : table.key;
  check_order_by_where(s, select, spec.key);
  // No PartiQL on a multi-attribute index (DynamoDB Local 3.3; the documentation is silent).
  if (spec.key.multi_attribute()) {
    fail("PartiQL statements cannot be executed on tables with composite HASH keys or composite RANGE keys.");
  }
  if (inputs.one_item && spec.index != nullptr) fail(std::string(*inputs.one_item));
  select_list(select, table, spec);

  const std::vector<NodeId> terms = and_terms(s, select.where);
  if (select.where) check_overlapping_branches(s, *select.where, spec.key, inputs.parameters);
  if (inputs.one_item) {
    build_condition(s, terms, inputs.parameters);  // (for its errors)
    auto key = split_key_terms(s, terms, table.key, inputs.parameters, false);
    if (!key || !key->rest.empty()) fail(std::string(*inputs.one_item));
  }
  // A Query's key of the wrong type, then a GSI read strongly, then what the
  // filter compares a key with (DynamoDB Local).
  const QueryTerms query = query_terms(s, terms, spec.key, inputs.parameters);
  check_query_key(s, query, spec.key, inputs.parameters);
  if (spec.index != nullptr && table.is_global(*spec.index) && inputs.consistent_read) {
    fail("Strongly consistent read is not supported on Global Secondary Indexes");
  }
  // No path may lead into a key attribute (the WHERE clause's, then the select
  // list's), checked before what a condition compares a key with.
  check_whole_key_paths(table, condition_paths(s, terms));
  check_read_key_paths(table, spec.projection);
  check_condition_key_types(s, terms, query, spec.key, table.key, inputs.parameters);
  const std::vector<NodeId> filter_terms = key_condition(s, terms, inputs.parameters, spec);
  spec.filter = build_condition(s, filter_terms, inputs.parameters);
  if (spec.index != nullptr && spec.index->projection.type != ProjectionType::All &&
      keyed_on_partition(s, terms, spec.key, inputs.parameters)) {
    const std::vector<std::string> missing = not_projected(table, *spec.index, condition_paths(s, filter_terms));
    if (!missing.empty()) {
      throw ApiError::invalid_parameter("Secondary index " + spec.index->name +
                                        " does not project one or more filter attributes: [" + comma_list(missing) +
                                        "]");
    }
  }
  order_by(select, spec);
  spec.limit = inputs.limit;
  spec.consistent = inputs.consistent_read;
  if (start_key) {
    check_start_key(*start_key, table, spec);
    spec.exclusive_start_key = std::move(start_key);
  }
  if (spec.index == nullptr) {
    auto key = split_key_terms(s, terms, table.key, inputs.parameters, true);
    if (key && key->rest.empty()) plan.key = std::move(key->key);
  }
  return plan;
}

}  // namespace dynamod::partiql
