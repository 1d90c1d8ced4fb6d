#pragma once
// `dynamod cost` and `dynamod patterns`: fetch a running server's report
// (GET /dynamod/cost or /dynamod/patterns) and print it as a terminal table,
// or as the JSON itself with --json. `--reset` starts the ledger over.

namespace dynamod {

// argv[1] is "cost" or "patterns". Returns the process exit code.
int run_report_command(int argc, char** argv);

}  // namespace dynamod
