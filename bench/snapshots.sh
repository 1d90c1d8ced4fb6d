#!/usr/bin/env bash
# How long a snapshot, a restore and a reset take (docs/testing-companion.md), for test-suite
# sizes and beyond: for each size, a fresh dynamod (in memory, then on disk) is loaded by
# bench/loadgen load --keys SIZE (SIZE items in the "bench" table and SIZE in its query table,
# SIZE/10 partitions of 10: twice SIZE items in all, shown as "items"), then timed ROUNDS
# times each:
#   snapshot     POST /dynamod/snapshots/s
#   restore      POST /dynamod/snapshots/s/restore (after a reset that empties the tables)
#   reset-keep   POST /dynamod/reset {"keep_tables": true}
#   reset        POST /dynamod/reset (every table), then a restore to refill
# Printed: the server's own time (the "milliseconds" of its answer: the copy, or the write
# transaction with its commit) and the client's round trip, medians of the rounds.
#
#   bench/snapshots.sh                 SIZES="10000 1000000" MODES="in-memory durable" ROUNDS=5
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES="${SIZES:-10000 1000000}"
MODES="${MODES:-in-memory durable}"
ROUNDS="${ROUNDS:-5}"
DYNAMOD="${DYNAMOD:-build/dynamod}"
LOADGEN="${LOADGEN:-build/dynamod-loadgen}"
PORT="${PORT:-18600}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/dynamod-snapshots.XXXXXX")"
SERVER_PID=""

cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

# call PATH [BODY]: "<server ms> <round-trip ms>" of one POST.
call() {
  local out
  out="$(curl -s -w ' %{time_total}' -X POST "http://127.0.0.1:$PORT/dynamod/$1" ${2:+-d "$2"})"
  python3 -c 'import json,sys; body, t = sys.argv[1].rsplit(" ", 1); print("%.2f %.2f" % (json.loads(body)["milliseconds"], float(t) * 1000))' "$out"
}

# shellcheck source=bench/lib.sh
. bench/lib.sh

echo "dynamod snapshots: sizes $SIZES, $ROUNDS rounds ($(nproc) cores)"
printf '%-10s %-9s %9s %-11s %12s %12s\n' mode items "MB held" operation "server ms" "round trip"
for mode in $MODES; do
  for size in $SIZES; do
    storage=(--in-memory)
    if [ "$mode" = durable ]; then rm -rf "$TMP/data"; storage=(--data-dir "$TMP/data"); fi
    "$DYNAMOD" "${storage[@]}" --port "$PORT" --log-level warn >/dev/null 2>"$TMP/server.log" &
    SERVER_PID=$!
    "$LOADGEN" wait --port "$PORT" --timeout 30 >/dev/null
    "$LOADGEN" load --port "$PORT" --keys "$size" >/dev/null
    read -r items held < <(curl -s -X POST "http://127.0.0.1:$PORT/dynamod/snapshots/s" |
      python3 -c 'import json,sys; a = json.load(sys.stdin); print(a["items"], "%.1f" % (a["bytes"] / 1e6))')
    : >"$TMP/snapshot"; : >"$TMP/restore"; : >"$TMP/keep"; : >"$TMP/reset"
    for _ in $(seq 1 "$ROUNDS"); do
      call snapshots/s >>"$TMP/snapshot"
      call reset '{"keep_tables": true}' >>"$TMP/keep"
      call snapshots/s/restore >>"$TMP/restore"
      call reset >>"$TMP/reset"
      call snapshots/s/restore >/dev/null
    done
    for op in snapshot restore keep reset; do
      label="$op"; [ "$op" = keep ] && label=reset-keep
      printf '%-10s %-9s %9s %-11s %12.2f %12.2f\n' "$mode" "$items" "$held" "$label" \
        "$(median 1 <"$TMP/$op")" "$(median 2 <"$TMP/$op")"
    done
    kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
  done
done
