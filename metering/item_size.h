#pragma once
// DynamoDB's item size, the basis of every capacity unit: the UTF-8 bytes of
// each attribute name plus the size of its value (DYNAMODB-NOTES.md).

#include <cstdint>

#include "protocol/attribute_value.h"
#include "protocol/expr/ast.h"

namespace dynamod::metering {

std::uint64_t number_size(const Number& n);
std::uint64_t value_size(const AttributeValue& value);
std::uint64_t item_size(const Item& item);

// A standalone UpdateItem's second figure beside its finished item (the service, measured in
// August 2026): the names and values its SET and ADD actions write into `finished`, plus a
// fixed cost of 3 bytes and one per action (SET 19, a SET through a list index 20, REMOVE 2).
// The key and the attributes the update leaves alone are not in it.
std::uint64_t update_written_size(const expr::UpdateActions& actions, const Item& finished);

}  // namespace dynamod::metering
