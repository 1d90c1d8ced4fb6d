#pragma once
// The longest attribute name an item may hold, checked on every write path.

#include <cstddef>
#include <string_view>

#include "protocol/attribute_value.h"
#include "protocol/expr/ast.h"

namespace dynamod {

// The developer guide's "64 KB": 65,535 bytes is the longest name the service takes.
inline constexpr std::size_t kMaxAttributeNameBytes = 65535;

// Refuses an item that holds a longer name at any level, with the service's
// ValidationException (measured on the service in 2026 for PutItem, nested map
// keys and the items UpdateItem leaves).
void check_attribute_names(const Item& item);

// The same check on what an update writes, made with the request's other
// checks, before the update is applied (so a transacted Update that names a
// long attribute ends the whole call, as a transacted Put does): the names on
// its SET and ADD paths and the maps inside the values it sets.
void check_update_names(const expr::UpdateActions& update);

// The service's text for a name past the limit (a transaction does not cancel on it).
inline constexpr std::string_view kAttributeNameTooLarge =
    "1 validation error detected: Attribute name is too large, must be less than 65536 bytes";

}  // namespace dynamod
