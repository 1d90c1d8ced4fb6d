#!/usr/bin/env bash
# Are others still served while someone sends hostile bodies? GetItem over 16
# connections alone (A), then with bench/hostile_sender.py sending the most
# expensive hostile bodies known (deep, wide, 16 MB, gzip bombs) on 4 more
# connections (B), alternating for ROUNDS rounds; the medians of GetItem's
# requests per second and p99, and B/A.
#
# Environment: ROUNDS=3 DURATION=8 WARMUP=1 CONNS=16 HOSTILE_CONNS=4 KEYS=10000
#              MODE=in-memory|durable DYNAMOD=build/dynamod LOADGEN=build/dynamod-loadgen PORT=18600
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-8}"
WARMUP="${WARMUP:-1}"
CONNS="${CONNS:-16}"
HOSTILE_CONNS="${HOSTILE_CONNS:-4}"
KEYS="${KEYS:-10000}"
MODE="${MODE:-in-memory}"
DYNAMOD="${DYNAMOD:-build/dynamod}"
LOADGEN="${LOADGEN:-build/dynamod-loadgen}"
PORT="${PORT:-18600}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/dynamod-hostile.XXXXXX")"
SERVER_PID=""
SENDER_PID=""
cleanup() {
  for pid in "$SENDER_PID" "$SERVER_PID"; do
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  done
  rm -rf "$TMP"
}
trap cleanup EXIT

storage=(--in-memory)
[ "$MODE" = durable ] && storage=(--data-dir "$TMP/data")
"$DYNAMOD" "${storage[@]}" --port "$PORT" --log-level warn >/dev/null 2>"$TMP/server.log" &
SERVER_PID=$!
"$LOADGEN" wait --port "$PORT" --timeout 30 >/dev/null
"$LOADGEN" load --port "$PORT" --keys "$KEYS" >/dev/null

get() {  # one GetItem run: "rps p99_ms"
  "$LOADGEN" get --port "$PORT" --conns "$CONNS" --duration "$DURATION" --warmup "$WARMUP" --keys "$KEYS" --json |
    sed -n 's/.*"rps":\([0-9.]*\).*"p99_ms":\([0-9.]*\).*/\1 \2/p'
}
# shellcheck source=bench/lib.sh
. bench/lib.sh  # median

echo "dynamod under hostile bodies: $MODE, $ROUNDS rounds of ${DURATION}s, GetItem on $CONNS connections, hostile sender on $HOSTILE_CONNS ($(nproc) cores)"
: >"$TMP/a"; : >"$TMP/b"
for round in $(seq 1 "$ROUNDS"); do
  get >>"$TMP/a"
  python3 bench/hostile_sender.py --port "$PORT" --conns "$HOSTILE_CONNS" --duration $((DURATION + WARMUP + 1)) \
    >"$TMP/sender.$round" 2>"$TMP/ready.$round" &
  SENDER_PID=$!
  until grep -q ready "$TMP/ready.$round"; do  # it builds and signs its bodies first
    kill -0 "$SENDER_PID" 2>/dev/null || { cat "$TMP/ready.$round" >&2; exit 1; }
    sleep 0.2
  done
  get >>"$TMP/b"
  wait "$SENDER_PID"; SENDER_PID=""
  kill -0 "$SERVER_PID" || { echo "dynamod died: $(tail -5 "$TMP/server.log")" >&2; exit 1; }
done
ra="$(median 1 <"$TMP/a")"; rb="$(median 1 <"$TMP/b")"
pa="$(median 2 <"$TMP/a")"; pb="$(median 2 <"$TMP/b")"
printf 'GetItem alone:            %8.0f req/s  p99 %6.2f ms   (rounds: %s)\n' "$ra" "$pa" "$(tr '\n' ';' <"$TMP/a")"
printf 'GetItem beside hostile:   %8.0f req/s  p99 %6.2f ms   (rounds: %s)\n' "$rb" "$pb" "$(tr '\n' ';' <"$TMP/b")"
printf 'B/A: req/s %.3f, p99 %.2f\n' "$(awk -v a="$ra" -v b="$rb" 'BEGIN { print b / a }')" \
  "$(awk -v a="$pa" -v b="$pb" 'BEGIN { print b / a }')"
echo "dynamod's RSS after: $(awk '/VmHWM/ { print $2 " kB peak" }' "/proc/$SERVER_PID/status")"
echo "hostile requests answered in the last round (body, HTTP status: count):"
cat "$TMP/sender.$ROUNDS" 2>/dev/null || true
