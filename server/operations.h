#pragma once
// One handler per DynamoDB operation: decode the request, run it in storage/
// (reads here, writes on the writer thread), encode the answer.

#include <boost/asio.hpp>

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "protocol/json_reader.h"
#include "protocol/outcome.h"
#include "storage/scope.h"
#include "storage/store.h"
#include "storage/write_queue.h"

namespace dynamod {

// What a handler may use; filled by the Service for each request.
struct OperationContext {
  Store& store;
  WriteQueue& writer;
  Scope scope;
  std::function<double()> clock;             // epoch seconds
  std::function<std::string()> make_uuid;    // TableId
  std::string table_name;                    // for the request log line
};

// A handler's answer: the JSON body, or an error that is an expected outcome
// (a failed condition) returned as a value. Validation errors are thrown.
using Reply = Outcome<std::string>;

// A handler must read everything it needs from `body` before its first
// co_await (the JSON parser is reused afterwards).
using OperationHandler = boost::asio::awaitable<Reply> (*)(OperationContext& ctx, json::object body);

// The handler of "DynamoDB_20120810.<name>", or nullptr.
OperationHandler find_operation(std::string_view name);

}  // namespace dynamod
