#pragma once
// DynamoDB's reserved words: a bare attribute name in an expression that is
// one of these (compared case-insensitively) is rejected.

#include <string_view>

namespace dynamod::expr {

bool is_reserved_word(std::string_view name);

}  // namespace dynamod::expr
