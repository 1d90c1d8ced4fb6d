#pragma once
// What a request names for the fault rules of its operation
// (server/fault_rules): read from the body the request's handler reads
// afterwards, so that the body is parsed once for both. Only requests whose
// operation some rule names come here.
//
// Tables: TableName, the RequestItems of a batch, the items of a
// transaction, the table of each PartiQL statement. IndexName (or a PartiQL
// statement's "table"."index"). With `with_keys`, the partition key values
// the request fixes: the Key or Item of an item operation, a batch or a
// transaction; a Query's partition key equality (KeyConditionExpression or
// KeyConditions, on the table or through its index); a PartiQL statement's
// WHERE pk = 'x' / pk = ? and INSERT's item. A Scan fixes none. A body that
// does not name these as the operation expects names nothing: the
// operation's own decoder reports it.

#include <string_view>

#include "protocol/json_reader.h"
#include "protocol/responses.h"
#include "server/fault_rules.h"
#include "storage/catalog.h"

namespace dynamod {

struct FactsContext {
  const Catalog& catalog;  // the tables' key schemas, for their partition keys
  std::string_view ns;
  ArnContext arn;
};

// Reads `body` as far as it needs; the caller rewinds the document before
// the handler reads it.
RequestFacts request_facts(std::string_view operation, json::object& body, const FactsContext& context, bool with_keys);

}  // namespace dynamod
