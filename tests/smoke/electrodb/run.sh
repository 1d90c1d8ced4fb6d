#!/usr/bin/env bash
# ElectroDB 3.x smoke test: installs ElectroDB and the JavaScript SDK from npm (lock file pinned)
# and runs an entity with a multi-attribute index against a fresh dynamod (ENDPOINT, when set,
# points it at another server instead, e.g. DynamoDB Local).
set -euo pipefail
cd "$(dirname "$0")"
[ -n "${ENDPOINT:-}" ] || source ../start_dynamod.sh
[ -d node_modules/electrodb ] || npm ci --no-audit --no-fund --loglevel=error
node --no-warnings smoke.mjs
