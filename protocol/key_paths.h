#pragma once
// The paths a request's expressions read or write, and DynamoDB's rule that a
// key attribute is only ever read or written whole.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/expr/ast.h"
#include "protocol/table_schema.h"

namespace dynamod {

using PathList = std::vector<const expr::Path*>;

// Every path a condition (ConditionExpression, FilterExpression,
// KeyConditionExpression) reads, in order of appearance.
void collect_paths(const expr::Condition& condition, PathList& out);

// A path into a key attribute ("pk.a", "gsk[0]") is refused. The service looks
// at the key attributes in a fixed order, whatever the order of the paths: the
// table's partition and sort key ("... Key: pk"), then each local index's sort
// key and each global index's keys ("... IndexKey: gsk").
void check_whole_key_paths(const TableSchema& table, const PathList& paths);

// Whether `e` is that refusal ("... Key: pk", "... IndexKey: gsk").
bool is_key_path_error(const ApiError& e);

// The refusal's text naming `key` ("Key: pk", or PartiQL EXISTS's "Key pk").
std::string key_path_message(std::string_view key);

// The same check on a condition or a projection, made before anything else
// about the key or the item (an update's own paths are checked once its
// condition has passed). Of several expressions, the service checks each in
// the order it reads them (a Query: filter, projection, key condition).
void check_read_key_paths(const TableSchema& table, const expr::Condition& condition);
void check_read_key_paths(const TableSchema& table, const std::optional<std::vector<expr::Path>>& projection);
// The check on an update's own paths: what it writes and what its SET actions read.
void check_update_key_paths(const TableSchema& table, const expr::UpdateActions& actions);

}  // namespace dynamod
