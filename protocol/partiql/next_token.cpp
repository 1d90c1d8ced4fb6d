#include "protocol/partiql/next_token.h"

#include <xxhash.h>

#include <cstdio>

#include "protocol/api_error.h"
#include "protocol/attribute_json.h"
#include "protocol/base64.h"
#include "protocol/partiql/item_json.h"

namespace dynamod::partiql {
namespace {

constexpr std::size_t kFingerprintSize = 16;

}  // namespace

std::string request_fingerprint(std::string_view statement, const Parameters& parameters) {
  JsonWriter hashed;  // ["<statement>", <parameter>, ...]
  hashed.begin_array();
  hashed.string(statement);
  for (const AttributeValue& parameter : parameters) encode_attribute_value(hashed, parameter);
  hashed.end_array();
  const std::string text = hashed.take();
  char hex[kFingerprintSize + 1];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH3_64bits(text.data(), text.size())));
  return std::string(hex, kFingerprintSize);
}

std::string encode_next_token(std::string_view fingerprint, std::string_view last_evaluated_key_json) {
  std::string plain(fingerprint);
  plain += last_evaluated_key_json;
  std::string token;
  base64_encode_append(token, plain);
  return token;
}

Item decode_next_token(std::string_view token, std::string_view fingerprint) {
  std::optional<std::string> plain = base64_decode(token);
  if (!plain || plain->size() <= kFingerprintSize) throw ApiError::validation("Invalid NextToken");
  std::optional<Item> key = parse_item_json(std::string_view(*plain).substr(kFingerprintSize));
  if (!key || key->empty()) throw ApiError::validation("Invalid NextToken");
  if (std::string_view(*plain).substr(0, kFingerprintSize) != fingerprint) {
    throw ApiError::validation("NextToken does not match request");
  }
  return std::move(*key);
}

}  // namespace dynamod::partiql
