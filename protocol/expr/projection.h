#pragma once
// ProjectionExpression / AttributesToGet: the parts of an item at some paths.

#include <string>
#include <vector>

#include "protocol/expr/path.h"

namespace dynamod::expr {

// Nested picks are rebuilt inside their parents; several indexes of one list
// come back compacted in index order (l[2], l[0] -> [l0, l2]); missing paths
// are left out (and so are parents left empty by them).
Item project(const Item& item, const std::vector<Path>& paths);
Item project_paths(const Item& item, const std::vector<const Path*>& paths);

// Each path's value as a top-level attribute named names[i] (PartiQL's
// select list: SELECT m.c, l[1] returns {"c": ..., "l[1]": ...}); missing
// paths are left out.
Item project_named(const Item& item, const std::vector<Path>& paths, const std::vector<std::string>& names);

}  // namespace dynamod::expr
