#pragma once
// TableSchema <-> the JSON stored in the catalog database. JSON keeps the
// catalog readable with mdb_dump; it is read once at startup and written only
// by table operations, so its cost does not matter.

#include <string>
#include <string_view>

#include "protocol/table_schema.h"

namespace dynamod {

std::string encode_schema(const TableSchema& schema);
TableSchema decode_schema(std::string_view json);

}  // namespace dynamod
