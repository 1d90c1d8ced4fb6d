#pragma once
// ExecuteStatement's NextToken: the page's LastEvaluatedKey behind a fingerprint of the request
// that read it (its statement's text and its parameters), opaque to the client (base64). The
// service refuses a token replayed with another statement or other parameters ("NextToken does
// not match request"), so a token from one index cannot continue a read of another.

#include <string>
#include <string_view>

#include "protocol/attribute_value.h"
#include "protocol/partiql/values.h"

namespace dynamod::partiql {

// 16 hex digits of a hash over the statement's text and each parameter's DynamoDB JSON.
std::string request_fingerprint(std::string_view statement, const Parameters& parameters);

std::string encode_next_token(std::string_view fingerprint, std::string_view last_evaluated_key_json);
// The key a NextToken holds: ValidationException "Invalid NextToken" for text this server did
// not issue, "NextToken does not match request" for a token another request was given.
Item decode_next_token(std::string_view token, std::string_view fingerprint);

}  // namespace dynamod::partiql
