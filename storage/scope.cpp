#include "storage/scope.h"

#include "protocol/table_requests.h"

namespace dynamod {

std::optional<QualifiedName> Scope::qualify(std::string_view name_or_arn) const {
  if (!looks_like_arn(name_or_arn)) return QualifiedName{std::string(ns()), std::string(name_or_arn)};
  std::optional<TableArn> arn = parse_table_arn(name_or_arn);
  if (!arn || arn->account != account_id) return std::nullopt;
  return QualifiedName{shared_db ? std::string() : std::string(arn->region), std::string(arn->name)};
}

}  // namespace dynamod
