#include "storage/background_priority.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace dynamod {

void lower_this_thread_priority(std::string_view who) {
#ifdef __linux__
  const auto self = static_cast<id_t>(gettid());
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, self);  // (-1 is a valid answer: errno tells)
  if (errno != 0 || setpriority(PRIO_PROCESS, self, std::min(nice + 10, 19)) != 0) {
    spdlog::warn("{}: could not lower its thread's priority: {}", who, std::strerror(errno));
  }
#else
  (void)who;
#endif
}

}  // namespace dynamod
