#pragma once
// DirectoryLock: one dynamod per data directory. Two servers on one LMDB
// environment would each keep their own catalog and counters in memory and
// overwrite each other's; the second is refused instead. The lock (flock on
// the directory) goes with the process, however it ends.

#include <filesystem>

namespace dynamod {

class DirectoryLock {
 public:
  // Throws "data directory <dir> is in use by another dynamod" when held.
  explicit DirectoryLock(const std::filesystem::path& dir);
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  int fd_;
};

}  // namespace dynamod
