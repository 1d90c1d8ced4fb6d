#pragma once
// ApiError: the one error type of dynamod. It carries DynamoDB's error code and
// message; server/ turns it into the JSON error body in one place.
//
// Validation failures are thrown (they end the request, and decoding code stays
// linear); outcomes that are common under load, such as failed conditions, are
// returned as values by the engine instead.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dynamod {

enum class ErrorCode : std::uint8_t {
  ValidationException,
  SerializationException,
  ResourceNotFoundException,
  ResourceInUseException,
  ConditionalCheckFailedException,
  UnknownOperationException,
  MissingAuthenticationTokenException,
  IncompleteSignatureException,
  InvalidSignatureException,
  UnrecognizedClientException,
  LimitExceededException,
  ItemCollectionSizeLimitExceededException,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
  TransactionConflictException,
  IdempotentParameterMismatchException,
  RequestEntityTooLarge,
  InternalServerError,
  ExpiredIteratorException,
  TrimmedDataAccessException,
  DuplicateItemException,
  TableNotFoundException,
  AccessDeniedException,
  ThrottlingException,
  BackupNotFoundException,
  TableAlreadyExistsException,
  PointInTimeRecoveryUnavailableException,
  InvalidRestoreTimeException,
  PolicyNotFoundException,
  ExportConflictException,
  ExportNotFoundException,
  InvalidExportTimeException,
  ImportConflictException,
  ImportNotFoundException,
  RequestLimitExceeded,  // keep last: it sizes the tables indexed by code
};
inline constexpr std::size_t kErrorCodeCount = static_cast<std::size_t>(ErrorCode::RequestLimitExceeded) + 1;

// "com.amazonaws.dynamodb.v20120810#ValidationException" and friends.
std::string_view error_type_name(ErrorCode code);
std::string_view error_namespace(ErrorCode code);
unsigned http_status(ErrorCode code);

class ApiError {
 public:
  ApiError(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // An extra JSON member rendered verbatim into the error body (for example the
  // Item of a failed condition with ReturnValuesOnConditionCheckFailure).
  void set_extra_json(std::string json) { extra_json_ = std::move(json); }
  const std::string& extra_json() const { return extra_json_; }

  static ApiError validation(std::string message) { return {ErrorCode::ValidationException, std::move(message)}; }
  static ApiError serialization(std::string message) { return {ErrorCode::SerializationException, std::move(message)}; }
  static ApiError resource_not_found(std::string message = "Requested resource not found") {
    return {ErrorCode::ResourceNotFoundException, std::move(message)};
  }
  static ApiError resource_in_use(std::string message) {
    return {ErrorCode::ResourceInUseException, std::move(message)};
  }
  static ApiError conditional_check_failed(std::string message = "The conditional request failed") {
    return {ErrorCode::ConditionalCheckFailedException, std::move(message)};
  }
  static ApiError limit_exceeded(std::string message) {
    return {ErrorCode::LimitExceededException, std::move(message)};
  }
  static ApiError internal(std::string message) { return {ErrorCode::InternalServerError, std::move(message)}; }

  // "One or more parameter values were invalid: <detail>", DynamoDB's usual prefix.
  static ApiError invalid_parameter(std::string_view detail);

 private:
  ErrorCode code_;
  std::string message_;
  std::string extra_json_;
};

// Coral-style constraint violations, gathered so that all of them are reported
// in one message: "1 validation error detected: Value 'x' at 'tableName' failed
// to satisfy constraint: Member must ...".
class ConstraintErrors {
 public:
  // `rank` orders entries found out of order (JSON members arrive in any
  // order; the service reports them in its model's member order).
  void add(std::string_view value_repr, std::string_view path, std::string_view constraint, int rank = 0);
  // Renders as "Value null at ..."
  void add_null(std::string_view path, std::string_view constraint, int rank = 0);
  // The service's newer form, which echoes no value: "Value at 'TransactItems' ...".
  void add_unechoed(std::string_view path, std::string_view constraint, int rank = 0);
  bool empty() const { return entries_.empty(); }
  void throw_if_any();

 private:
  std::vector<std::pair<int, std::string>> entries_;
};

}  // namespace dynamod
