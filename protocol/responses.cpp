#include "protocol/responses.h"

#include "protocol/attribute_json.h"
#include "protocol/capacity_settings.h"
#include "protocol/vector_index.h"

namespace dynamod {
namespace {

void write_throughput(JsonWriter& out, const Throughput& t) {
  out.begin_object();
  if (t.last_increase > 0) {
    out.key("LastIncreaseDateTime");
    out.real(t.last_increase);
  }
  if (t.last_decrease > 0) {
    out.key("LastDecreaseDateTime");
    out.real(t.last_decrease);
  }
  out.key("NumberOfDecreasesToday");
  out.integer(t.decreases_today);
  out.key("ReadCapacityUnits");
  out.integer(t.read_units);
  out.key("WriteCapacityUnits");
  out.integer(t.write_units);
  out.end_object();
}

// `global`: the table of a global index (null for a local one). `table_creating`: the CreateTable answer, whose
// CREATING indexes report no Backfilling; an index that UpdateTable creates does, false until its backfill starts
// (ACKQ, errors-indexes.md).
void write_index(JsonWriter& out, const IndexSchema& index, const TableSchema* global, const std::string& table_arn,
                 const IndexCounters& counters, bool table_creating = false) {
  out.begin_object();
  encode_index_definition(out, index);
  if (global) {
    out.key("IndexStatus");
    out.string(index_status_name(index.status));
    if (index.backfilling || (index.status == IndexStatus::Creating && !table_creating)) {
      out.key("Backfilling");
      out.boolean(index.backfilling);
    }
    out.key("ProvisionedThroughput");
    write_throughput(out, index.throughput.value_or(Throughput{}));
    if (global->billing_mode == BillingMode::PayPerRequest && index.on_demand_maximum) {
      encode_on_demand(out, *index.on_demand_maximum);
    }
    encode_warm(out, described_warm(index.warm, global->billing_mode, index.throughput ? &*index.throughput : nullptr),
                index_status_name(index.status));
  }
  auto it = counters.find(index.id);
  TableCounters c = it != counters.end() ? it->second : TableCounters{};
  out.key("IndexSizeBytes");
  out.integer(c.size_bytes);
  out.key("ItemCount");
  out.integer(c.item_count);
  out.key("IndexArn");
  out.string(table_arn + "/index/" + index.name);
  out.end_object();
}

void write_units(JsonWriter& out, double units, ConsumedCapacity::Detail detail) {
  out.key("CapacityUnits");
  out.real(units);
  if (detail == ConsumedCapacity::Detail::Read) {
    out.key("ReadCapacityUnits");
    out.real(units);
  } else if (detail == ConsumedCapacity::Detail::Write) {
    out.key("WriteCapacityUnits");
    out.real(units);
  }
}

void write_capacity_units(JsonWriter& out, double units, ConsumedCapacity::Detail detail) {
  out.begin_object();
  write_units(out, units, detail);
  out.end_object();
}

}  // namespace

void encode_key_schema(JsonWriter& out, const KeyDef& key) {
  out.begin_array();
  for (const auto& [elements, type] : {std::pair{key.partition_elements(), "HASH"}, {key.sort_elements(), "RANGE"}}) {
    for (const KeyElement* k : elements) {
      out.begin_object();
      out.key("AttributeName");
      out.string(k->name);
      out.key("KeyType");
      out.string(type);
      out.end_object();
    }
  }
  out.end_array();
}

void encode_projection(JsonWriter& out, const Projection& p) {
  out.begin_object();
  out.key("ProjectionType");
  out.string(projection_type_name(p.type));
  if (p.type == ProjectionType::Include) {
    out.key("NonKeyAttributes");
    out.begin_array();
    for (const auto& a : p.non_key_attributes) out.string(a);
    out.end_array();
  }
  out.end_object();
}

void encode_index_definition(JsonWriter& out, const IndexSchema& index) {
  out.key("IndexName");
  out.string(index.name);
  out.key("KeySchema");
  encode_key_schema(out, index.key);
  out.key("Projection");
  encode_projection(out, index.projection);
}

std::string table_arn(const ArnContext& arn, std::string_view table_name) {
  std::string out = "arn:aws:dynamodb:";
  out += arn.region;
  out += ':';
  out += arn.account_id;
  out += ":table/";
  out += table_name;
  return out;
}

void encode_table_description(JsonWriter& out, const TableSchema& s, const TableCounters& counters,
                              const IndexCounters& index_counters, const ArnContext& arn, DescriptionShape shape) {
  const std::string this_arn = table_arn(arn, s.name);
  const bool full = shape == DescriptionShape::Full;
  out.begin_object();
  if (full) {
    out.key("AttributeDefinitions");
    out.begin_array();
    for (const auto& a : s.attribute_definitions) {
      out.begin_object();
      out.key("AttributeName");
      out.string(a.name);
      out.key("AttributeType");
      out.string(scalar_type_name(a.type));
      out.end_object();
    }
    out.end_array();
  }
  out.key("TableName");
  out.string(s.name);
  if (full) {
    out.key("KeySchema");
    encode_key_schema(out, s.key);
  }
  out.key("TableStatus");
  out.string(table_status_name(s.status));
  if (full) {
    out.key("CreationDateTime");
    out.real(s.creation_time);
  }
  out.key("ProvisionedThroughput");
  write_throughput(out, s.throughput);
  out.key("TableSizeBytes");
  out.integer(counters.size_bytes);
  out.key("ItemCount");
  out.integer(counters.item_count);
  out.key("TableArn");
  out.string(this_arn);
  out.key("TableId");
  out.string(s.table_id);
  // Only a table that is or was on demand has one ("You may need to switch to on-demand mode at least
  // once in order to return a BillingModeSummary response": API_BillingModeSummary; DynamoDB Local).
  if (s.billing_mode == BillingMode::PayPerRequest || s.billing_mode_updated > 0) {
    out.key("BillingModeSummary");
    out.begin_object();
    out.key("BillingMode");
    out.string(billing_mode_name(s.billing_mode));
    if (s.billing_mode_updated > 0) {
      out.key("LastUpdateToPayPerRequestDateTime");
      out.real(s.billing_mode_updated);
    }
    out.end_object();
  }
  if (full && !s.local_indexes.empty()) {
    out.key("LocalSecondaryIndexes");
    out.begin_array();
    for (const auto& index : s.local_indexes) write_index(out, index, nullptr, this_arn, index_counters);
    out.end_array();
  }
  if (full && !s.global_indexes.empty()) {
    out.key("GlobalSecondaryIndexes");
    out.begin_array();
    for (const auto& index : s.global_indexes) {
      write_index(out, index, &s, this_arn, index_counters, s.status == TableStatus::Creating);
    }
    out.end_array();
  }
  if (full) encode_vector_index_descriptions(out, s, index_counters, this_arn);
  if (full && s.stream && s.stream->id != 0) {
    // A disabled stream leaves no StreamSpecification, only the Latest* members.
    if (s.stream->enabled) {
      out.key("StreamSpecification");
      out.begin_object();
      out.key("StreamEnabled");
      out.boolean(true);
      out.key("StreamViewType");
      out.string(stream_view_type_name(s.stream->view_type));
      out.end_object();
    }
    out.key("LatestStreamLabel");
    out.string(s.stream->label);
    out.key("LatestStreamArn");
    out.string(this_arn + "/stream/" + s.stream->label);
  }
  if (full && s.restore) {
    out.key("RestoreSummary");
    out.begin_object();
    if (!s.restore->source_backup_arn.empty()) {  // (a point-in-time restore has none)
      out.key("SourceBackupArn");
      out.string(s.restore->source_backup_arn);
    }
    out.key("SourceTableArn");
    out.string(s.restore->source_table_arn);
    out.key("RestoreDateTime");
    out.real(s.restore->restore_time);
    out.key("RestoreInProgress");
    // Set only in RestoreTableFromBackup's answer: the copy is done when it returns.
    out.boolean(s.status == TableStatus::Creating);
    out.end_object();
  }
  if (full && s.table_class) {
    out.key("TableClassSummary");
    out.begin_object();
    out.key("TableClass");
    out.string(table_class_name(*s.table_class));
    out.end_object();
  }
  if (full && !s.sse_kms_key.empty())
    encode_sse_description(out, kms_key_arn(s.sse_kms_key, arn.region, arn.account_id));
  if (full && s.billing_mode == BillingMode::PayPerRequest && s.on_demand_maximum) {
    encode_on_demand(out, *s.on_demand_maximum);
  }
  if (full) encode_warm(out, described_warm(s.warm, s.billing_mode, &s.throughput), table_status_name(s.status));
  out.key("DeletionProtectionEnabled");
  out.boolean(s.deletion_protection);
  out.end_object();
}

void encode_consumed_capacity_object(JsonWriter& out, const ConsumedCapacity& c, ReturnConsumedCapacity mode) {
  out.begin_object();
  out.key("TableName");
  out.string(c.table_name);
  write_units(out, c.total(), c.detail);
  if (mode == ReturnConsumedCapacity::Indexes) {
    out.key("Table");
    write_capacity_units(out, c.table_units(), c.detail);
    if (!c.local_indexes.empty()) {
      out.key("LocalSecondaryIndexes");
      out.begin_object();
      for (const auto& i : c.local_indexes) {
        out.key(i.index_name);
        write_capacity_units(out, i.total(), c.detail);
      }
      out.end_object();
    }
    if (!c.global_indexes.empty()) {
      out.key("GlobalSecondaryIndexes");
      out.begin_object();
      for (const auto& i : c.global_indexes) {
        out.key(i.index_name);
        write_capacity_units(out, i.total(), c.detail);
      }
      out.end_object();
    }
    if (!c.vector_indexes.empty()) {
      out.key("VectorIndexes");
      out.begin_object();
      for (const auto& i : c.vector_indexes) {
        out.key(i.index_name);
        out.begin_object();
        out.key("VectorWriteRequestBytes");
        out.real(i.write_bytes);
        out.end_object();
      }
      out.end_object();
    }
  }
  out.end_object();
}

void encode_item_collection_metrics(JsonWriter& out, const ItemCollectionMetrics& metrics) {
  out.begin_object();
  out.key("ItemCollectionKey");
  encode_item(out, metrics.key);
  out.key("SizeEstimateRangeGB");
  out.begin_array();
  out.real(metrics.lower_gb);
  out.real(metrics.upper_gb);
  out.end_array();
  out.end_object();
}

void encode_consumed_capacity(JsonWriter& out, const ConsumedCapacity& consumed, ReturnConsumedCapacity mode) {
  if (mode == ReturnConsumedCapacity::None) return;
  out.key("ConsumedCapacity");
  encode_consumed_capacity_object(out, consumed, mode);
}

void encode_consumed_capacity_list(JsonWriter& out, const std::vector<ConsumedCapacity>& consumed,
                                   ReturnConsumedCapacity mode) {
  if (mode == ReturnConsumedCapacity::None) return;
  out.key("ConsumedCapacity");
  out.begin_array();
  for (const auto& c : consumed) encode_consumed_capacity_object(out, c, mode);
  out.end_array();
}

}  // namespace dynamod
