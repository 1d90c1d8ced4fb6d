#include "protocol/partiql/requests.h"

#include "protocol/attribute_json.h"
#include "protocol/item_requests.h"
#include "protocol/utf8.h"

namespace dynamod::partiql {
namespace {

// The service's member order, which orders its constraint messages (between
// ReturnConsumedCapacity and ReturnValuesOnConditionCheckFailure, ranked by
// item_requests.h, comes Limit).
enum Rank : int {
  kRankStatements = 0,
  kRankStatement = 1,
  kRankToken = 2,
  kRankLimit = decode::kRankConsumedCapacity + 1
};

// A malformed value (of the wrong JSON type) fails the request at once; a
// value the service refuses is kept for StatementRequest::check_parameters.
void decode_parameters(json::value& v, StatementRequest& r) {
  if (json::is_null(v)) return;
  for (auto element : json::read_array(v)) {
    json::value value = element.value();
    try {
      r.parameters.push_back(decode_attribute_value(value));
    } catch (ApiError& e) {
      if (e.code() != ErrorCode::ValidationException) throw;
      if (!r.parameter_error) r.parameter_error = std::move(e);
    }
  }
}

// Statement, Parameters, ConsistentRead, ReturnValuesOnConditionCheckFailure:
// false if `key` is none of them.
bool statement_member(std::string_view key, json::value& value, StatementRequest& r, std::optional<std::string>& text,
                      ConstraintErrors& errors) {
  if (key == "Statement") {
    text = decode::optional_string(value);
  } else if (key == "Parameters") {
    decode_parameters(value, r);
  } else if (key == "ConsistentRead") {
    r.consistent_read = decode::optional_bool(value);
  } else if (key == "ReturnValuesOnConditionCheckFailure") {
    r.return_old_on_condition_failure = decode::return_values_on_condition_failure(value, errors);
  } else {
    return false;
  }
  return true;
}

// An empty statement is left to the parser ("not well formed"), as the service does.
void check_statement(const std::optional<std::string>& text, const std::string& path, ConstraintErrors& errors) {
  if (!text) {
    errors.add_null(path, "Member must not be null", kRankStatement);
  } else if (code_points(*text) > kMaxStatementLength) {
    errors.add(*text, path, "Member must have length less than or equal to 8192", kRankStatement);
  }
}

std::vector<StatementRequest> decode_statements(json::value& v, std::string_view member, ConstraintErrors& errors) {
  std::vector<StatementRequest> out;
  if (json::is_null(v)) return out;
  for (auto element : json::read_array(v)) {
    json::value item = element.value();
    StatementRequest r;
    std::optional<std::string> text;
    for (auto field : json::read_object(item)) {
      std::string_view key = field.unescaped_key().value();
      json::value value = field.value();
      statement_member(key, value, r, text, errors);
    }
    check_statement(text, std::string(member) + "." + std::to_string(out.size() + 1) + ".member.statement", errors);
    r.statement = text.value_or("");
    out.push_back(std::move(r));
  }
  return out;
}

void check_count(std::size_t count, std::size_t max, std::string_view member, std::string_view shown,
                 ConstraintErrors& errors) {
  if (count == 0) {
    errors.add("[]", member, "Member must have length greater than or equal to 1", kRankStatements);
  } else if (count > max) {
    errors.add_unechoed(shown, "Member must have length less than or equal to " + std::to_string(max), kRankStatements);
  }
}

}  // namespace

ExecuteStatementRequest decode_execute_statement(json::object body) {
  ExecuteStatementRequest r;
  ConstraintErrors errors;
  std::optional<std::string> text;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (statement_member(key, value, r.statement, text, errors)) continue;
    if (key == "NextToken") {
      r.next_token = decode::optional_string(value);
    } else if (key == "Limit") {
      if (!json::is_null(value)) r.limit = json::read_integer(value);
    } else if (key == "ReturnConsumedCapacity") {
      r.return_consumed_capacity = decode::return_consumed_capacity(value, errors);
    }
  }
  check_statement(text, "statement", errors);
  if (r.next_token && r.next_token->empty()) {
    errors.add("", "nextToken", "Member must have length greater than or equal to 1", kRankToken);
  }
  if (r.limit && *r.limit < 1) {
    errors.add(std::to_string(*r.limit), "limit", "Member must have value greater than or equal to 1", kRankLimit);
  }
  errors.throw_if_any();
  r.statement.statement = text.value_or("");
  return r;
}

BatchExecuteStatementRequest decode_batch_execute_statement(json::object body) {
  BatchExecuteStatementRequest r;
  ConstraintErrors errors;
  bool present = false;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "Statements") {
      present = !json::is_null(value);
      r.statements = decode_statements(value, "statements", errors);
    } else if (key == "ReturnConsumedCapacity") {
      r.return_consumed_capacity = decode::return_consumed_capacity(value, errors);
    }
  }
  if (!present) {
    errors.add_null("statements", "Member must not be null", kRankStatements);
  } else {
    check_count(r.statements.size(), kMaxBatchStatements, "statements", "Statements", errors);
  }
  errors.throw_if_any();
  return r;
}

ExecuteTransactionRequest decode_execute_transaction(json::object body) {
  ExecuteTransactionRequest r;
  ConstraintErrors errors;
  bool present = false;
  for (auto field : body) {
    std::string_view key = field.unescaped_key().value();
    json::value value = field.value();
    if (key == "TransactStatements") {
      present = !json::is_null(value);
      r.statements = decode_statements(value, "transactStatements", errors);
    } else if (key == "ClientRequestToken") {
      r.client_request_token = decode::optional_string(value);
    } else if (key == "ReturnConsumedCapacity") {
      r.return_consumed_capacity = decode::return_consumed_capacity(value, errors);
    }
  }
  if (!present) {
    errors.add_null("transactStatements", "Member must not be null", kRankStatements);
  } else {
    check_count(r.statements.size(), kMaxTransactionStatements, "transactStatements", "TransactStatements", errors);
  }
  decode::check_client_request_token(r.client_request_token, errors, kRankToken);
  errors.throw_if_any();
  return r;
}

}  // namespace dynamod::partiql
