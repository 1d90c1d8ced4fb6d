// Content codings: Accept-Encoding negotiation by the service's rules (the
// cases Alternator ran against DynamoDB), response compression, and request
// body decoding with its failure modes (truncated, trailing bytes, zip bombs).
#include <doctest/doctest.h>
#include <zlib.h>

#include <string>

#include "server/content_encoding.h"

using namespace dynamod;

namespace {

// An independent decoder: zlib with automatic gzip/zlib header detection.
std::string inflate_any(const std::string& data) {
  z_stream zs{};
  REQUIRE(inflateInit2(&zs, 32 + MAX_WBITS) == Z_OK);
  std::string out(1 << 20, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = inflate(&zs, Z_FINISH);
  inflateEnd(&zs);
  REQUIRE(rc == Z_STREAM_END);
  out.resize(zs.total_out);
  return out;
}

std::string payload(std::size_t size) {
  std::string s;
  while (s.size() < size) s += "{\"pk\":{\"S\":\"" + std::to_string(s.size()) + "\"}},";
  s.resize(size);
  return s;
}

}  // namespace

TEST_CASE("Accept-Encoding negotiation follows the service") {
  struct Case {
    const char* header;
    ContentCoding expected;
  };
  constexpr auto None = ContentCoding::Identity;
  constexpr auto Gzip = ContentCoding::Gzip;
  constexpr auto Deflate = ContentCoding::Deflate;
  const Case cases[] = {
      {"", None},
      {"identity", None},
      {"br", None},
      {"zstd", None},
      {"compress", None},
      {"x-gzip", None},
      {"gzip", Gzip},
      {"deflate", Deflate},
      {"gzip, deflate", Gzip},
      {"br, identity, deflate, gzip", Deflate},  // equal q: the first listed
      {"GZIP, identity", Gzip},
      {"dog, gzip ,, cat", Gzip},
      {"gzip;q=0.8, deflate;q=0.5", Gzip},
      {"br, gzip;q=0, deflate; q = 0.5 , identity;q=0", Deflate},
      {"*", Gzip},
      {"*, deflate;q=0.5", Gzip},
      {"*, deflate", Deflate},  // a listed coding beats "*" on a tie
      {"*, identity", Gzip},
      {"*, gzip;q=0.5", Deflate},
      {"gzip ;q=0", None},
      {"gzip;q=0", None},
      {"identity;q=0", None},
      {"*;q=0", None},
      {"*;q=0.5,identity", Gzip},
      {"gzip;q=0.5,identity;q=0.8", Gzip},  // identity's preference is ignored
      {"br;q=0.8,identity;q=0.5,*;q=0", None},
      {"\"gzip\"", None},  // malformed codings are not recognised
      {"gzip br", None},
      {"gzip:q=1", None},
      {"deflate;q=0.5, gzip;q=31", Gzip},  // q > 1 counts as 1
      {"gzip;q=31,deflate;q=51", Gzip},
      {"deflate;q=0.5, gzip;q=0.2", Deflate},
      {"deflate;q=0.5, gzip;q=1;q=0.2", Gzip},  // the first q counts
      {"deflate;q=0.5,gzip;q=0.", Deflate},     // "0." is 0
      {"deflate;q=0.5,gzip;q=0.x", Gzip},       // unparsable counts as 1
      {"deflate;q=-0.5,gzip;q=0.2", Gzip},      // negative counts as 0
      {"gzip;nq=1;q=0 ", None},
      {"gzip;q=0, gzip;q=1, gzip;q=0", Gzip},  // listed twice: the best q
      {"br,identity;q=0.5,gzip;q=0.0001", Gzip},
      {"gzip;q=0, *", Deflate},
      {"gzip;Q=0", None},
  };
  for (const Case& c : cases) {
    CAPTURE(c.header);
    CHECK(negotiate_response_coding(c.header) == c.expected);
  }
}

TEST_CASE("responses compress to gzip and zlib streams") {
  const std::string body = payload(20000);
  for (ContentCoding coding : {ContentCoding::Gzip, ContentCoding::Deflate}) {
    std::string compressed = compress_body(body, coding);
    CHECK(compressed.size() < body.size() / 2);
    // gzip starts with its magic bytes; a zlib stream with CMF 0x78.
    CHECK(static_cast<unsigned char>(compressed[0]) == (coding == ContentCoding::Gzip ? 0x1f : 0x78));
    CHECK(inflate_any(compressed) == body);
  }
  CHECK(coding_name(ContentCoding::Gzip) == "gzip");
  CHECK(coding_name(ContentCoding::Deflate) == "deflate");
}

TEST_CASE("request bodies are decoded by their Content-Encoding") {
  const std::string json = payload(5000);
  const std::string gz = compress_body(json, ContentCoding::Gzip);
  std::string body;

  SUBCASE("identity and no coding leave the body as is") {
    for (const char* name : {"", "identity", "IDENTITY"}) {
      body = json;
      CHECK(decode_request_body(name, body, 1 << 20) == BodyDecoding::Ok);
      CHECK(body == json);
    }
  }
  SUBCASE("gzip, case-insensitive") {
    body = gz;
    CHECK(decode_request_body("GZip", body, 1 << 20) == BodyDecoding::Ok);
    CHECK(body == json);
  }
  SUBCASE("concatenated gzip members are one body") {
    body = compress_body(json.substr(0, 10), ContentCoding::Gzip) + compress_body(json.substr(10), ContentCoding::Gzip);
    CHECK(decode_request_body("gzip", body, 1 << 20) == BodyDecoding::Ok);
    CHECK(body == json);
  }
  SUBCASE("deflate is a zlib stream") {
    body = compress_body(json, ContentCoding::Deflate);
    CHECK(decode_request_body("deflate", body, 1 << 20) == BodyDecoding::Ok);
    CHECK(body == json);
  }
  SUBCASE("invalid streams are refused and the body kept") {
    for (const std::string& bad : {std::string(), json, gz.substr(0, gz.size() - 1), gz + "junk", gz.substr(0, 10)}) {
      body = bad;
      CHECK(decode_request_body("gzip", body, 1 << 20) == BodyDecoding::Invalid);
      CHECK(body == bad);
    }
    std::string zlib = compress_body(json, ContentCoding::Deflate);
    body = zlib + zlib;  // deflate is one stream
    CHECK(decode_request_body("deflate", body, 1 << 20) == BodyDecoding::Invalid);
    body = gz;  // gzip is not a zlib stream
    CHECK(decode_request_body("deflate", body, 1 << 20) == BodyDecoding::Invalid);
  }
  SUBCASE("unknown codings") {
    for (const char* name : {"garbage", "br", "x-gzip", "gzip, identity"}) {
      body = gz;
      CHECK(decode_request_body(name, body, 1 << 20) == BodyDecoding::UnknownCoding);
    }
  }
  SUBCASE("the inflated size is capped") {
    const std::string bomb = compress_body(std::string(1 << 20, '\0'), ContentCoding::Gzip);
    body = bomb;
    CHECK(decode_request_body("gzip", body, (1 << 20) - 1) == BodyDecoding::TooLarge);
    body = bomb;
    CHECK(decode_request_body("gzip", body, 1 << 20) == BodyDecoding::Ok);
    CHECK(body.size() == 1 << 20);
  }
}
