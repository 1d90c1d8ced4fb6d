#pragma once
// DynamoDB's item size, the basis of every capacity unit: the UTF-8 bytes of
// each attribute name plus the size of its value (DYNAMODB-NOTES.md).

#include <cstdint>

#include "protocol/attribute_value.h"

namespace dynamod::metering {

std::uint64_t number_size(const Number& n);
std::uint64_t value_size(const AttributeValue& value);
std::uint64_t item_size(const Item& item);

}  // namespace dynamod::metering
