#include "server/content_encoding.h"

#include <zlib.h>
#include <boost/beast/core/string.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <new>
#include <stdexcept>

namespace dynamod {
namespace {

using boost::beast::iequals;

std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The next `delimiter`-separated piece of `rest`, consumed from it.
std::string_view next_piece(std::string_view& rest, char delimiter) {
  auto at = rest.find(delimiter);
  std::string_view piece = rest.substr(0, at);
  rest = at == std::string_view::npos ? std::string_view() : rest.substr(at + 1);
  return piece;
}

// The element's q: its first q parameter, clamped to [0, 1]; 1 when absent or
// unparsable (as the service reads "q=0.x").
double quality(std::string_view params) {
  while (!params.empty()) {
    std::string_view param = next_piece(params, ';');
    auto eq = param.find('=');
    if (eq == std::string_view::npos || !iequals(trim_ows(param.substr(0, eq)), "q")) continue;
    std::string_view value = trim_ows(param.substr(eq + 1));
    double q = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), q);
    if (ec != std::errc() || end != value.data() + value.size() || std::isnan(q)) return 1;
    return std::clamp(q, 0.0, 1.0);
  }
  return 1;
}

struct Preference {
  double q = 0;
  bool listed = false;    // named in the header (not through "*")
  std::size_t order = 0;  // position in the header, for ties
};

// zlib's window bits: 16 + MAX_WBITS selects the gzip wrapper, MAX_WBITS the zlib one.
int window_bits(ContentCoding coding) { return coding == ContentCoding::Gzip ? 16 + MAX_WBITS : MAX_WBITS; }

// Inflates `in` into `out`. gzip may hold several members; zlib is one stream.
BodyDecoding inflate_body(std::string_view in, ContentCoding coding, std::size_t limit, std::string& out) {
  if (in.size() > std::numeric_limits<uInt>::max()) return BodyDecoding::TooLarge;
  z_stream zs{};
  if (inflateInit2(&zs, window_bits(coding)) != Z_OK) throw std::bad_alloc();
  struct End {
    z_stream* zs;
    ~End() { inflateEnd(zs); }
  } end{&zs};
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  std::size_t produced = 0;
  for (;;) {
    // One byte past the limit is enough to know the body is too large.
    if (produced == out.size()) out.resize(std::min(std::max<std::size_t>(2 * out.size(), 64 * 1024), limit + 1));
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    zs.avail_out = static_cast<uInt>(std::min<std::size_t>(out.size() - produced, std::numeric_limits<uInt>::max()));
    const uInt room = zs.avail_out;
    int rc = inflate(&zs, Z_NO_FLUSH);
    produced += room - zs.avail_out;
    if (produced > limit) return BodyDecoding::TooLarge;
    if (rc == Z_OK) continue;
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    // Z_DATA_ERROR, Z_NEED_DICT, or Z_BUF_ERROR: the input ended inside the stream.
    if (rc != Z_STREAM_END) return BodyDecoding::Invalid;
    if (zs.avail_in == 0) break;
    // Bytes after the stream: the next gzip member; anything else is refused.
    if (coding != ContentCoding::Gzip || inflateReset(&zs) != Z_OK) return BodyDecoding::Invalid;
  }
  out.resize(produced);
  return BodyDecoding::Ok;
}

}  // namespace

std::string_view coding_name(ContentCoding coding) {
  switch (coding) {
    case ContentCoding::Gzip: return "gzip";
    case ContentCoding::Deflate: return "deflate";
    case ContentCoding::Identity: break;
  }
  return "identity";
}

ContentCoding negotiate_response_coding(std::string_view accept_encoding) {
  Preference gzip, deflate, any;
  std::size_t order = 0;
  while (!accept_encoding.empty()) {
    std::string_view params = next_piece(accept_encoding, ',');
    std::string_view coding = trim_ows(next_piece(params, ';'));
    Preference* preference = iequals(coding, "gzip")      ? &gzip
                             : iequals(coding, "deflate") ? &deflate
                             : coding == "*"              ? &any
                                                          : nullptr;
    if (preference == nullptr) continue;
    double q = quality(params);
    if (!preference->listed || q > preference->q) *preference = {q, true, order};
    ++order;
  }
  // A coding not listed takes the q of "*" (and loses ties to listed ones).
  auto effective = [&any](const Preference& p) { return p.listed ? p : Preference{any.q, false, 0}; };
  Preference g = effective(gzip), d = effective(deflate);
  if (g.q <= 0 && d.q <= 0) return ContentCoding::Identity;
  if (g.q != d.q) return g.q > d.q ? ContentCoding::Gzip : ContentCoding::Deflate;
  if (g.listed != d.listed) return g.listed ? ContentCoding::Gzip : ContentCoding::Deflate;
  return d.listed && d.order < g.order ? ContentCoding::Deflate : ContentCoding::Gzip;
}

std::string compress_body(std::string_view body, ContentCoding coding) {
  if (coding == ContentCoding::Identity) return std::string(body);
  if (body.size() > std::numeric_limits<uInt>::max()) throw std::length_error("response body too large to compress");
  z_stream zs{};
  // The fastest level: answers travel over a local network, where CPU time costs more than bytes.
  if (deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, window_bits(coding), 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::bad_alloc();
  }
  struct End {
    z_stream* zs;
    ~End() { deflateEnd(zs); }
  } end{&zs};
  // deflateBound (wrapper included) is room enough to finish in one call.
  std::string out(deflateBound(&zs, static_cast<uLong>(body.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  zs.avail_in = static_cast<uInt>(body.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  if (deflate(&zs, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("deflate did not finish the response body");
  out.resize(zs.total_out);
  return out;
}

BodyDecoding decode_request_body(std::string_view content_encoding, std::string& body, std::size_t limit) {
  std::string_view name = trim_ows(content_encoding);
  if (name.empty() || iequals(name, "identity")) return BodyDecoding::Ok;
  ContentCoding coding;
  if (iequals(name, "gzip")) {
    coding = ContentCoding::Gzip;
  } else if (iequals(name, "deflate")) {
    coding = ContentCoding::Deflate;
  } else {
    return BodyDecoding::UnknownCoding;
  }
  std::string decoded;
  BodyDecoding result = inflate_body(body, coding, limit, decoded);
  if (result == BodyDecoding::Ok) body = std::move(decoded);
  return result;
}

}  // namespace dynamod
