#pragma once
// Applying UpdateExpression / AttributeUpdates actions to an item.

#include "protocol/expr/ast.h"

namespace dynamod::expr {

// Applies the actions to a copy of `old_item` (null: the item does not exist,
// start from an empty item; the caller adds the key). All SET values are
// computed from the old item first, as DynamoDB does; list indexes refer to
// the old item too (REMOVE a[1], a[2] removes the old second and third
// elements). Throws the service's ValidationException for type errors,
// missing operands, invalid document paths and number overflow; of several,
// the one the service names.
Item apply_update(const UpdateActions& u, const Item* old_item);

// The parts of `item` at the paths the actions touched, nested as in the item
// (for ReturnValues UPDATED_OLD / UPDATED_NEW).
Item updated_attributes(const UpdateActions& u, const Item& item);

}  // namespace dynamod::expr
