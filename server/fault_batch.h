#pragma once
// The batch side of injected faults (server/fault_rules): for a rule that
// holds back part of a batch, the batch without that part and the answer with
// it added to UnprocessedItems / UnprocessedKeys, as the service returns what
// it did not get to.

#include <optional>
#include <string>
#include <string_view>

namespace dynamod {

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
