#include "storage/bucket_store.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include <spdlog/spdlog.h>

#include "protocol/api_error.h"

namespace dynamod::storage {
namespace {

// The ExportTableToPointInTime and ImportTable S3Bucket pattern
// ([a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+, at most 255 characters): a name that
// passes it is one plain folder name.
bool valid_bucket_name(std::string_view bucket) {
  if (bucket.size() < 2 || bucket.size() > 255) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
  if (!alnum(bucket.front()) || !alnum(bucket.back())) return false;
  for (char c : bucket) {
    if (!alnum(c) && c != '.' && c != '-' && c != '_') return false;
  }
  return true;
}

// S3 keys may hold any segment; locally "." and ".." would leave the object's
// place (or the bucket), so they are refused rather than mapped.
bool valid_key(std::string_view key) {
  if (!key.empty() && key.front() == '/') return false;
  if (key.find('\0') != std::string_view::npos) return false;
  std::size_t start = 0;
  while (start <= key.size()) {
    std::size_t end = key.find('/', start);
    if (end == std::string_view::npos) end = key.size();
    std::string_view segment = key.substr(start, end - start);
    if (segment == "." || segment == "..") return false;
    start = end + 1;
  }
  return true;
}

[[noreturn]] void fail_io(const std::string& what, const std::filesystem::path& path) {
  throw std::runtime_error(what + " " + path.string() + ": " + std::strerror(errno));
}

}  // namespace

BucketStore::BucketStore(std::filesystem::path root) : root_(std::move(root)) {}

std::filesystem::path BucketStore::path_of(std::string_view bucket, std::string_view key) const {
  if (!valid_bucket_name(bucket)) throw ApiError::validation("Invalid S3 bucket name: " + std::string(bucket));
  if (!valid_key(key)) {
    throw ApiError::validation("The S3 key " + std::string(key) + " cannot be stored in the local bucket store");
  }
  std::filesystem::path path = root_ / std::string(bucket);
  if (!key.empty()) path /= std::string(key);
  return path;
}

void BucketStore::put(const std::filesystem::path& object, std::string_view bytes) const {
  std::filesystem::create_directories(object.parent_path());
  std::filesystem::path partial = object;
  partial += ".partial";
  int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail_io("cannot create", partial);
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      int saved = errno;
      ::close(fd);
      errno = saved;
      fail_io("cannot write", partial);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) fail_io("cannot write", partial);
  std::filesystem::rename(partial, object);
}

TemporaryFolder::TemporaryFolder(std::string_view name_prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (std::string(name_prefix) + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) fail_io("cannot create a temporary folder like", pattern);
  path_ = pattern;
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code error;
  std::filesystem::remove_all(path_, error);
  if (error) spdlog::warn("could not remove {}: {}", path_.string(), error.message());
}

}  // namespace dynamod::storage
