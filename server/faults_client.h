#pragma once
// `dynamod faults list|add RULE|delete ID|clear`: manages a running dynamod's
// fault rules through /dynamod/faults (docs/testing-companion.md).

namespace dynamod {

// argv[1] is "faults". Returns the process exit code.
int run_faults_command(int argc, char** argv);

}  // namespace dynamod
