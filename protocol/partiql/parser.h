#pragma once
// The grammar of DynamoDB's PartiQL statements:
//   SELECT (* | path, ...) FROM table[.index] [WHERE cond] [ORDER BY path [ASC|DESC]]
//   INSERT INTO table VALUE {...}
//   UPDATE table (SET path = value, ... | REMOVE path)... [WHERE cond] [RETURNING ...]
//   FROM table [WHERE cond] (SET ... | REMOVE ...)... [RETURNING ...]
//   DELETE FROM table [WHERE cond] [RETURNING ...]
//   EXISTS(SELECT ...)
// Keywords are case-insensitive.

#include <string_view>

#include "protocol/partiql/ast.h"

namespace dynamod::partiql {

// Grammar errors are ValidationExceptions "Statement wasn't well formed,
// can't be processed: <detail>"; forms the service parses but refuses at once
// (aliases, FROM paths, DDL, SELECT VALUE, functions in a select list) get the
// service's own messages.
Statement parse(std::string_view statement);

}  // namespace dynamod::partiql
