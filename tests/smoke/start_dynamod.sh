#!/usr/bin/env bash
# Sourced by the smoke tests: starts an in-memory dynamod on a free port, sets
# ENDPOINT, and stops the server when the sourcing script exits.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
log=$(mktemp)
"$root/build/dynamod" --in-memory --port 0 --log-level warn >"$log" 2>&1 &
dynamod_pid=$!
trap 'kill $dynamod_pid 2>/dev/null; wait $dynamod_pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
  port=$(sed -n 's/^dynamod listening on .*:\([0-9]*\)$/\1/p' "$log")
  [ -n "$port" ] && break
  sleep 0.05
done
[ -n "${port:-}" ] || { echo "dynamod did not start:"; cat "$log"; exit 1; } >&2
ENDPOINT="http://127.0.0.1:$port"
export ENDPOINT
