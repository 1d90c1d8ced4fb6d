#pragma once
// Scope: where a request's table names live. Tables are per region (from the
// SigV4 credential scope), as in AWS, unless --shared-db puts every region in
// one namespace. A TableName may also be a table ARN, which names its region.

#include <optional>
#include <string>
#include <string_view>

namespace dynamod {

struct QualifiedName {
  std::string ns;
  std::string name;
};

struct Scope {
  std::string region;
  std::string account_id;
  bool shared_db = false;

  std::string_view ns() const { return shared_db ? std::string_view() : std::string_view(region); }
  // The table a TableName parameter designates; nullopt for an ARN of another
  // account or a malformed one.
  std::optional<QualifiedName> qualify(std::string_view name_or_arn) const;
};

}  // namespace dynamod
