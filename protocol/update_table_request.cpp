// UpdateTable's request: decoding, its checks on its own, then against the table.

#include <algorithm>
#include <set>

#include "protocol/table_request_fields.h"
#include "protocol/table_requests.h"
#include "protocol/vector_index.h"

namespace dynamod {
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
      std::optional<RawOnDemandThroughput> on_demand;
      std::optional<RawWarmThroughput> warm;
      for (auto member : json::read_object(value)) {
        std::string_view mkey = member.unescaped_key().value();
        json::value m = member.value();
        if (mkey == "IndexName") name = read_optional_string(m);
        else if (mkey == "ProvisionedThroughput") throughput = decode_raw_throughput(m);
        else if (mkey == "OnDemandThroughput") on_demand = decode_raw_on_demand(m);
        else if (mkey == "WarmThroughput") warm = decode_raw_warm(m);
      }
      if (key == "Delete") {
        u.delete_name = name.value_or("");
      } else {
        u.update_name = name.value_or("");
        u.update_throughput = throughput;
        u.update_on_demand = on_demand;
        u.update_warm = warm;
      }
    }
  }
  return u;
}

}  // namespace

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
    } else if (key == "OnDemandThroughput") {
      r.on_demand = decode_raw_on_demand(value);
    } else if (key == "WarmThroughput") {
      r.warm = decode_raw_warm(value);
    } else if (key == "SSESpecification") {
      r.sse = decode_raw_sse(value);
    } else if (json::is_null(value)) {
      continue;
    } else if (key == "ReplicaUpdates" || key == "MultiRegionConsistency") {
      r.has_other_unsupported = true;
      r.unsupported_parameter = std::string(key);
    }
  }
  return r;
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
  if (r.sse) check_sse_constraints(*r.sse, errors);
  if (r.warm) check_warm_constraints(*r.warm, "warmThroughput", errors);
  if (r.index_updates) {
    for (std::size_t i = 0; i < r.index_updates->size(); ++i) {
      const RawIndexUpdate& u = (*r.index_updates)[i];
      if (u.update_warm) {
        check_warm_constraints(*u.update_warm,
                               "globalSecondaryIndexUpdates." + std::to_string(i + 1) + ".member.update.warmThroughput",
                               errors);
      }
    }
  }
  errors.throw_if_any();
  if (r.has_other_unsupported) throw ApiError::validation("dynamod does not support " + r.unsupported_parameter);
  bool index_changes =
      (r.index_updates && !r.index_updates->empty()) || (r.vector_index_updates && !r.vector_index_updates->empty());
  if (!has_table_changes(r) && !index_changes) {
    throw ApiError::validation(
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, "
        "SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, "
        "DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput, GlobalTableWitnessUpdates or TableClass is "
        "required");
  }
}

bool has_table_changes(const UpdateTableRequest& r) {
  return r.billing_mode || r.throughput || r.table_class || r.deletion_protection || r.stream || r.on_demand ||
         r.warm || r.sse;
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
    update.table_class = *r.table_class == "STANDARD" ? TableClass::Standard : TableClass::StandardInfrequentAccess;
  }
  update.deletion_protection = r.deletion_protection;
  if (r.on_demand) update.on_demand_maximum = checked_on_demand(*r.on_demand, mode, "", current.on_demand_maximum);
  if (r.warm) {
    update.warm = checked_table_warm(*r.warm, described_warm(current.warm, current.billing_mode, &current.throughput));
  }
  if (r.sse) update.sse_key = checked_sse_key(*r.sse);
  if (r.stream) {
    if (!r.stream->enabled) {
      throw ApiError::validation(
          "1 validation error detected: Value null at 'streamSpecification.streamEnabled' "
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

}  // namespace dynamod
