#pragma once
// The request side of injected faults (server/fault_rules): what a request
// names, read from its body only while some rule is active; and for a rule
// that holds back part of a batch, the batch without that part and the answer
// with it added to UnprocessedItems / UnprocessedKeys, as the service returns
// what it did not get to.

#include <optional>
#include <string>
#include <string_view>

#include "protocol/responses.h"
#include "server/fault_rules.h"
#include "storage/catalog.h"

namespace dynamod {

// Tables (TableName, the RequestItems of a batch, the items of a
// transaction), IndexName, the number of transaction items, and, with
// `with_keys`, the partition key values of the items named (their tables'
// key schemas from `catalog`). A body that is not JSON names nothing: the
// operation's own decoder reports it.
RequestFacts request_facts(std::string_view operation, std::string_view body, const Catalog& catalog,
                           std::string_view ns, const ArnContext& arn, bool with_keys);

struct BatchHoldback {
  std::string request_body;  // the batch without the held-back requests or keys
  std::string held;          // the UnprocessedItems / UnprocessedKeys member value for them
};

// Holds back the last `count` write requests (BatchWriteItem) or keys
// (BatchGetItem) of a batch, SIZE_MAX meaning half of them; never all of them
// (the service answers an entirely unprocessed batch with an error instead).
// nullopt when nothing can be held back.
std::optional<BatchHoldback> hold_back(std::string_view operation, std::string_view body, std::size_t count);

// The batch's answer with the held-back part added to its Unprocessed member.
std::string add_unprocessed(std::string_view operation, std::string_view answer, const BatchHoldback& held);

}  // namespace dynamod
