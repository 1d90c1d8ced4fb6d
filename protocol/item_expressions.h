#pragma once
// The expressions of one single-item request (condition, update, projection),
// from the expression parameters or their legacy equivalents, parsed and
// resolved once on the I/O thread, with the service's checks on how
// parameters may be combined.

#include <optional>
#include <vector>

#include "protocol/expr/ast.h"
#include "protocol/expr/path.h"
#include "protocol/item_requests.h"

namespace dynamod {

struct ItemExpressions {
  expr::Condition condition;                  // empty: unconditional
  std::optional<expr::UpdateActions> update;  // UpdateItem only
};

// Inside a transaction, ExpressionAttributeNames/Values without an expression
// are accepted (and ignored), as the service does.
ItemExpressions parse_put_or_delete_expressions(const WriteParameters& write, bool in_transaction = false);
ItemExpressions parse_update_expressions(const UpdateItemRequest& request, bool in_transaction = false);
// The paths GetItem returns; nullopt for the whole item.
std::optional<std::vector<expr::Path>> parse_get_projection(const GetItemRequest& request);

// PutItem and DeleteItem return the old item or nothing.
void check_put_or_delete_return_values(ReturnValues rv);

}  // namespace dynamod
