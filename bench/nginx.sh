#!/usr/bin/env bash
# The HTTP ceiling on this machine: nginx answering a tiny static file, measured
# with the same load generator (workload raw-get: GET / over keep-alive
# connections, 200 expected). Then dynamod's own GET / (its health answer) and a
# GetItem, for comparison. Installs nginx from Debian when missing.
#
#   bench/nginx.sh                 DURATION=10 WARMUP=2 CONNS=16 NGINX_WORKERS=auto
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION="${DURATION:-10}"
WARMUP="${WARMUP:-2}"
CONNS="${CONNS:-16}"
NGINX_WORKERS="${NGINX_WORKERS:-auto}"  # auto: one per core, as dynamod's default --threads
DYNAMOD="${DYNAMOD:-build/dynamod}"
LOADGEN="${LOADGEN:-build/dynamod-loadgen}"
[ -x "$LOADGEN" ] || { echo "nginx.sh: $LOADGEN is missing; build with: make bench" >&2; exit 1; }

# shellcheck source=bench/lib.sh
. bench/lib.sh
NGINX="$(nginx_binary)"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/dynamod-nginx.XXXXXX")"
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

run() { timeout --kill-after=5 "$(awk -v d="$DURATION" -v w="$WARMUP" 'BEGIN { printf "%d", d + w + 60 }')" "$LOADGEN" "$@"; }

port="$(free_port "${PORT:-18480}")"
nginx_start "$NGINX" "$TMP" "$port" "$NGINX_WORKERS"
PIDS+=("$NGINX_PID")
"$LOADGEN" wait --port "$port" --probe get --timeout 20 >/dev/null
run raw-get --port "$port" --conns "$CONNS" --duration "$DURATION" --warmup "$WARMUP" --label nginx
kill "${PIDS[0]}"; wait "${PIDS[0]}" 2>/dev/null || true

if [ -x "$DYNAMOD" ]; then
  port="$(free_port "${PORT:-18480}")"
  "$DYNAMOD" --in-memory --port "$port" --log-level warn >/dev/null 2>&1 &
  PIDS+=($!)
  "$LOADGEN" wait --port "$port" --timeout 20 >/dev/null
  run raw-get --port "$port" --conns "$CONNS" --duration "$DURATION" --warmup "$WARMUP" --label dynamod
  "$LOADGEN" load --port "$port" --keys 10000 >/dev/null 2>&1
  run get --port "$port" --conns "$CONNS" --duration "$DURATION" --warmup "$WARMUP" --label dynamod
fi
