#pragma once
// One object of the bucket store written as a gzip stream (zlib's deflate,
// gzip wrapper), with the MD5 of the bytes written, which S3 reports as an
// object's Content-MD5 and, for a one-part multipart upload, folds into its
// ETag. The object appears whole or not at all: bytes go to <path>.partial,
// renamed over the object by finish().

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include <openssl/evp.h>

namespace dynamod::storage {

// The 16 bytes of an MD5 digest.
std::string md5_of(std::string_view bytes);
// base64 of an MD5 digest (manifest md5Checksum, the .md5 files).
std::string md5_base64(std::string_view digest);
// The ETag S3 gives an object uploaded in one part of a multipart upload:
// the hex MD5 of the part's MD5, then "-1".
std::string one_part_etag(std::string_view digest);

class GzipObject {
 public:
  explicit GzipObject(std::filesystem::path path);
  GzipObject(const GzipObject&) = delete;
  GzipObject& operator=(const GzipObject&) = delete;
  ~GzipObject();  // an unfinished object leaves nothing behind

  void write(std::string_view bytes);

  struct Written {
    std::uint64_t size = 0;  // compressed bytes
    std::string md5;         // their digest
  };
  Written finish();

 private:
  void pump(int flush);

  std::filesystem::path path_;
  std::filesystem::path partial_;
  std::FILE* file_ = nullptr;
  z_stream z_{};
  EVP_MD_CTX* md5_ = nullptr;
  std::uint64_t size_ = 0;
  bool finished_ = false;
  std::string out_;
};

}  // namespace dynamod::storage
