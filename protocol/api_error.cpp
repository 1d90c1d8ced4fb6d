#include "protocol/api_error.h"

#include <algorithm>
#include <array>

namespace dynamod {
namespace {

struct ErrorInfo {
  std::string_view name;
  std::string_view ns;
  unsigned status;
};

constexpr std::string_view kDynamo = "com.amazonaws.dynamodb.v20120810#";
constexpr std::string_view kCoral = "com.amazon.coral.service#";
constexpr std::string_view kCoralValidate = "com.amazon.coral.validate#";

// Indexed by ErrorCode; keep in enum order.
constexpr std::array<ErrorInfo, kErrorCodeCount> kErrors{{
    {"ValidationException", kCoralValidate, 400},
    {"SerializationException", kCoral, 400},
    {"ResourceNotFoundException", kDynamo, 400},
    {"ResourceInUseException", kDynamo, 400},
    {"ConditionalCheckFailedException", kDynamo, 400},
    {"UnknownOperationException", kCoral, 400},
    {"MissingAuthenticationTokenException", kCoral, 400},
    {"IncompleteSignatureException", kCoral, 400},
    {"InvalidSignatureException", kCoral, 400},
    {"UnrecognizedClientException", kCoral, 400},
    {"LimitExceededException", kDynamo, 400},
    {"ItemCollectionSizeLimitExceededException", kDynamo, 400},
    {"ProvisionedThroughputExceededException", kDynamo, 400},
    {"TransactionCanceledException", kDynamo, 400},
    {"TransactionConflictException", kDynamo, 400},
    {"IdempotentParameterMismatchException", kDynamo, 400},
    {"RequestEntityTooLarge", kCoral, 413},
    {"InternalServerError", kDynamo, 500},
    {"ExpiredIteratorException", kDynamo, 400},
    {"TrimmedDataAccessException", kDynamo, 400},
    {"DuplicateItemException", kDynamo, 400},
    {"TableNotFoundException", kDynamo, 400},
    {"AccessDeniedException", kCoral, 400},
    {"ThrottlingException", kDynamo, 400},
    {"BackupNotFoundException", kDynamo, 400},
    {"TableAlreadyExistsException", kDynamo, 400},
    {"PointInTimeRecoveryUnavailableException", kDynamo, 400},
    {"InvalidRestoreTimeException", kDynamo, 400},
    {"PolicyNotFoundException", kDynamo, 400},
    {"ExportConflictException", kDynamo, 400},
    {"ExportNotFoundException", kDynamo, 400},
    {"InvalidExportTimeException", kDynamo, 400},
    {"ImportConflictException", kDynamo, 400},
    {"ImportNotFoundException", kDynamo, 400},
    {"RequestLimitExceeded", kDynamo, 400},
}};

const ErrorInfo& info(ErrorCode code) { return kErrors[static_cast<std::size_t>(code)]; }

}  // namespace

std::string_view error_type_name(ErrorCode code) { return info(code).name; }
std::string_view error_namespace(ErrorCode code) { return info(code).ns; }
unsigned http_status(ErrorCode code) { return info(code).status; }

ApiError ApiError::invalid_parameter(std::string_view detail) {
  std::string message = "One or more parameter values were invalid: ";
  message += detail;
  return validation(std::move(message));
}

void ConstraintErrors::add(std::string_view value_repr, std::string_view path, std::string_view constraint, int rank) {
  std::string entry = "Value '";
  entry += value_repr;
  entry += "' at '";
  entry += path;
  entry += "' failed to satisfy constraint: ";
  entry += constraint;
  entries_.emplace_back(rank, std::move(entry));
}

void ConstraintErrors::add_null(std::string_view path, std::string_view constraint, int rank) {
  std::string entry = "Value null at '";
  entry += path;
  entry += "' failed to satisfy constraint: ";
  entry += constraint;
  entries_.emplace_back(rank, std::move(entry));
}

void ConstraintErrors::add_unechoed(std::string_view path, std::string_view constraint, int rank) {
  std::string entry = "Value at '";
  entry += path;
  entry += "' failed to satisfy constraint: ";
  entry += constraint;
  entries_.emplace_back(rank, std::move(entry));
}

void ConstraintErrors::throw_if_any() {
  if (entries_.empty()) return;
  std::stable_sort(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string message = std::to_string(entries_.size());
  message += entries_.size() == 1 ? " validation error detected: " : " validation errors detected: ";
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (i > 0) message += "; ";
    message += entries_[i].second;
  }
  throw ApiError::validation(std::move(message));
}

}  // namespace dynamod
