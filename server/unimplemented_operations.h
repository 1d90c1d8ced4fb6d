#pragma once
// Operations of DynamoDB's service model that dynamod does not implement
// (global tables, Kinesis streaming destinations, replica auto scaling).
// They answer UnknownOperationException with a message naming them, so that a
// user sees at once what is missing rather than a bare "unknown operation".

#include <optional>
#include <string>
#include <string_view>

namespace dynamod {

// The message for an operation of the model dynamod leaves out, or nullopt
// for any other name.
std::optional<std::string> unimplemented_operation_message(std::string_view operation);

}  // namespace dynamod
