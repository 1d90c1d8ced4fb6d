#include "storage/gzip_object.h"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "protocol/base64.h"

namespace dynamod::storage {
namespace {

constexpr std::size_t kChunk = 256 * 1024;
// Level 1: exports are bounded by compression, and level 6 took ~3x the CPU
// for files ~10% smaller (bench/export.py).
constexpr int kLevel = 1;

std::string hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

}  // namespace

std::string md5_of(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_md5(), nullptr) != 1) {
    throw std::runtime_error("MD5 failed");
  }
  return std::string(reinterpret_cast<const char*>(digest), size);
}

std::string md5_base64(std::string_view digest) {
  std::string out;
  base64_encode_append(out, digest);
  return out;
}

std::string one_part_etag(std::string_view digest) { return hex(md5_of(digest)) + "-1"; }

GzipObject::GzipObject(std::filesystem::path path) : path_(std::move(path)) {
  partial_ = path_;
  partial_ += ".partial";
  std::filesystem::create_directories(path_.parent_path());
  file_ = std::fopen(partial_.c_str(), "wbe");
  if (file_ == nullptr) throw std::runtime_error("cannot create " + partial_.string() + ": " + std::strerror(errno));
  // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
  if (deflateInit2(&z_, kLevel, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    std::fclose(file_);
    throw std::runtime_error("deflateInit2 failed");
  }
  md5_ = EVP_MD_CTX_new();
  if (md5_ == nullptr || EVP_DigestInit_ex(md5_, EVP_md5(), nullptr) != 1) {
    deflateEnd(&z_);
    std::fclose(file_);
    EVP_MD_CTX_free(md5_);
    throw std::runtime_error("MD5 init failed");
  }
  out_.resize(kChunk);
}

GzipObject::~GzipObject() {
  deflateEnd(&z_);
  EVP_MD_CTX_free(md5_);
  if (file_ != nullptr) std::fclose(file_);
  if (!finished_) {
    std::error_code error;
    std::filesystem::remove(partial_, error);
    if (error) spdlog::warn("could not remove {}: {}", partial_.string(), error.message());
  }
}

void GzipObject::pump(int flush) {
  do {
    z_.next_out = reinterpret_cast<Bytef*>(out_.data());
    z_.avail_out = static_cast<uInt>(out_.size());
    const int rc = deflate(&z_, flush);
    if (rc == Z_STREAM_ERROR) throw std::runtime_error("deflate failed");
    const std::size_t produced = out_.size() - z_.avail_out;
    if (produced > 0) {
      if (std::fwrite(out_.data(), 1, produced, file_) != produced) {
        throw std::runtime_error("cannot write " + partial_.string() + ": " + std::strerror(errno));
      }
      EVP_DigestUpdate(md5_, out_.data(), produced);
      size_ += produced;
    }
  } while (z_.avail_out == 0);
}

void GzipObject::write(std::string_view bytes) {
  z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z_.avail_in = static_cast<uInt>(bytes.size());
  pump(Z_NO_FLUSH);
}

GzipObject::Written GzipObject::finish() {
  z_.next_in = nullptr;
  z_.avail_in = 0;
  pump(Z_FINISH);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_DigestFinal_ex(md5_, digest, &size);
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!closed) throw std::runtime_error("cannot write " + partial_.string() + ": " + std::strerror(errno));
  std::filesystem::rename(partial_, path_);
  finished_ = true;
  return {size_, std::string(reinterpret_cast<const char*>(digest), size)};
}

}  // namespace dynamod::storage
