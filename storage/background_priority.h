#pragma once
// Background threads (the heavy lane, imports, exports, the vector graph
// builder) run below the threads that answer requests: on Linux each thread
// has its own nice value, and one 10 above the I/O threads' gets about a tenth
// of a core they compete for, and the whole core when they do not want it.
// Small requests go first on a busy machine; background work still progresses.

#include <string_view>

namespace dynamod {

// Raises the calling thread's nice value by 10 (to at most 19), which needs no
// privilege; `who` names the thread in the warning logged if the system refuses.
void lower_this_thread_priority(std::string_view who);

}  // namespace dynamod
