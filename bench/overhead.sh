#!/usr/bin/env bash
# What one feature costs dynamod itself: the same workload against two
# configurations, alternating A and B for ROUNDS rounds so that drift on a
# shared machine hits both alike, then the medians of each (requests/s, and the
# server's CPU microseconds per request) and B/A.
#
#   bench/overhead.sh metering      GetItem and PutItem, --metering on (B) vs off (A)
#   bench/overhead.sh streams       PutItem to a table with a NEW_AND_OLD_IMAGES stream (B)
#                                   vs one without (A), same server
#   bench/overhead.sh pitr          PutItem to a table with point-in-time recovery on (B)
#                                   vs one without (A), same server
#   bench/overhead.sh multi-gsi     Query of a 10-item partition through a GSI keyed by three
#                                   partition and three sort attributes (B) vs one keyed by one
#                                   and one (A), same data; PutItem to a table with such a GSI
#                                   (B) vs one with a single-attribute GSI (A), same server
#   bench/overhead.sh baseline BIN  GetItem and PutItem, build/dynamod (B) vs another
#                                   build (A), e.g. one from before a feature landed
#   bench/overhead.sh faults BIN    GetItem and PutItem, a build without fault injection (A,
#                                   e.g. the commit before it) vs build/dynamod with no fault
#                                   rule (B) and with 20 rules that never fire (C: --faults)
#
# Environment: ROUNDS=5 DURATION=5 WARMUP=1 CONNS=16 KEYS=10000 MODE=in-memory|durable WORKLOADS="get put"
#              DYNAMOD=build/dynamod LOADGEN=build/dynamod-loadgen PORT=18500
set -euo pipefail
cd "$(dirname "$0")/.."

WHAT="${1:?usage: bench/overhead.sh metering|streams|pitr|multi-gsi|baseline BIN|faults BIN}"
ROUNDS="${ROUNDS:-5}"
DURATION="${DURATION:-5}"
WARMUP="${WARMUP:-1}"
CONNS="${CONNS:-16}"
KEYS="${KEYS:-10000}"
MODE="${MODE:-in-memory}"
DYNAMOD="${DYNAMOD:-build/dynamod}"
LOADGEN="${LOADGEN:-build/dynamod-loadgen}"
PORT="${PORT:-18500}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/dynamod-overhead.XXXXXX")"
SERVER_PID=""

cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

# start BIN ARGS...: a fresh server with its data loaded.
start() {
  local bin="$1"; shift
  local storage=(--in-memory)
  if [ "$MODE" = durable ]; then rm -rf "$TMP/data"; storage=(--data-dir "$TMP/data"); fi
  "$bin" "${storage[@]}" --port "$PORT" --log-level warn "$@" >/dev/null 2>"$TMP/server.log" &
  SERVER_PID=$!
  "$LOADGEN" wait --port "$PORT" --timeout 30 >/dev/null
  "$LOADGEN" load --port "$PORT" --keys "$KEYS" >/dev/null
}

stop() {
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}

# shellcheck source=bench/lib.sh
. bench/lib.sh

# rps WORKLOAD [loadgen args...]: one run's requests per second and the server's CPU
# microseconds per request (the second moves less on a noisy machine: it does not
# depend on how much CPU the server got, only on what each request cost it).
rps() {
  local workload="$1" t0 t1 line
  shift
  t0="$(cpu_ticks "$SERVER_PID")"
  line="$("$LOADGEN" "$workload" --port "$PORT" --conns "$CONNS" --duration "$DURATION" --warmup "$WARMUP" \
    --keys "$KEYS" --json "$@")"
  t1="$(cpu_ticks "$SERVER_PID")"
  # The CPU time covers the warm-up too: count its requests at the measured rate.
  awk -v r="$(sed -n 's/.*"rps":\([0-9.]*\).*/\1/p' <<<"$line")" -v d="$DURATION" -v w="$WARMUP" \
    -v c="$((t1 - t0))" -v hz="$CLK_TCK" 'BEGIN { printf "%.1f %.1f\n", r, 1e6 * c / hz / (r * (d + w)) }'
}

# report LABEL_A LABEL_B FILE_A FILE_B WORKLOAD
report() {
  local a b ca cb
  a="$(median 1 <"$3")"; b="$(median 1 <"$4")"
  ca="$(median 2 <"$3")"; cb="$(median 2 <"$4")"
  printf '%-8s %-28s %8.0f/s %6.1f us   %-28s %8.0f/s %6.1f us   req/s B/A %.3f   CPU per request B/A %.3f\n' \
    "$5" "A: $1" "$a" "$ca" "B: $2" "$b" "$cb" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN { print b / a }')" "$(awk -v a="$ca" -v b="$cb" 'BEGIN { print b / a }')"
  # Best rounds too: this VM has slow spells that hit whole rounds (both A and B), and the
  # fastest round of each side is the one least disturbed.
  printf '         best: req/s B/A %.3f, CPU per request B/A %.3f\n' \
    "$(awk -v a="$(sort -n -k1 "$3" | tail -1 | cut -d' ' -f1)" -v b="$(sort -n -k1 "$4" | tail -1 | cut -d' ' -f1)" 'BEGIN { print b / a }')" \
    "$(awk -v a="$(sort -n -k2 "$3" | head -1 | cut -d' ' -f2)" -v b="$(sort -n -k2 "$4" | head -1 | cut -d' ' -f2)" 'BEGIN { print b / a }')"
  printf '         rounds A: %s\n         rounds B: %s\n' "$(awk '{ printf "%.0f/%.1f ", $1, $2 }' <"$3")" \
    "$(awk '{ printf "%.0f/%.1f ", $1, $2 }' <"$4")"
}

echo "dynamod overhead: $WHAT, $MODE, $ROUNDS rounds of ${DURATION}s, $CONNS connections ($(nproc) cores)"
case "$WHAT" in
  metering|baseline)
    if [ "$WHAT" = metering ]; then
      A_BIN="$DYNAMOD"; A_ARGS=(--metering off); A_LABEL="--metering off"
      B_BIN="$DYNAMOD"; B_ARGS=(--metering on); B_LABEL="--metering on"
    else
      A_BIN="${2:?baseline needs the other dynamod binary}"; A_ARGS=(); A_LABEL="$A_BIN"
      B_BIN="$DYNAMOD"; B_ARGS=(); B_LABEL="$DYNAMOD"
    fi
    for workload in ${WORKLOADS:-get put}; do
      : >"$TMP/a"; : >"$TMP/b"
      for _ in $(seq 1 "$ROUNDS"); do
        start "$A_BIN" "${A_ARGS[@]}"; rps "$workload" >>"$TMP/a"; stop
        start "$B_BIN" "${B_ARGS[@]}"; rps "$workload" >>"$TMP/b"; stop
      done
      report "$A_LABEL" "$B_LABEL" "$TMP/a" "$TMP/b" "$workload"
    done
    ;;
  streams|pitr)
    # The same server, a second table with the feature on (B) beside the plain one (A).
    start "$DYNAMOD"
    "$LOADGEN" load --port "$PORT" --keys "$KEYS" --table bench_b >/dev/null
    python3 - "$PORT" "$WHAT" <<'PY'
import sys, boto3
c = boto3.client("dynamodb", endpoint_url="http://127.0.0.1:%s" % sys.argv[1], region_name="us-east-1",
                 aws_access_key_id="AKIDBENCHMARK", aws_secret_access_key="bench/secret/key")
if sys.argv[2] == "streams":
    c.update_table(TableName="bench_b", StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
else:
    c.update_continuous_backups(TableName="bench_b", PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
PY
    : >"$TMP/a"; : >"$TMP/b"
    for _ in $(seq 1 "$ROUNDS"); do
      rps put --table bench >>"$TMP/a"
      rps put --table bench_b >>"$TMP/b"
    done
    stop
    if [ "$WHAT" = streams ]; then
      report "no stream" "NEW_AND_OLD_IMAGES stream" "$TMP/a" "$TMP/b" put
    else
      report "no recovery" "point-in-time recovery" "$TMP/a" "$TMP/b" put
    fi
    ;;
  multi-gsi)
    start "$DYNAMOD"
    "$LOADGEN" load --port "$PORT" --keys "$KEYS" --table bench_b >/dev/null
    python3 - "$PORT" <<'PY'
import sys, time, boto3
c = boto3.client("dynamodb", endpoint_url="http://127.0.0.1:%s" % sys.argv[1], region_name="us-east-1",
                 aws_access_key_id="AKIDBENCHMARK", aws_secret_access_key="bench/secret/key")
H = lambda n: {"AttributeName": n, "KeyType": "HASH"}
R = lambda n: {"AttributeName": n, "KeyType": "RANGE"}
A = lambda n, t: {"AttributeName": n, "AttributeType": t}
defs = [A("pk", "S"), A("sk", "N"), A("name", "S"), A("email", "S"), A("created", "N"), A("score", "N"), A("payload", "S")]
# One index at a time per table (the service's rule): each backfill ends before the next.
for table, name, schema in [
        ("bench_q", "by_name", [H("name"), R("sk")]),
        ("bench_q", "by_contact", [H("name"), H("email"), H("created"), R("sk"), R("score"), R("pk")]),
        ("bench", "by_name", [H("name"), R("score")]),
        ("bench_b", "by_contact", [H("name"), H("email"), H("created"), R("score"), R("pk"), R("payload")])]:
    c.update_table(TableName=table, AttributeDefinitions=defs,
                   GlobalSecondaryIndexUpdates=[{"Create": {"IndexName": name, "KeySchema": schema,
                                                            "Projection": {"ProjectionType": "ALL"}}}])
    while any(i["IndexStatus"] != "ACTIVE" for i in c.describe_table(TableName=table)["Table"]["GlobalSecondaryIndexes"]):
        time.sleep(0.2)
PY
    : >"$TMP/qa"; : >"$TMP/qb"; : >"$TMP/pa"; : >"$TMP/pb"
    for _ in $(seq 1 "$ROUNDS"); do
      rps query-gsi >>"$TMP/qa"
      rps query-gsi3 >>"$TMP/qb"
      rps put --table bench >>"$TMP/pa"
      rps put --table bench_b >>"$TMP/pb"
    done
    stop
    report "GSI of 1+1 attributes" "GSI of 3+3 attributes" "$TMP/qa" "$TMP/qb" query
    report "GSI of 1+1 attributes" "GSI of 3+3 attributes" "$TMP/pa" "$TMP/pb" put
    ;;
  faults)
    A_BIN="${2:?faults needs a dynamod binary without fault injection}"
    # 20 rules that match the workload's operations but never its table: each request is
    # read for its table and checked against all 20.
    python3 - "$TMP/rules.json" <<'PY'
import json, sys
ops = ["GetItem", "PutItem"]
rules = [{"operations": ops, "tables": ["not_bench_%d" % i], "error": "InternalServerError"} for i in range(10)]
rules += [{"operations": ops, "tables": ["bench"], "key_prefix": "no-such-key-%d" % i, "latency_ms": 100}
          for i in range(10)]
json.dump(rules, open(sys.argv[1], "w"))
PY
    for workload in ${WORKLOADS:-get put}; do
      : >"$TMP/a"; : >"$TMP/b"; : >"$TMP/c"
      for _ in $(seq 1 "$ROUNDS"); do
        start "$A_BIN"; rps "$workload" >>"$TMP/a"; stop
        start "$DYNAMOD"; rps "$workload" >>"$TMP/b"; stop
        start "$DYNAMOD" --faults "$TMP/rules.json"; rps "$workload" >>"$TMP/c"; stop
      done
      report "$A_BIN" "no rules" "$TMP/a" "$TMP/b" "$workload"
      report "$A_BIN" "20 rules, none firing" "$TMP/a" "$TMP/c" "$workload"
    done
    ;;
  *) echo "unknown comparison '$WHAT'" >&2; exit 2 ;;
esac
