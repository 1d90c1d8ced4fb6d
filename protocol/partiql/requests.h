#pragma once
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction requests,
// decoded in one pass with the service's constraint messages.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/consumed_capacity.h"
#include "protocol/json_reader.h"
#include "protocol/partiql/values.h"

namespace dynamod::partiql {

inline constexpr std::size_t kMaxStatementLength = 8192;  // characters
inline constexpr std::size_t kMaxBatchStatements = 25;
inline constexpr std::size_t kMaxTransactionStatements = 100;

// A statement and what the request adds to it. ConsistentRead is not part of
// a transaction's statements; ReturnValuesOnConditionCheckFailure is accepted
// but inert in a batch.
struct StatementRequest {
  std::string statement;
  Parameters parameters;
  bool consistent_read = false;
  bool return_old_on_condition_failure = false;
  // The first parameter that is no valid AttributeValue (an empty set, a bad
  // number...): refused once the statement has parsed, so that a statement
  // that does not parse is named first (DynamoDB Local).
  std::optional<ApiError> parameter_error;

  void check_parameters() const {
    if (parameter_error) throw *parameter_error;
  }
};

struct ExecuteStatementRequest {
  StatementRequest statement;
  std::optional<std::string> next_token;
  std::optional<std::int64_t> limit;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

struct BatchExecuteStatementRequest {
  std::vector<StatementRequest> statements;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

struct ExecuteTransactionRequest {
  std::vector<StatementRequest> statements;
  std::optional<std::string> client_request_token;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::None;
};

ExecuteStatementRequest decode_execute_statement(json::object body);
BatchExecuteStatementRequest decode_batch_execute_statement(json::object body);
ExecuteTransactionRequest decode_execute_transaction(json::object body);

}  // namespace dynamod::partiql
