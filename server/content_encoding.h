#pragma once
// HTTP content codings, as the service handles them: request bodies sent with
// Content-Encoding gzip (or, a dynamod leniency, zlib-format deflate) are
// inflated; response bodies are compressed with the coding Accept-Encoding
// prefers. Pure functions over zlib; no sockets, no Beast.

#include <cstddef>
#include <string>
#include <string_view>

namespace dynamod {

enum class ContentCoding { Identity, Gzip, Deflate };

// The coding's name in Content-Encoding ("identity", "gzip", "deflate").
std::string_view coding_name(ContentCoding coding);

// The coding for a response, from the request's Accept-Encoding value, by the
// service's rules (measured against DynamoDB by Alternator's tests):
// - elements are `coding *( OWS ";" OWS name OWS "=" OWS value )`, codings
//   case-insensitive; an element whose coding is not gzip, deflate or "*"
//   (identity, br, x-gzip, "\"gzip\"", "gzip br", "gzip:q=1", ...) is ignored;
// - the first q parameter counts; q > 1 is 1, q < 0 is 0, an unparsable q is 1;
//   q = 0 refuses; a coding listed twice takes its best q;
// - "*" gives its q to gzip and deflate when they are not listed themselves;
// - the highest q wins; on a tie a listed coding beats one given by "*", the
//   first listed beats a later one, and "*" alone means gzip.
// Identity means "do not compress".
ContentCoding negotiate_response_coding(std::string_view accept_encoding);

// `body` compressed as gzip (RFC 1952) or deflate (zlib format, RFC 1950).
std::string compress_body(std::string_view body, ContentCoding coding);

enum class BodyDecoding {
  Ok,
  UnknownCoding,  // Content-Encoding is not identity, gzip or deflate
  Invalid,        // not a valid stream of that coding (truncated, empty, trailing bytes)
  TooLarge,       // inflates to more than the limit
};

// Replaces `body` by its decoded form for the request's Content-Encoding value
// (case-insensitive; empty or identity leaves it as is). gzip accepts several
// concatenated members as one body (RFC 1952); deflate is one zlib stream.
// On any other outcome `body` is unchanged.
[[nodiscard]] BodyDecoding decode_request_body(std::string_view content_encoding, std::string& body, std::size_t limit);

}  // namespace dynamod
