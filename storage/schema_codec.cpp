#include "storage/schema_codec.h"

#include <simdjson.h>

#include <stdexcept>

#include "protocol/json_writer.h"
#include "storage/capacity_settings_codec.h"
#include "storage/vector_schema_codec.h"

namespace dynamod {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

// Key elements and attribute definitions are both {"name", "type"}.
void write_name_and_type(JsonWriter& w, std::string_view name, ScalarType type) {
  w.begin_object();
  w.key("name");
  w.string(name);
  w.key("type");
  w.integer(static_cast<int>(type));
  w.end_object();
}

void write_key(JsonWriter& w, const KeyDef& key) {
  w.begin_object();
  w.key("partition");
  write_key_element(w, key.partition);
  if (key.sort) {
    w.key("sort");
    write_key_element(w, *key.sort);
  }
  // A multi-attribute key's further attributes; tables written before them have none.
  for (const auto& [name, elements] :
       {std::pair{"more_partition", &key.more_partition}, {"more_sort", &key.more_sort}}) {
    if (elements->empty()) continue;
    w.key(name);
    w.begin_array();
    for (const KeyElement& k : *elements) write_key_element(w, k);
    w.end_array();
  }
  w.end_object();
}

void write_throughput(JsonWriter& w, const Throughput& t) {
  w.begin_object();
  w.key("read");
  w.integer(t.read_units);
  w.key("write");
  w.integer(t.write_units);
  w.key("last_increase");
  w.real(t.last_increase);
  w.key("last_decrease");
  w.real(t.last_decrease);
  w.key("decreases_today");
  w.integer(t.decreases_today);
  w.end_object();
}

void write_insights(JsonWriter& w, const ContributorInsights& c) {
  w.key("insights");
  w.begin_object();
  w.key("status");
  w.integer(static_cast<int>(c.status));
  w.key("mode");
  w.integer(static_cast<int>(c.mode));
  w.key("updated");
  w.real(c.last_update);
  w.key("rules_ms");
  w.integer(c.rules_created_ms);
  w.end_object();
}

void write_index(JsonWriter& w, const IndexSchema& index) {
  w.begin_object();
  w.key("name");
  w.string(index.name);
  w.key("id");
  w.unsigned_integer(index.id);
  w.key("key");
  write_key(w, index.key);
  w.key("projection");
  w.integer(static_cast<int>(index.projection.type));
  w.key("non_key_attributes");
  w.begin_array();
  for (const auto& a : index.projection.non_key_attributes) w.string(a);
  w.end_array();
  if (index.throughput) {
    w.key("throughput");
    write_throughput(w, *index.throughput);
  }
  w.key("status");
  w.integer(static_cast<int>(index.status));
  w.key("backfilling");
  w.boolean(index.backfilling);
  if (index.contributor_insights) write_insights(w, *index.contributor_insights);
  write_capacity_settings(w, index.on_demand_maximum, index.warm);
  w.end_object();
}

std::string_view get_string(const object& o, const char* name) { return std::string_view(o[name]); }
std::int64_t get_int(const object& o, const char* name) { return std::int64_t(o[name]); }
double get_double(const object& o, const char* name) { return double(o[name]); }

KeyDef read_key(const object& o) {
  KeyDef key;
  key.partition = read_key_element(o["partition"]);
  element sort;
  if (o["sort"].get(sort) == simdjson::SUCCESS) key.sort = read_key_element(sort);
  for (const auto& [name, elements] :
       {std::pair{"more_partition", &key.more_partition}, {"more_sort", &key.more_sort}}) {
    simdjson::dom::array list;
    if (o[name].get(list) != simdjson::SUCCESS) continue;
    for (element k : list) elements->push_back(read_key_element(k));
  }
  return key;
}

Throughput read_throughput(const object& o) {
  Throughput t;
  t.read_units = get_int(o, "read");
  t.write_units = get_int(o, "write");
  t.last_increase = get_double(o, "last_increase");
  t.last_decrease = get_double(o, "last_decrease");
  t.decreases_today = get_int(o, "decreases_today");
  return t;
}

std::optional<ContributorInsights> read_insights(const object& o) {
  element insights;
  if (o["insights"].get(insights) != simdjson::SUCCESS) return std::nullopt;
  object io = insights;
  return ContributorInsights{static_cast<ContributorInsightsStatus>(get_int(io, "status")),
                             static_cast<ContributorInsightsMode>(get_int(io, "mode")), get_double(io, "updated"),
                             get_int(io, "rules_ms")};
}

IndexSchema read_index(const object& o) {
  IndexSchema index;
  index.name = std::string(get_string(o, "name"));
  index.id = static_cast<std::uint32_t>(get_int(o, "id"));
  index.key = read_key(o["key"]);
  index.projection.type = static_cast<ProjectionType>(get_int(o, "projection"));
  for (element a : simdjson::dom::array(o["non_key_attributes"])) {
    index.projection.non_key_attributes.emplace_back(std::string_view(a));
  }
  element throughput;
  if (o["throughput"].get(throughput) == simdjson::SUCCESS) index.throughput = read_throughput(throughput);
  index.status = static_cast<IndexStatus>(get_int(o, "status"));
  index.backfilling = bool(o["backfilling"]);
  index.contributor_insights = read_insights(o);
  read_capacity_settings(o, index.on_demand_maximum, index.warm);
  return index;
}

}  // namespace

void write_key_element(JsonWriter& w, const KeyElement& k) { write_name_and_type(w, k.name, k.type); }

KeyElement read_key_element(simdjson::dom::object o) {
  return KeyElement{std::string(get_string(o, "name")), static_cast<ScalarType>(get_int(o, "type"))};
}

std::string encode_schema(const TableSchema& s) {
  JsonWriter w;
  w.begin_object();
  w.key("name");
  w.string(s.name);
  w.key("id");
  w.unsigned_integer(s.id);
  w.key("index_key_format");
  w.unsigned_integer(s.index_key_format);
  w.key("table_id");
  w.string(s.table_id);
  w.key("region");
  w.string(s.region);
  w.key("creation_time");
  w.real(s.creation_time);
  w.key("key");
  write_key(w, s.key);
  w.key("attribute_definitions");
  w.begin_array();
  for (const auto& a : s.attribute_definitions) write_name_and_type(w, a.name, a.type);
  w.end_array();
  w.key("billing_mode");
  w.integer(static_cast<int>(s.billing_mode));
  w.key("billing_mode_updated");
  w.real(s.billing_mode_updated);
  w.key("throughput");
  write_throughput(w, s.throughput);
  w.key("global_indexes");
  w.begin_array();
  for (const auto& i : s.global_indexes) write_index(w, i);
  w.end_array();
  w.key("local_indexes");
  w.begin_array();
  for (const auto& i : s.local_indexes) write_index(w, i);
  w.end_array();
  write_vector_indexes(w, s.vector_indexes);
  if (s.table_class) {
    w.key("table_class");
    w.integer(static_cast<int>(*s.table_class));
  }
  w.key("deletion_protection");
  w.boolean(s.deletion_protection);
  write_capacity_settings(w, s.on_demand_maximum, s.warm);
  if (!s.sse_kms_key.empty()) {
    w.key("sse_kms_key");
    w.string(s.sse_kms_key);
  }
  if (s.stream) {
    w.key("stream");
    w.begin_object();
    w.key("enabled");
    w.boolean(s.stream->enabled);
    w.key("view_type");
    w.integer(static_cast<int>(s.stream->view_type));
    w.key("id");
    w.unsigned_integer(s.stream->id);
    w.key("label");
    w.string(s.stream->label);
    w.end_object();
  }
  w.key("pitr");
  w.begin_object();
  w.key("enabled");
  w.boolean(s.point_in_time_recovery.enabled);
  w.key("days");
  w.integer(s.point_in_time_recovery.recovery_period_days);
  w.key("since");
  w.real(s.point_in_time_recovery.enabled_at);
  w.end_object();
  if (s.ttl) {
    w.key("ttl");
    w.begin_object();
    w.key("attribute");
    w.string(s.ttl->attribute);
    w.key("enabled");
    w.boolean(s.ttl->enabled);
    w.key("changed_ms");
    w.integer(s.ttl->changed_ms);
    w.end_object();
  }
  w.key("tags");
  w.begin_array();
  for (const auto& t : s.tags) {
    w.begin_object();
    w.key("key");
    w.string(t.key);
    w.key("value");
    w.string(t.value);
    w.end_object();
  }
  w.end_array();
  if (s.contributor_insights) write_insights(w, *s.contributor_insights);
  if (!s.resource_policies.empty()) {
    w.key("policies");
    w.begin_array();
    for (const auto& p : s.resource_policies) {
      w.begin_object();
      w.key("stream");
      w.string(p.stream_label);
      w.key("document");
      w.string(p.document);
      w.key("revision");
      w.string(p.revision_id);
      w.key("changed_ms");
      w.integer(p.changed_ms);
      w.end_object();
    }
    w.end_array();
  }
  if (s.restore) {
    w.key("restore");
    w.begin_object();
    w.key("backup_arn");
    w.string(s.restore->source_backup_arn);
    w.key("table_arn");
    w.string(s.restore->source_table_arn);
    w.key("time");
    w.real(s.restore->restore_time);
    w.end_object();
  }
  w.key("status");
  w.integer(static_cast<int>(s.status));
  w.end_object();
  return w.take();
}

TableSchema decode_schema(std::string_view json) {
  simdjson::dom::parser parser;
  try {
    object o = parser.parse(simdjson::padded_string(json));
    TableSchema s;
    s.name = std::string(get_string(o, "name"));
    s.id = static_cast<std::uint32_t>(get_int(o, "id"));
    element key_format;  // absent in catalogs written before format 2
    if (o["index_key_format"].get(key_format) == simdjson::SUCCESS) {
      s.index_key_format = static_cast<std::uint32_t>(std::int64_t(key_format));
    }
    s.table_id = std::string(get_string(o, "table_id"));
    s.region = std::string(get_string(o, "region"));
    s.creation_time = get_double(o, "creation_time");
    s.key = read_key(o["key"]);
    for (element a : simdjson::dom::array(o["attribute_definitions"])) {
      KeyElement definition = read_key_element(a);  // the same {name, type} object
      s.attribute_definitions.push_back({std::move(definition.name), definition.type});
    }
    s.billing_mode = static_cast<BillingMode>(get_int(o, "billing_mode"));
    s.billing_mode_updated = get_double(o, "billing_mode_updated");
    s.throughput = read_throughput(o["throughput"]);
    for (element i : simdjson::dom::array(o["global_indexes"])) s.global_indexes.push_back(read_index(i));
    for (element i : simdjson::dom::array(o["local_indexes"])) s.local_indexes.push_back(read_index(i));
    s.vector_indexes = read_vector_indexes(o);
    element table_class;
    if (o["table_class"].get(table_class) == simdjson::SUCCESS) {
      s.table_class = static_cast<TableClass>(std::int64_t(table_class));
    }
    s.deletion_protection = bool(o["deletion_protection"]);
    read_capacity_settings(o, s.on_demand_maximum, s.warm);
    element sse_key;
    if (o["sse_kms_key"].get(sse_key) == simdjson::SUCCESS) s.sse_kms_key = std::string(std::string_view(sse_key));
    element stream;
    if (o["stream"].get(stream) == simdjson::SUCCESS) {
      object so = stream;
      s.stream = StreamSpec{bool(so["enabled"]), static_cast<StreamViewType>(get_int(so, "view_type")),
                            static_cast<std::uint32_t>(get_int(so, "id")), std::string(get_string(so, "label"))};
    }
    element pitr;
    if (o["pitr"].get(pitr) == simdjson::SUCCESS) {
      object po = pitr;
      s.point_in_time_recovery = PointInTimeRecovery{bool(po["enabled"]), get_int(po, "days"), get_double(po, "since")};
    }
    element ttl;
    if (o["ttl"].get(ttl) == simdjson::SUCCESS) {
      object to = ttl;
      s.ttl = TimeToLive{std::string(get_string(to, "attribute")), bool(to["enabled"]), get_int(to, "changed_ms")};
    }
    for (element t : simdjson::dom::array(o["tags"])) {
      object to = t;
      s.tags.push_back({std::string(get_string(to, "key")), std::string(get_string(to, "value"))});
    }
    s.contributor_insights = read_insights(o);
    element policies;
    if (o["policies"].get(policies) == simdjson::SUCCESS) {
      for (element p : simdjson::dom::array(policies)) {
        object po = p;
        s.resource_policies.push_back({std::string(get_string(po, "stream")), std::string(get_string(po, "document")),
                                       std::string(get_string(po, "revision")), get_int(po, "changed_ms")});
      }
    }
    element restore;
    if (o["restore"].get(restore) == simdjson::SUCCESS) {
      object ro = restore;
      s.restore = RestoreSummary{std::string(get_string(ro, "backup_arn")), std::string(get_string(ro, "table_arn")),
                                 get_double(ro, "time")};
    }
    s.status = static_cast<TableStatus>(get_int(o, "status"));
    return s;
  } catch (const simdjson::simdjson_error& e) {
    throw std::runtime_error(std::string("corrupt catalog entry: ") + e.what());
  }
}

}  // namespace dynamod
