#pragma once
// The KeySchema of a global secondary index, which since November 2025 may be
// a multi-attribute key: one to four partition-key (HASH) attributes, then
// zero to four sort-key (RANGE) attributes, each with its own type.

#include <vector>

#include "protocol/table_requests.h"
#include "protocol/table_schema.h"

namespace dynamod {

// Whether a KeySchema asks for a multi-attribute key: more than two
// elements, or two HASH elements. Any other is checked as a table's.
bool is_multi_attribute_key_schema(const std::vector<RawKeyElement>& key_schema);

// A global index's key: a multi-attribute one checked by its own rules, with
// the messages of DynamoDB Local 3.3 (the documentation gives the rules, not
// the messages), any other by check_key_structure.
KeyDef check_global_index_key(const std::vector<RawKeyElement>& key_schema,
                              const std::vector<AttributeDefinition>& definitions,
                              const std::vector<RawAttributeDefinition>& raw_definitions);

}  // namespace dynamod
