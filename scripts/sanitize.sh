#!/usr/bin/env bash
# Builds dynamod and the unit tests with AddressSanitizer and UndefinedBehaviorSanitizer
# (Debug, into build-asan/), then runs the unit tests and the integration suite against
# that build. Any sanitizer report (a memory error, a leak, undefined behaviour) fails the
# run; the reports are kept in build-asan/sanitizer-logs/. Arguments go to pytest (e.g.
# `-k query`). Not part of `make test`: a second full build would double CI's time.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test || exit 1
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DDYNAMOD_BUILD_BENCH=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer" >/dev/null || exit 1
cmake --build build-asan -j"${JOBS:-2}" --target dynamod unit_tests || exit 1

logs="$PWD/build-asan/sanitizer-logs"
rm -rf "$logs" && mkdir -p "$logs"
# The servers the integration fixtures start inherit these.
export ASAN_OPTIONS="detect_leaks=1:log_path=$logs/asan"
export UBSAN_OPTIONS="print_stacktrace=1:log_path=$logs/ubsan"

status=0
echo "== unit tests (sanitized)"
build-asan/unit_tests --no-colors=true || status=1
echo "== integration tests against build-asan/dynamod"
python=$(scripts/python-env.sh) || exit 1
"$python" -m pytest tests/integration -q -p no:cacheprovider --dynamod-bin build-asan/dynamod "$@" || status=1

reports=("$logs"/*)
if [ -e "${reports[0]}" ]; then
  echo "== sanitizer reports (${#reports[@]}), kept in $logs"
  for report in "${reports[@]}"; do echo "-- $report"; head -n 30 "$report"; done
  status=1
fi
[ "$status" -eq 0 ] && echo "sanitizers: no reports"
exit "$status"
