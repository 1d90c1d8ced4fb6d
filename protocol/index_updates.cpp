#include "protocol/index_updates.h"

#include "protocol/index_key_schema.h"

#include <algorithm>
#include <set>

namespace dynamod {
namespace {

constexpr std::string_view kOneAtATime =
    "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table";

const IndexSchema* find_global(const TableSchema& t, std::string_view name) {
  for (const auto& i : t.global_indexes) {
    if (i.name == name) return &i;
  }
  return nullptr;
}

const IndexSchema* find_local(const TableSchema& t, std::string_view name) {
  for (const auto& i : t.local_indexes) {
    if (i.name == name) return &i;
  }
  return nullptr;
}

// Delete or Update of an index: it must be a global index of the table.
const IndexSchema& existing_global(const TableSchema& t, const std::string& name, const char* verb) {
  if (const IndexSchema* index = find_global(t, name)) return *index;
  if (find_local(t, name) != nullptr) {
    throw ApiError::validation(std::string("Cannot ") + verb + " an index that is not a GlobalSecondaryIndex: " + name);
  }
  throw ApiError::resource_not_found("Requested resource not found: Index " + name + " for table " + t.name);
}

std::string schema_element(const std::string& name, ScalarType type, const char* key_type) {
  return "SchemaElement: key{" + name + ":" + std::string(scalar_type_name(type)) + ":" + key_type + "}";
}

}  // namespace

void require_units_of_every_index(const TableSchema& table, BillingMode mode, const IndexUpdates& updates) {
  if (mode != BillingMode::Provisioned || table.billing_mode != BillingMode::PayPerRequest) return;
  for (const auto& index : table.global_indexes) {
    bool given = std::any_of(updates.throughput_updates.begin(), updates.throughput_updates.end(),
                             [&](const auto& update) { return update.first == index.name; });
    if (!given) throw ApiError::invalid_parameter("ProvisionedThroughput must be specified for index: " + index.name);
  }
}

IndexUpdates validate_index_updates(const UpdateTableRequest& r, const TableSchema& table, BillingMode mode) {
  IndexUpdates out;
  if (!r.index_updates) return out;
  const auto& updates = *r.index_updates;
  if (updates.empty()) throw ApiError::invalid_parameter("List of GlobalSecondaryIndexUpdates is empty");
  ConstraintErrors errors;
  for (std::size_t i = 0; i < updates.size(); ++i) {
    // Each Create at its place among the updates: globalSecondaryIndexUpdates.<n>.member.create.*
    if (updates[i].create) {
      check_one_index_constraints(*updates[i].create,
                                  "globalSecondaryIndexUpdates." + std::to_string(i + 1) + ".member.create.", errors,
                                  /*global=*/true);
    }
  }
  errors.throw_if_any();

  std::set<std::string> named;
  int creates_or_deletes = 0;
  for (const auto& u : updates) {
    if (u.actions == 0) {
      throw ApiError::invalid_parameter(
          "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
          "GlobalSecondaryIndexUpdate.Delete must not be null");
    }
    if (u.actions > 1) {
      throw ApiError::invalid_parameter(
          "Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object");
    }
    const std::string& name = u.create ? *u.create->index_name : u.delete_name ? *u.delete_name : *u.update_name;
    if (!named.insert(name).second) {
      throw ApiError::invalid_parameter(
          "Only one global secondary index update per index is allowed simultaneously. Index: " + name);
    }
    if (u.create || u.delete_name) ++creates_or_deletes;
  }
  if (creates_or_deletes > 1) throw ApiError::limit_exceeded(std::string(kOneAtATime));
  bool building = std::any_of(table.global_indexes.begin(), table.global_indexes.end(), [](const IndexSchema& i) {
    return i.status == IndexStatus::Creating || i.status == IndexStatus::Deleting;
  });
  if (creates_or_deletes > 0 && building) throw ApiError::limit_exceeded(std::string(kOneAtATime));

  for (const auto& u : updates) {
    if (u.delete_name) {
      existing_global(table, *u.delete_name, "delete");
      out.delete_name = *u.delete_name;
    } else if (u.update_name) {
      const IndexSchema& index = existing_global(table, *u.update_name, "update");
      if (u.update_on_demand) {
        out.on_demand_updates.emplace_back(
            index.name, checked_on_demand(*u.update_on_demand, mode, index.name, index.on_demand_maximum));
      }
      if (u.update_warm) {
        // A GSI's warm throughput may go down, to no less than its floor.
        out.warm_updates.emplace_back(
            index.name,
            checked_index_warm(*u.update_warm,
                               described_warm(index.warm, mode, index.throughput ? &*index.throughput : nullptr)));
      }
      if (!u.update_throughput) continue;
      if (mode == BillingMode::PayPerRequest) {
        throw ApiError::invalid_parameter("The only Updates for index: " + index.name +
                                          " when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, "
                                          "WarmThroughput");
      }
      const RawThroughput& t = *u.update_throughput;
      if (!t.read_units || !t.write_units) {
        throw ApiError::invalid_parameter(
            "Both ReadCapacityUnits and WriteCapacityUnits must be specified for index: " + index.name);
      }
      check_throughput_bounds(t);
      if (index.throughput && index.throughput->read_units == *t.read_units &&
          index.throughput->write_units == *t.write_units) {
        throw ApiError::validation(
            "The provisioned throughput for the index " + index.name +
            " will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned "
            "for index " +
            index.name + ": " + std::to_string(*t.read_units) + ". Requested ReadCapacityUnits: " +
            std::to_string(*t.read_units) + ". Current WriteCapacityUnits provisioned for index " + index.name + ": " +
            std::to_string(*t.write_units) + ". Requested WriteCapacityUnits: " + std::to_string(*t.write_units) +
            ". Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.");
      }
      out.throughput_updates.push_back({index.name, {*t.read_units, *t.write_units}});
    } else {
      const RawIndex& raw = *u.create;
      const std::string& name = *raw.index_name;
      if (table.find_index(name) != nullptr) {
        throw ApiError::validation("Attempting to create an index which already exists");
      }
      if (!r.attribute_definitions) {
        throw ApiError::invalid_parameter("AttributeDefinitions is not specified for index: " + name);
      }
      if (table.global_indexes.size() >= 20) {
        throw ApiError::limit_exceeded(
            "Subscriber limit exceeded: Number of global secondary indexes exceeds per-table limit of 20");
      }
      // The given definitions may only add attributes or repeat existing ones with the same type.
      std::vector<AttributeDefinition> given;
      for (const auto& a : *r.attribute_definitions) {
        if (!a.attribute_name || !a.attribute_type || !parse_scalar_type(*a.attribute_type)) continue;
        given.push_back({*a.attribute_name, *parse_scalar_type(*a.attribute_type)});
      }
      IndexSchema index;
      index.name = name;
      index.key = check_global_index_key(*raw.key_schema, given, *r.attribute_definitions);
      for (const auto& [elements, key_type] :
           {std::pair{index.key.partition_elements(), "HASH"}, {index.key.sort_elements(), "RANGE"}}) {
        for (const KeyElement* k : elements) {
          const AttributeDefinition* existing = table.find_attribute(k->name);
          if (existing != nullptr && existing->type != k->type) {
            throw ApiError::invalid_parameter(
                "Attributes cannot be redefined. Please check that your attribute has the same type as previously "
                "defined. Existing schema: Schema:[" +
                schema_element(k->name, existing->type, key_type) + "] New schema: Schema:[" +
                schema_element(k->name, k->type, key_type) + "]");
          }
          if (existing == nullptr) out.new_definitions.push_back({k->name, k->type});
        }
      }
      index.projection = check_projection(*raw.projection);
      if (mode == BillingMode::PayPerRequest) {
        if (raw.throughput) {
          throw ApiError::invalid_parameter(
              "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for "
              "index: " +
              name + " when BillingMode is PAY_PER_REQUEST");
        }
      } else {
        if (!raw.throughput) {
          throw ApiError::invalid_parameter(
              "Both ReadCapacityUnits and WriteCapacityUnits must be specified for index: " + name);
        }
        check_throughput_bounds(*raw.throughput);
        Throughput t;
        t.read_units = *raw.throughput->read_units;
        t.write_units = *raw.throughput->write_units;
        index.throughput = t;
      }
      if (raw.on_demand) index.on_demand_maximum = checked_on_demand(*raw.on_demand, mode, name, {});
      if (raw.warm) index.warm = checked_index_warm(*raw.warm, {});
      index.status = IndexStatus::Creating;
      out.create = std::move(index);
    }
  }
  // (After each entry's own checks: DynamoDB Local names an index's missing definitions first.)
  if (creates_or_deletes > 0 && r.throughput) {
    throw ApiError::invalid_parameter("You cannot create or delete index while updating table IOPS");
  }
  return out;
}

}  // namespace dynamod
