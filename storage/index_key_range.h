#pragma once
// The entries of one partition of a multi-attribute index that a Query's key
// condition selects, as a range of their components (index_entries.h): each
// sort-key attribute's sortable encoding followed by 01, so equalities on the
// leading attributes are a prefix, and a condition on the next attribute
// bounds what follows it.

#include <optional>
#include <string>
#include <string_view>

#include "protocol/expr/key_condition.h"

namespace dynamod {

class IndexKeyRange {
 public:
  explicit IndexKeyRange(const expr::KeyCondition& condition);

  // Where a scan in this direction starts (nullopt: the partition's edge).
  std::optional<std::string> start(bool forward) const { return forward ? lower_ : upper_; }

  // Position of a component relative to the range in scan order: -1 not
  // reached yet, 0 inside, 1 past it (the scan can stop).
  int locate(std::string_view component, bool forward) const;

 private:
  std::optional<std::string> lower_;  // inclusive
  std::optional<std::string> upper_;  // exclusive
};

}  // namespace dynamod
