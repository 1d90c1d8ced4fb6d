#pragma once
// The shape of a request for the access-pattern report: its operation, the
// table or index it reads, and its key condition with each value reduced to
// its prefix, so that "USER#42" and "USER#97" count as one pattern:
//   Query GSI1: GSI1PK = STATUS#* AND begins_with(GSI1SK, …)
//   GetItem Orders: pk = USER#* AND sk = ORDER#*
//   Scan Orders (filter)

#include <optional>
#include <string>
#include <string_view>

#include "protocol/attribute_value.h"
#include "protocol/expr/key_condition.h"

namespace dynamod::metering {

// A key value reduced to what identifies its pattern: a string keeps its text
// up to the first separator (# : | /) and ends in '*' ("USER#*"); a string
// without one, a number or binary is '*'.
std::string reduced_value(const AttributeValue& value);

// `target` is the index name, or the table's for a table read.
std::string query_shape(std::string_view target, const expr::KeyCondition& key, bool filtered);
std::string scan_shape(std::string_view target, bool filtered);
// SearchVectors on `index`: the search schema's HASH value reduced (when the
// index has one), and whether inline filters narrowed it.
std::string vector_search_shape(std::string_view index, std::string_view hash_name, const AttributeValue* hash,
                                bool filtered);
// GetItem, PutItem, UpdateItem, DeleteItem and the members of batches and
// transactions: the operation and the item's key.
std::string item_shape(std::string_view operation, std::string_view table, std::string_view partition_name,
                       const AttributeValue& partition, std::string_view sort_name, const AttributeValue* sort);

}  // namespace dynamod::metering
