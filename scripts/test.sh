#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: unit tests (doctest via
# ctest), the integration suite (pytest + boto3 against a dynamod it starts),
# the AWS CLI, JavaScript SDK and ElectroDB smoke tests, the web console in headless
# Chromium, the docker files' checks, clang-format over the C++ tree, and a short run of each
# fuzzer.
# Ends with one line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test || exit 1
scripts/build.sh || exit 1

passed=0
failed=0
results=$(mktemp)
trap 'rm -f "$results"' EXIT
count() {  # count NAME PASSED FAILED
  passed=$((passed + $2)); failed=$((failed + $3))
  printf '%-28s %5d passed %5d failed\n' "$1" "$2" "$3" >>"$results"
}
step() {  # step NAME COMMAND...: a check that counts as one test
  echo "== $1"
  if "${@:2}"; then count "$1" 1 0; else count "$1" 0 1; fi
}

echo "== unit tests"
unit_log=$(mktemp)
./build/unit_tests --no-colors=true 2>&1 | tee "$unit_log"
unit_line=$(grep -E '^\[doctest\] test cases:' "$unit_log" | tail -n 1)
unit_passed=$(echo "$unit_line" | sed -n 's/.*| *\([0-9]*\) passed.*/\1/p')
unit_failed=$(echo "$unit_line" | sed -n 's/.*| *\([0-9]*\) failed.*/\1/p')
count "unit tests (doctest)" "${unit_passed:-0}" "${unit_failed:-1}"
rm -f "$unit_log"

echo "== integration tests"
python=$(scripts/python-env.sh) || { count "integration tests" 0 1; python=""; }
if [ -n "$python" ]; then
  "$python" -c 'import boto3, botocore, sys; print("python", sys.version.split()[0], "boto3", boto3.__version__, "botocore", botocore.__version__)'
  junit=$(mktemp)
  "$python" -m pytest tests/integration -q -p no:cacheprovider --junitxml="$junit"
  read -r it_passed it_failed < <("$python" - "$junit" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suites = [root] if root.tag == "testsuite" else list(root)
tests = sum(int(s.get("tests", 0)) for s in suites)
bad = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
skipped = sum(int(s.get("skipped", 0)) for s in suites)
print(tests - bad - skipped, bad)
PY
  ) || { it_passed=0; it_failed=1; }
  count "integration tests (pytest)" "$it_passed" "$it_failed"
  rm -f "$junit"
fi

step "AWS CLI smoke test" tests/smoke/aws_cli.sh
step "JavaScript SDK smoke test" tests/smoke/js/run.sh
step "ElectroDB smoke test" tests/smoke/electrodb/run.sh
step "web console (Chromium)" tests/console/run.sh
step "docker files" tests/docker/check.sh
step "formatting (clang-format)" scripts/format.sh --check
# Each fuzzer from the committed seeds for a short, bounded time: a decoding
# regression (a crash, a hang, a sanitizer report) fails the run.
step "fuzzers (20 s each)" env FUZZ_SECONDS="${FUZZ_SECONDS:-20}" scripts/fuzz.sh

echo
cat "$results"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
