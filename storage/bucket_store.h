#pragma once
// The local bucket store: where exports write and imports read what the
// service keeps in S3. s3://bucket/prefix/... is <root>/bucket/prefix/...,
// one subfolder per bucket, each object a plain file holding exactly the
// bytes the service would put in S3, so a folder copies to and from a real
// bucket with `aws s3 cp --recursive`.

#include <filesystem>
#include <string>
#include <string_view>

namespace dynamod::storage {

class BucketStore {
 public:
  explicit BucketStore(std::filesystem::path root);

  const std::filesystem::path& root() const { return root_; }

  // The local path of an object or prefix; throws a ValidationException
  // ApiError for an invalid bucket name or a key that would escape the
  // bucket's folder ("." or ".." segments, a leading "/", a NUL).
  std::filesystem::path path_of(std::string_view bucket, std::string_view key) const;

  // Writes an object whole: into a temporary file beside it, then renamed, so
  // a reader never sees half an object. Creates the folders on the way.
  void put(const std::filesystem::path& object, std::string_view bytes) const;

 private:
  std::filesystem::path root_;
};

// A folder created fresh under the system's temporary directory and removed,
// with all it holds, when this is destroyed (the bucket store of --in-memory).
class TemporaryFolder {
 public:
  explicit TemporaryFolder(std::string_view name_prefix);
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  ~TemporaryFolder();

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace dynamod::storage
