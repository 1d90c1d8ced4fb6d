// Decompression of import objects: GZIP through zlib, ZSTD through libzstd,
// both streaming into one string and going on across members/frames.

#include <zlib.h>
#include <zstd.h>

#include <memory>

#include "protocol/import_data.h"

namespace dynamod::imports {
namespace {

constexpr std::size_t kChunk = 256 * 1024;

std::optional<std::string> gunzip(std::string_view data, std::string& why) {
  std::string out;
  z_stream z{};
  // 15 + 16: a gzip wrapper only (the service's GZIP is gzip, not zlib or raw deflate).
  if (inflateInit2(&z, 15 + 16) != Z_OK) {
    why = "zlib could not start";
    return std::nullopt;
  }
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, inflateEnd);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  for (;;) {
    const std::size_t had = out.size();
    out.resize(had + kChunk);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + had);
    z.avail_out = static_cast<uInt>(kChunk);
    const int rc = inflate(&z, Z_NO_FLUSH);
    out.resize(had + kChunk - z.avail_out);
    if (rc == Z_STREAM_END) {
      if (z.avail_in == 0) return out;
      if (inflateReset(&z) != Z_OK) break;  // another member follows
      continue;
    }
    if (rc == Z_BUF_ERROR && z.avail_in == 0) {
      why = "the GZIP data ends early";
      return std::nullopt;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) break;
  }
  why = std::string("not GZIP data: ") + (z.msg ? z.msg : "inflate failed");
  return std::nullopt;
}

std::optional<std::string> unzstd(std::string_view data, std::string& why) {
  std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> stream(ZSTD_createDStream(), ZSTD_freeDStream);
  if (!stream) {
    why = "zstd could not start";
    return std::nullopt;
  }
  std::string out;
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  std::size_t last = 0;
  while (in.pos < in.size) {
    const std::size_t had = out.size();
    out.resize(had + kChunk);
    ZSTD_outBuffer o{out.data() + had, kChunk, 0};
    last = ZSTD_decompressStream(stream.get(), &o, &in);
    out.resize(had + o.pos);
    if (ZSTD_isError(last)) {
      why = std::string("not ZSTD data: ") + ZSTD_getErrorName(last);
      return std::nullopt;
    }
  }
  // Output still buffered inside the stream at the end of the input.
  while (last != 0) {
    const std::size_t had = out.size();
    out.resize(had + kChunk);
    ZSTD_outBuffer o{out.data() + had, kChunk, 0};
    last = ZSTD_decompressStream(stream.get(), &o, &in);
    out.resize(had + o.pos);
    if (ZSTD_isError(last)) {
      why = std::string("not ZSTD data: ") + ZSTD_getErrorName(last);
      return std::nullopt;
    }
    if (o.pos == 0 && last != 0) {
      why = "the ZSTD data ends early";
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> decompress(std::string_view data, Compression compression, std::string& why) {
  switch (compression) {
    case Compression::None: return std::string(data);
    case Compression::Gzip: return gunzip(data, why);
    case Compression::Zstd: return unzstd(data, why);
  }
  return std::nullopt;
}

}  // namespace dynamod::imports
