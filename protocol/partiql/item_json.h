#pragma once
// An Item from DynamoDB JSON text this server rendered itself (a NextToken's
// key, an item read back to apply a select list).

#include <optional>
#include <string_view>

#include "protocol/attribute_value.h"

namespace dynamod::partiql {

// nullopt when the text is not a JSON object of valid AttributeValues.
std::optional<Item> parse_item_json(std::string_view json);

}  // namespace dynamod::partiql
