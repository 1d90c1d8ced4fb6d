#include "protocol/partiql/next_token.h"

#include "protocol/api_error.h"
#include "protocol/base64.h"
#include "protocol/partiql/item_json.h"

namespace dynamod::partiql {

std::string encode_next_token(std::string_view last_evaluated_key_json) {
  std::string token;
  base64_encode_append(token, last_evaluated_key_json);
  return token;
}

Item decode_next_token(std::string_view token) {
  std::optional<std::string> json = base64_decode(token);
  std::optional<Item> key = json ? parse_item_json(*json) : std::nullopt;
  if (!key || key->empty()) throw ApiError::validation("Invalid NextToken");
  return std::move(*key);
}

}  // namespace dynamod::partiql
