#include "storage/directory_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>

namespace dynamod {

DirectoryLock::DirectoryLock(const std::filesystem::path& dir)
    : fd_(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "cannot open " + dir.string());
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    close(fd_);
    if (error == EWOULDBLOCK) {
      throw std::runtime_error("data directory " + dir.string() + " is in use by another dynamod");
    }
    throw std::system_error(error, std::generic_category(), "cannot lock " + dir.string());
  }
}

DirectoryLock::~DirectoryLock() { close(fd_); }

}  // namespace dynamod
