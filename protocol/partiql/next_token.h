#pragma once
// ExecuteStatement's NextToken: the page's LastEvaluatedKey, opaque to the
// client (base64 of its DynamoDB JSON).

#include <string>
#include <string_view>

#include "protocol/attribute_value.h"

namespace dynamod::partiql {

std::string encode_next_token(std::string_view last_evaluated_key_json);
// The key a NextToken holds; ValidationException "Invalid NextToken" for
// text this server did not issue.
Item decode_next_token(std::string_view token);

}  // namespace dynamod::partiql
