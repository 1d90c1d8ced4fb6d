#!/usr/bin/env bash
# The web console in headless Chromium (Debian's chromium, driven by
# playwright-core from npm, lock file pinned; no browser is downloaded):
# against an in-memory dynamod, then one with --credentials (the sign-in and
# the browser's SigV4), then one with --console off. Screenshots go to
# OUTPUT_DIR (default build/console-test/).
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"
export OUTPUT_DIR="${OUTPUT_DIR:-$root/build/console-test}"
mkdir -p "$OUTPUT_DIR"
rm -f "$OUTPUT_DIR"/*.png
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$CHROMIUM" ] || { echo "console test: $CHROMIUM is missing (scripts/install-deps.sh test installs it)" >&2; exit 1; }
[ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund --loglevel=error

tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
start() {  # start NAME ARGS...: an in-memory dynamod on a free port; sets PORT
  local log="$tmp/$1.log"
  "$root/build/dynamod" --in-memory --port 0 --log-level warn --ttl-interval 1 "${@:2}" >"$log" 2>&1 &
  pids+=($!)
  PORT=""
  for _ in $(seq 1 100); do
    PORT=$(sed -n 's/^dynamod listening on .*:\([0-9]*\)$/\1/p' "$log")
    [ -n "$PORT" ] && return 0
    sleep 0.05
  done
  echo "dynamod did not start:" >&2; cat "$log" >&2; exit 1
}

start open --throttle
export ENDPOINT="http://127.0.0.1:$PORT"
printf 'CONSOLEKEY console-secret\n' >"$tmp/credentials"
start strict --credentials "$tmp/credentials"
export STRICT_ENDPOINT="http://127.0.0.1:$PORT"
start off --console off
export OFF_ENDPOINT="http://127.0.0.1:$PORT"
node --no-warnings console.test.mjs
