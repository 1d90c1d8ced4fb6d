#!/usr/bin/env bash
# JavaScript SDK v3 smoke tests (smoke.mjs; faults.mjs, the test-suite companion): installs the SDK from npm (lock file pinned) and runs it.
set -euo pipefail
cd "$(dirname "$0")"
source ../start_dynamod.sh
[ -d node_modules/@aws-sdk/lib-dynamodb ] || npm ci --no-audit --no-fund --loglevel=error
node --no-warnings smoke.mjs
node --no-warnings faults.mjs
