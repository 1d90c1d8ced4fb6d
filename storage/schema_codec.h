#pragma once
// TableSchema <-> the JSON stored in the catalog database. JSON keeps the
// catalog readable with mdb_dump; it is read once at startup and written only
// by table operations, so its cost does not matter.

#include <simdjson.h>

#include <string>
#include <string_view>

#include "protocol/json_writer.h"
#include "protocol/table_schema.h"

namespace dynamod {

std::string encode_schema(const TableSchema& schema);
TableSchema decode_schema(std::string_view json);

// A key attribute as the catalog writes it, {"name": ..., "type": ...}; the
// stream descriptors (storage/streams) keep their keys in the same form.
void write_key_element(JsonWriter& w, const KeyElement& k);
KeyElement read_key_element(simdjson::dom::object o);

}  // namespace dynamod
