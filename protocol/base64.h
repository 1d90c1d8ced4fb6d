#pragma once
// Base64 (RFC 4648, standard alphabet, padded) for B values on the wire.
// Decoding is strict, as the service's is: invalid input is a SerializationException.

#include <optional>
#include <string>
#include <string_view>

namespace dynamod {

void base64_encode_append(std::string& out, std::string_view bytes);
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace dynamod
