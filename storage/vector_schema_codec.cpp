#include "storage/vector_schema_codec.h"

namespace dynamod {

void write_vector_indexes(JsonWriter& w, const std::vector<VectorIndexSchema>& indexes) {
  if (indexes.empty()) return;
  w.key("vector_indexes");
  w.begin_array();
  for (const auto& i : indexes) {
    w.begin_object();
    w.key("name");
    w.string(i.name);
    w.key("id");
    w.unsigned_integer(i.id);
    w.key("attribute");
    w.string(i.attribute);
    w.key("dimensions");
    w.integer(i.dimensions);
    w.key("distance");
    w.integer(static_cast<int>(i.distance));
    w.key("search_schema");
    w.begin_array();
    for (const auto& e : i.search_schema) {
      w.begin_object();
      w.key("name");
      w.string(e.name);
      w.key("role");
      w.integer(static_cast<int>(e.role));
      w.key("type");
      w.integer(static_cast<int>(e.type));
      w.end_object();
    }
    w.end_array();
    w.key("projection");
    w.integer(static_cast<int>(i.projection.type));
    w.key("non_key");
    w.begin_array();
    for (const auto& name : i.projection.non_key_attributes) w.string(name);
    w.end_array();
    w.key("status");
    w.integer(static_cast<int>(i.status));
    w.key("backfilling");
    w.boolean(i.backfilling);
    w.end_object();
  }
  w.end_array();
}

std::vector<VectorIndexSchema> read_vector_indexes(simdjson::dom::object schema) {
  std::vector<VectorIndexSchema> out;
  simdjson::dom::element list;
  if (schema["vector_indexes"].get(list) != simdjson::SUCCESS) return out;
  for (simdjson::dom::object o : simdjson::dom::array(list)) {
    VectorIndexSchema i;
    i.name = std::string(std::string_view(o["name"]));
    i.id = static_cast<std::uint32_t>(std::int64_t(o["id"]));
    i.attribute = std::string(std::string_view(o["attribute"]));
    i.dimensions = std::int64_t(o["dimensions"]);
    i.distance = static_cast<DistanceFunction>(std::int64_t(o["distance"]));
    for (simdjson::dom::object e : simdjson::dom::array(o["search_schema"])) {
      i.search_schema.push_back({std::string(std::string_view(e["name"])),
                                 static_cast<SearchSchemaRole>(std::int64_t(e["role"])),
                                 static_cast<ScalarType>(std::int64_t(e["type"]))});
    }
    i.projection.type = static_cast<ProjectionType>(std::int64_t(o["projection"]));
    for (std::string_view name : simdjson::dom::array(o["non_key"])) i.projection.non_key_attributes.emplace_back(name);
    i.status = static_cast<IndexStatus>(std::int64_t(o["status"]));
    i.backfilling = bool(o["backfilling"]);
    out.push_back(std::move(i));
  }
  return out;
}

}  // namespace dynamod
