#pragma once
// A table's vector indexes in the catalog's schema JSON (storage/schema_codec),
// under "vector_indexes"; absent in catalogs written before vector indexes.

#include <simdjson.h>

#include <vector>

#include "protocol/json_writer.h"
#include "protocol/table_schema.h"

namespace dynamod {

void write_vector_indexes(JsonWriter& w, const std::vector<VectorIndexSchema>& indexes);
std::vector<VectorIndexSchema> read_vector_indexes(simdjson::dom::object schema);

}  // namespace dynamod
