#!/usr/bin/env bash
# dynamod vs AWS's DynamoDB Local, side by side, on this machine. See bench/README.md.
#
#   bench/run.sh                                    everything (about 10 minutes)
#   DURATION=2 WORKLOADS="get put" MODES=in-memory bench/run.sh
#
# Environment:
#   DURATION=10 WARMUP=2 CONNS=16 KEYS=10000     per run: measured seconds, warm-up, connections, items
#   WORKLOADS="get put update query cond-put batch-write transact-write scan-filter mix"
#   MODES="in-memory durable"                    dynamod --in-memory / --data-dir; DynamoDB Local -inMemory / -dbPath
#   SERVERS="dynamod ddb-local"                  drop ddb-local to benchmark dynamod alone
#   STARTUP_RUNS=20 DDB_STARTUP_RUNS=5           startup-time repetitions (0 skips)
#   NGINX=1                                      measure nginx's static answer, the HTTP ceiling (0 skips)
#   SCALE_KEYS=1000000 SCALE_WORKLOADS="get query"  dynamod --data-dir with this many items per table:
#                                                on-disk size, RSS, latency at scale (0 skips)
#   DYNAMOD=build/dynamod LOADGEN=build/dynamod-loadgen DYNAMOD_ARGS=  (extra dynamod flags)
#   QUIET_WAIT=60                                before each run, wait up to this many seconds for the
#                                                rest of the machine to be idle (0: don't wait)
#   VERIFY_SIGNATURES=1                          dynamod checks every signature (--credentials), as AWS does
#   DDB_LOCAL=<shared>/tools/dynamodb-local PORT=18400 RESULTS=build/bench-results/<time>
#   RECORD=1                                     append the run's summary to bench/RESULTS.md
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION="${DURATION:-10}"
WARMUP="${WARMUP:-2}"
CONNS="${CONNS:-16}"
KEYS="${KEYS:-10000}"
WORKLOADS="${WORKLOADS:-get put update query cond-put batch-write transact-write scan-filter mix}"
MODES="${MODES:-in-memory durable}"
SERVERS="${SERVERS:-dynamod ddb-local}"
STARTUP_RUNS="${STARTUP_RUNS:-20}"
QUIET_WAIT="${QUIET_WAIT:-60}"
DDB_STARTUP_RUNS="${DDB_STARTUP_RUNS:-5}"
NGINX="${NGINX:-1}"
SCALE_KEYS="${SCALE_KEYS:-1000000}"
SCALE_WORKLOADS="${SCALE_WORKLOADS:-get query}"
DYNAMOD="${DYNAMOD:-build/dynamod}"
LOADGEN="${LOADGEN:-build/dynamod-loadgen}"
DYNAMOD_ARGS="${DYNAMOD_ARGS:-}"
RESULTS="${RESULTS:-build/bench-results/$(date +%Y%m%d-%H%M%S)}"
if [ -z "${DDB_LOCAL:-}" ]; then
  DDB_LOCAL="$(cd .. && pwd)/shared/tools/dynamodb-local"
  [ -x "$DDB_LOCAL" ] || DDB_LOCAL=/work/shared/tools/dynamodb-local
fi

for f in "$DYNAMOD" "$LOADGEN"; do
  [ -x "$f" ] || { echo "run.sh: $f is missing; build with: make bench" >&2; exit 1; }
done
if [[ " $SERVERS " == *" ddb-local "* ]] && [ ! -x "$DDB_LOCAL" ]; then
  echo "run.sh: $DDB_LOCAL not found; set DDB_LOCAL= or SERVERS=dynamod" >&2; exit 1
fi

mkdir -p "$RESULTS"
RESULTS="$(cd "$RESULTS" && pwd)"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/dynamod-bench.XXXXXX")"
RAW="$RESULTS/raw.jsonl"
: >"$RAW"
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

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }


# A field of a flat JSON line: jfield LINE NAME
jfield() { sed -n "s/.*\"$2\":\"\{0,1\}\([^,\"}]*\).*/\1/p" <<<"$1"; }
jdash() { local v; v="$(jfield "$1" "$2")"; echo "${v:--}"; }
jerrtypes() { sed -n 's/.*"error_types":{\([^}]*\)}.*/\1/p' <<<"$1" | tr -d '"' | sed 's/:/ /g; s/,/, /g'; }

# shellcheck source=bench/lib.sh
. bench/lib.sh

machine_busy_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }  # all but idle, iowait
rss_kib() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
mib() { awk -v k="${1:-0}" 'BEGIN { printf "%.0f", k / 1024 }'; }

# Waits (at most QUIET_WAIT seconds) until the rest of the machine has been idle for 2 s:
# other processes using under 20% of one core besides the server under test ($1, idle by then).
wait_quiet() {
  local server="$1" waited=0 quiet=0 b0 b1 s0 s1 other
  [ "$QUIET_WAIT" -gt 0 ] || return 0
  while [ "$waited" -lt "$QUIET_WAIT" ]; do
    b0="$(machine_busy_ticks)"; s0="$(cpu_ticks "$server")"
    sleep 1
    b1="$(machine_busy_ticks)"; s1="$(cpu_ticks "$server")"
    waited=$((waited + 1))
    other=$(( ((b1 - b0) - (s1 - s0)) * 100 / CLK_TCK ))
    if [ "$other" -lt 20 ]; then quiet=$((quiet + 1)); else quiet=0; fi
    [ "$quiet" -ge 2 ] && return 0
  done
  log "  (the machine is still busy after ${QUIET_WAIT} s: ${other}% of a core; going on, see the 'other' column)"
}

loadgen() {
  # Bounded: duration + warm-up + drain, with margin.
  timeout --kill-after=5 "$(awk -v d="$DURATION" -v w="$WARMUP" 'BEGIN { printf "%d", d + w + 60 }')" \
    "$LOADGEN" "$@"
}

SERVER_PID=""
start_server() {  # start_server NAME MODE PORT
  local name="$1" mode="$2" port="$3"
  if [ "$name" = dynamod ]; then
    local args=(--port "$port" --log-level warn)
    if [ "$mode" = in-memory ]; then args+=(--in-memory); else args+=(--data-dir "$TMP/dynamod-data"); fi
    if [ "${VERIFY_SIGNATURES:-0}" = 1 ]; then  # the load generator's default credentials
      echo "AKIDBENCHMARK bench/secret/key" >"$TMP/credentials"
      args+=(--credentials "$TMP/credentials")
    fi
    # shellcheck disable=SC2086
    "$DYNAMOD" "${args[@]}" $DYNAMOD_ARGS >"$RESULTS/dynamod-$mode.log" 2>&1 &
    SERVER_PID=$!
  else
    local args=()
    [ "$mode" = durable ] && args=(-dbPath "$TMP/ddb-local-data" -sharedDb)
    SERVER_PID="$("$DDB_LOCAL" "$port" "${args[@]}")"
  fi
  PIDS+=("$SERVER_PID")
  "$LOADGEN" wait --port "$port" --timeout 120 >/dev/null
}

stop_server() {
  kill "$SERVER_PID" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$SERVER_PID" 2>/dev/null || true
  local kept=() pid
  for pid in "${PIDS[@]}"; do [ "$pid" = "$SERVER_PID" ] || kept+=("$pid"); done
  PIDS=("${kept[@]}")
}

# Results, keyed "server|mode|workload" -> JSON line.
declare -A RES
declare -A INFO

declare -A SERVER_PIDS SERVER_PORTS  # server name -> its PID and port while a mode runs

# writer_totals PORT: "commits requests commit_seconds" of dynamod's group commit so far
# (GET /dynamod/metrics).
writer_totals() {
  curl -s "http://127.0.0.1:$1/dynamod/metrics" | awk '
    $1 == "dynamod_write_commits_total" { c = $2 }
    $1 == "dynamod_write_committed_requests_total" { r = $2 }
    $1 == "dynamod_write_commit_seconds_total" { s = $2 }
    END { printf "%d %d %f", c, r, s }'
}

# run_workload NAME MODE WORKLOAD: one measured run against one (loaded) server.
run_workload() {
  local name="$1" mode="$2" w="$3" port="${SERVER_PORTS[$1]}" line ticks0 t0 ticks1 t1 busy0 busy1 writes0=""
  SERVER_PID="${SERVER_PIDS[$name]}"
  wait_quiet "$SERVER_PID"
  [ "$name" = dynamod ] && writes0="$(writer_totals "$port")"
  ticks0="$(cpu_ticks "$SERVER_PID")"; t0="$(date +%s.%N)"; busy0="$(machine_busy_ticks)"
  line="$(loadgen "$w" --port "$port" --keys "$KEYS" --conns "$CONNS" --duration "$DURATION" --warmup "$WARMUP" \
    --label "$name" --json 2>>"$RESULTS/loadgen-stderr.log")" || true
  if [ -z "$line" ] || ! kill -0 "$SERVER_PID" 2>/dev/null; then
    log "  $name $w: no result$(kill -0 "$SERVER_PID" 2>/dev/null || echo "; the server died (see $RESULTS)")"
    line="{\"workload\":\"$w\",\"rps\":0,\"errors\":-1,\"error_types\":{\"no result\":1}}"
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then  # restart it, with its data, for the next workloads
      start_server "$name" "$mode" "$port"
      SERVER_PIDS[$name]="$SERVER_PID"
      loadgen load --port "$port" --keys "$KEYS" --conns "$CONNS" >/dev/null 2>&1 || true
    fi
  fi
  ticks1="$(cpu_ticks "$SERVER_PID")"; t1="$(date +%s.%N)"; busy1="$(machine_busy_ticks)"
  # dynamod's writer over the run (warm-up included): requests per commit, commits per second,
  # milliseconds per commit inside LMDB (page writes, and the syncs when durable). Runs that do
  # not write see only the odd upkeep commit: left out.
  if [ -n "$writes0" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    INFO["$name|$mode|$w|writer"]="$(awk -v a="$writes0" -v b="$(writer_totals "$port")" -v s="$t0" -v e="$t1" '
      BEGIN { split(a, x, " "); split(b, y, " "); c = y[1] - x[1]; r = y[2] - x[2]; t = y[3] - x[3];
              if (e > s && c / (e - s) >= 1) printf "%.1f %.0f %.2f", r / c, c / (e - s), 1000 * t / c }')"
  fi
  # Over the whole run (warm-up included), in % of one core: the server's CPU, and what the
  # rest of the machine used besides the server and the load generator (noise when not ~0).
  INFO["$name|$mode|$w|cpu"]="$(awk -v a="$ticks0" -v b="$ticks1" -v s="$t0" -v e="$t1" -v hz="$CLK_TCK" \
    'BEGIN { if (e > s) printf "%.0f", 100 * (b - a) / hz / (e - s); else print 0 }')"
  INFO["$name|$mode|$w|other"]="$(awk -v a="$ticks0" -v b="$ticks1" -v s="$t0" -v e="$t1" -v hz="$CLK_TCK" \
    -v m0="$busy0" -v m1="$busy1" -v c="$(jfield "$line" client_cpu_total_s)" \
    'BEGIN { o = ((m1 - m0) - (b - a)) / hz - c; if (o < 0) o = 0; if (e > s) printf "%.0f", 100 * o / (e - s); else print 0 }')"
  RES["$name|$mode|$w"]="$line"
  echo "{\"mode\":\"$mode\",$(cut -c2- <<<"$line")" >>"$RAW"
  log "  $name $w: $(jfield "$line" rps) req/s p50 $(jfield "$line" p50_ms) ms p99 $(jfield "$line" p99_ms) ms errors $(jfield "$line" errors) $(jerrtypes "$line")"
}

# bench_mode MODE: starts every server and loads each (the others idle), then runs each
# workload on each server in turn, so that the figures compared in one row are taken
# seconds apart: this machine's speed drifts from one minute to the next.
bench_mode() {
  local mode="$1" name port line w
  for name in $SERVERS; do
    port="$(free_port "${PORT:-18400}")"
    log "$name ($mode) on 127.0.0.1:$port"
    start_server "$name" "$mode" "$port"
    SERVER_PIDS[$name]="$SERVER_PID"
    SERVER_PORTS[$name]="$port"
    INFO["$name|$mode|rss_idle"]="$(rss_kib "$SERVER_PID" VmRSS)"
    wait_quiet "$SERVER_PID"
    line="$(loadgen load --port "$port" --keys "$KEYS" --conns "$CONNS" --label "$name" --json \
      2>>"$RESULTS/loadgen-stderr.log")" || true
    [ -n "$line" ] || line='{"workload":"load","items_per_s":0,"errors":-1,"error_types":{"no result":1}}'
    echo "{\"mode\":\"$mode\",$(cut -c2- <<<"$line")" >>"$RAW"
    RES["$name|$mode|load"]="$line"
    INFO["$name|$mode|rss_loaded"]="$(rss_kib "$SERVER_PID" VmRSS)"
    log "  load: $(jfield "$line" items_per_s) items/s with $(jfield "$line" operation), errors $(jfield "$line" errors)"
  done
  for w in $WORKLOADS; do
    for name in $SERVERS; do run_workload "$name" "$mode" "$w"; done
  done
  for name in $SERVERS; do
    SERVER_PID="${SERVER_PIDS[$name]}"
    INFO["$name|$mode|rss_now"]="$(rss_kib "$SERVER_PID" VmRSS)"
    INFO["$name|$mode|rss_peak"]="$(rss_kib "$SERVER_PID" VmHWM)"
    stop_server
  done
}

startup_times() {
  local port line
  [ "$STARTUP_RUNS" -gt 0 ] || return 0
  port="$(free_port "${PORT:-18400}")"
  wait_quiet $$
  log "startup time: dynamod --in-memory, $STARTUP_RUNS runs"
  # shellcheck disable=SC2086
  line="$("$LOADGEN" startup --port "$port" --repeat "$STARTUP_RUNS" --timeout 30 --label dynamod --json -- \
    "$DYNAMOD" --in-memory --port "$port" --log-level warn $DYNAMOD_ARGS)" || line=""
  INFO[startup_dynamod_mem]="$line"
  if [ -d "$TMP/dynamod-data" ]; then
    log "startup time: dynamod --data-dir with $KEYS+$KEYS items, $STARTUP_RUNS runs"
    # shellcheck disable=SC2086
    line="$("$LOADGEN" startup --port "$port" --repeat "$STARTUP_RUNS" --timeout 30 --label dynamod --json -- \
      "$DYNAMOD" --data-dir "$TMP/dynamod-data" --port "$port" --log-level warn $DYNAMOD_ARGS)" || line=""
    INFO[startup_dynamod_disk]="$line"
  fi
  if [[ " $SERVERS " == *" ddb-local "* ]] && [ "$DDB_STARTUP_RUNS" -gt 0 ]; then
    # Spawn the JVM directly (the tool's own readiness loop polls every 0.5 s).
    local home jar
    home="${DYNAMODB_LOCAL_HOME:-$HOME/.cache/dynamodb-local}"
    jar="$(ls -d "$home"/package/lib/dynamodb_local_*/DynamoDBLocal.jar 2>/dev/null | sort | tail -n 1 || true)"
    if [ -n "$jar" ]; then
      log "startup time: DynamoDB Local -inMemory, $DDB_STARTUP_RUNS runs"
      line="$("$LOADGEN" startup --port "$port" --repeat "$DDB_STARTUP_RUNS" --timeout 60 --label ddb-local --json -- \
        bash -c 'cd "$1" && exec java -Djava.library.path="$1/DynamoDBLocal_lib" -jar "$2" -port "$3" -inMemory -sharedDb' \
        _ "$(dirname "$jar")" "$jar" "$port")" || line=""
      INFO[startup_ddb_mem]="$line"
    fi
  fi
}

# The HTTP ceiling: nginx's static answer to GET / with the same client.
bench_nginx() {
  local nginx port line
  nginx="$(nginx_binary)"
  port="$(free_port "${PORT:-18400}")"
  log "nginx (static file) on 127.0.0.1:$port"
  nginx_start "$nginx" "$TMP/nginx" "$port" auto
  SERVER_PID="$NGINX_PID"
  PIDS+=("$SERVER_PID")
  "$LOADGEN" wait --port "$port" --probe get --timeout 20 >/dev/null
  wait_quiet "$SERVER_PID"
  line="$(loadgen raw-get --port "$port" --conns "$CONNS" --duration "$DURATION" --warmup "$WARMUP" --label nginx \
    --json 2>>"$RESULTS/loadgen-stderr.log")" || line=""
  [ -n "$line" ] || line='{"workload":"raw-get","rps":0,"errors":-1,"error_types":{"no result":1}}'
  RES["nginx|raw-get"]="$line"
  echo "{\"mode\":\"static\",$(cut -c2- <<<"$line")" >>"$RAW"
  log "  raw-get: $(jfield "$line" rps) req/s p50 $(jfield "$line" p50_ms) ms p99 $(jfield "$line" p99_ms) ms errors $(jfield "$line" errors)"
  stop_server
}

# dynamod at scale: SCALE_KEYS items per table on disk; what the files take, and how
# latency compares with the runs on KEYS items.
bench_scale() {
  local port line dir="$TMP/dynamod-scale" w
  port="$(free_port "${PORT:-18400}")"
  log "dynamod (durable) with $SCALE_KEYS items per table on 127.0.0.1:$port"
  rm -rf "$dir"
  "$DYNAMOD" --port "$port" --log-level warn --data-dir "$dir" $DYNAMOD_ARGS >"$RESULTS/dynamod-scale.log" 2>&1 &
  SERVER_PID=$!
  PIDS+=("$SERVER_PID")
  "$LOADGEN" wait --port "$port" --timeout 30 >/dev/null
  wait_quiet "$SERVER_PID"
  line="$(timeout --kill-after=5 3600 "$LOADGEN" load --port "$port" --keys "$SCALE_KEYS" --conns "$CONNS" \
    --label dynamod --json 2>>"$RESULTS/loadgen-stderr.log")" || true
  [ -n "$line" ] || line='{"workload":"load","items_per_s":0,"errors":-1,"error_types":{"no result":1}}'
  RES["scale|load"]="$line"
  echo "{\"mode\":\"scale\",$(cut -c2- <<<"$line")" >>"$RAW"
  log "  load: $(jfield "$line" items) items in $(jfield "$line" seconds) s, errors $(jfield "$line" errors)"
  INFO[scale_rss_loaded]="$(rss_kib "$SERVER_PID" VmRSS)"
  INFO[scale_item_bytes]="$(jfield "$("$LOADGEN" sizes --port "$port" --json)" item_bytes)"
  INFO[scale_disk_bytes]="$(du -sb "$dir" | cut -f1)"
  for w in $SCALE_WORKLOADS; do
    wait_quiet "$SERVER_PID"
    line="$(loadgen "$w" --port "$port" --keys "$SCALE_KEYS" --conns "$CONNS" --duration "$DURATION" \
      --warmup "$WARMUP" --label dynamod --json 2>>"$RESULTS/loadgen-stderr.log")" || true
    [ -n "$line" ] || line="{\"workload\":\"$w\",\"rps\":0,\"errors\":-1,\"error_types\":{\"no result\":1}}"
    RES["scale|$w"]="$line"
    echo "{\"mode\":\"scale\",$(cut -c2- <<<"$line")" >>"$RAW"
    log "  $w: $(jfield "$line" rps) req/s p50 $(jfield "$line" p50_ms) ms p99 $(jfield "$line" p99_ms) ms errors $(jfield "$line" errors)"
  done
  INFO[scale_rss_peak]="$(rss_kib "$SERVER_PID" VmHWM)"
  INFO[scale_rss_anon]="$(rss_kib "$SERVER_PID" RssAnon)"
  INFO[scale_rss_file]="$(rss_kib "$SERVER_PID" RssFile)"
  stop_server
  rm -rf "$dir"
}

# ---------------------------------------------------------------- run

LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
log "results in $RESULTS; $(nproc) cores; load average $LOAD_BEFORE"
[ "$NGINX" = 1 ] && bench_nginx
for mode in $MODES; do
  rm -rf "$TMP/dynamod-data" "$TMP/ddb-local-data"
  bench_mode "$mode"
  # Startup with existing data needs the durable data dir, so time startup after the durable runs.
  if [ "$mode" = durable ] || [ "$MODES" = in-memory ]; then startup_times; fi
done
[ "$SCALE_KEYS" -gt 0 ] && bench_scale

# ---------------------------------------------------------------- report

has_ddb=0
[[ " $SERVERS " == *" ddb-local "* ]] && has_ddb=1

cell_rps() {  # the req/s of a run, or FAIL when it had errors
  local line="$1" errors
  [ -z "$line" ] && { echo "-"; return; }
  errors="$(jfield "$line" errors)"
  if [ "${errors:-0}" != 0 ]; then echo "FAIL"; else printf "%.0f" "$(jfield "$line" rps)"; fi
}

report() {
  local d j w mode dr jr ratio de je derr jerr lat jlat
  echo "dynamod vs DynamoDB Local: $CONNS connections, ${DURATION} s per run after ${WARMUP} s warm-up, $KEYS items per table"
  echo "($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores shared by client and server, durable data on $(df -T "$TMP" | awk 'NR == 2 { print $2 }');"
  echo " load average before $LOAD_BEFORE, after $(cut -d' ' -f1-3 /proc/loadavg); req/s of runs with errors shown as FAIL)"
  echo
  printf "%-15s %-10s %14s %16s %8s %20s %20s  %s\n" workload mode "dynamod req/s" "DDB Local req/s" ratio \
    "dynamod p50/p99 ms" "DDB Local p50/p99" "errors dynamod / DDB Local"
  for mode in $MODES; do
    for w in load $WORKLOADS; do
      d="${RES["dynamod|$mode|$w"]:-}"
      j="${RES["ddb-local|$mode|$w"]:-}"
      if [ "$w" = load ]; then
        dr="$( [ -n "$d" ] && printf "%.0f" "$(jfield "$d" items_per_s)" || echo -)"
        jr="$( [ -n "$j" ] && printf "%.0f" "$(jfield "$j" items_per_s)" || echo -)"
        w="load items/s"
      else
        dr="$(cell_rps "$d")"
        jr="$(cell_rps "$j")"
      fi
      ratio="-"
      if [[ "$dr" =~ ^[0-9]+$ && "$jr" =~ ^[0-9]+$ && "$jr" != 0 ]]; then
        ratio="$(awk -v a="$dr" -v b="$jr" 'BEGIN { printf "%.1fx", a / b }')"
      fi
      lat="-"; jlat="-"
      de="$(jfield "$d" errors)"; je="$(jfield "$j" errors)"
      # Latencies of failing runs would be those of the error answers: not shown.
      [ -n "$d" ] && [ "${de:-0}" = 0 ] && lat="$(printf "%.2f / %.2f" "$(jfield "$d" p50_ms)" "$(jfield "$d" p99_ms)")"
      [ -n "$j" ] && [ "${je:-0}" = 0 ] && jlat="$(printf "%.2f / %.2f" "$(jfield "$j" p50_ms)" "$(jfield "$j" p99_ms)")"
      derr="${de:--}"; jerr="${je:--}"
      [ "${de:-0}" != 0 ] && derr="$de ($(jerrtypes "$d"))"
      [ "${je:-0}" != 0 ] && jerr="$je ($(jerrtypes "$j"))"
      [ "$has_ddb" = 1 ] || { jerr="-"; }
      printf "%-15s %-10s %14s %16s %8s %20s %20s  %s / %s\n" "$w" "$mode" "$dr" "$jr" "$ratio" "$lat" "$jlat" \
        "$derr" "$jerr"
    done
  done
  echo
  echo "CPU in % of one core (200 = the machine): the server over the run (warm-up included), the load"
  echo "generator over the measured part, and other processes on the machine over the run (noise)"
  printf "%-15s %-10s %12s %8s %6s %14s %8s %6s\n" workload mode "dynamod" loadgen other "DDB Local" loadgen other
  for mode in $MODES; do
    for w in $WORKLOADS; do
      d="${RES["dynamod|$mode|$w"]:-}"
      j="${RES["ddb-local|$mode|$w"]:-}"
      printf "%-15s %-10s %12s %8s %6s %14s %8s %6s\n" "$w" "$mode" "${INFO["dynamod|$mode|$w|cpu"]:--}" \
        "$(jdash "$d" client_cpu_pct)" "${INFO["dynamod|$mode|$w|other"]:--}" "${INFO["ddb-local|$mode|$w|cpu"]:--}" \
        "$(jdash "$j" client_cpu_pct)" "${INFO["ddb-local|$mode|$w|other"]:--}"
    done
  done
  echo
  echo "dynamod's writer over each run that writes: requests per commit (group size), commits per"
  echo "second, and milliseconds per commit inside LMDB (page writes, and the syncs when durable)"
  printf "%-15s %-10s %12s %10s %10s\n" workload mode "req/commit" "commits/s" "ms/commit"
  for mode in $MODES; do
    for w in $WORKLOADS; do
      local groups="${INFO["dynamod|$mode|$w|writer"]:-}"
      [ -n "$groups" ] || continue
      # shellcheck disable=SC2086
      printf "%-15s %-10s %12s %10s %10s\n" "$w" "$mode" $groups
    done
  done
  echo
  echo "Memory (VmRSS, MiB): idle after start / after loading / at the end; peak (VmHWM)"
  for mode in $MODES; do
    for server in $SERVERS; do
      [ -n "${INFO["$server|$mode|rss_idle"]:-}" ] || continue
      printf "  %-10s %-10s %6s / %6s / %6s; peak %6s\n" "$server" "$mode" \
        "$(mib "${INFO["$server|$mode|rss_idle"]}")" "$(mib "${INFO["$server|$mode|rss_loaded"]}")" \
        "$(mib "${INFO["$server|$mode|rss_now"]}")" "$(mib "${INFO["$server|$mode|rss_peak"]}")"
    done
  done
  echo
  echo "Startup, spawn to first answered ListTables (median of runs; RSS at that moment)"
  local key label
  for key in startup_dynamod_mem startup_dynamod_disk startup_ddb_mem; do
    line="${INFO[$key]:-}"
    [ -n "$line" ] || continue
    case "$key" in
      startup_dynamod_mem) label="dynamod --in-memory" ;;
      startup_dynamod_disk) label="dynamod --data-dir (loaded)" ;;
      startup_ddb_mem) label="DynamoDB Local -inMemory" ;;
    esac
    printf "  %-28s median %8.1f ms  (min %.1f, max %.1f, %s runs)  RSS %s MiB\n" "$label" \
      "$(jfield "$line" median_ms)" "$(jfield "$line" min_ms)" "$(jfield "$line" max_ms)" "$(jfield "$line" runs)" \
      "$(jfield "$line" rss_mib)"
  done
}

# rps_of KEY: the req/s of a run without errors, or nothing.
rps_of() {
  local line="${RES[$1]:-}"
  [ -n "$line" ] && [ "$(jfield "$line" errors)" = 0 ] && jfield "$line" rps
  return 0
}

report_ceiling() {
  local n="${RES["nginx|raw-get"]:-}" rn g
  [ -n "$n" ] || return 0
  rn="$(rps_of "nginx|raw-get")"
  echo
  printf "HTTP ceiling: nginx's static answer to GET /, %s req/s (p50/p99 %.2f / %.2f ms, errors %s)\n" \
    "$(printf "%.0f" "${rn:-0}")" "$(jfield "$n" p50_ms)" "$(jfield "$n" p99_ms)" "$(jfield "$n" errors)"
  for mode in $MODES; do
    g="$(rps_of "dynamod|$mode|get")"
    [ -n "$g" ] && [ -n "$rn" ] &&
      printf "  dynamod GetItem (%s): %.0f%% of it\n" "$mode" "$(awk -v a="$g" -v b="$rn" 'BEGIN { print 100 * a / b }')"
  done
}

report_scale() {
  local l="${RES["scale|load"]:-}" w base at
  [ -n "$l" ] || return 0
  echo
  printf "At scale: dynamod --data-dir, %s items (%s per table) loaded in %.0f s (%.0f items/s, errors %s)\n" \
    "$(jfield "$l" items)" "$SCALE_KEYS" "$(jfield "$l" seconds)" "$(jfield "$l" items_per_s)" "$(jfield "$l" errors)"
  printf "  on disk %s MiB; the items take %s MiB by DynamoDB's size rules (TableSizeBytes): %s\n" \
    "$(mib $(( ${INFO[scale_disk_bytes]:-0} / 1024 )))" "$(mib $(( ${INFO[scale_item_bytes]:-0} / 1024 )))" \
    "$(awk -v d="${INFO[scale_disk_bytes]:-0}" -v i="${INFO[scale_item_bytes]:-0}" 'BEGIN { if (i > 0) printf "%.2fx", d / i; else print "-" }')"
  printf "  RSS after loading %s MiB; at the end %s MiB of heap (RssAnon) + %s MiB of mapped data file (RssFile); peak %s MiB\n" \
    "$(mib "${INFO[scale_rss_loaded]:-0}")" "$(mib "${INFO[scale_rss_anon]:-0}")" "$(mib "${INFO[scale_rss_file]:-0}")" \
    "$(mib "${INFO[scale_rss_peak]:-0}")"
  printf "  %-10s %10s %10s %10s %10s %10s\n" workload "items" "req/s" "p50 ms" "p99 ms" "p99.9 ms"
  for w in $SCALE_WORKLOADS; do
    for at in "dynamod|durable|$w:$KEYS" "scale|$w:$SCALE_KEYS"; do
      base="${RES[${at%%:*}]:-}"
      [ -n "$base" ] || continue
      printf "  %-10s %10s %10.0f %10.2f %10.2f %10.2f\n" "$w" "${at##*:}" "$(jfield "$base" rps)" \
        "$(jfield "$base" p50_ms)" "$(jfield "$base" p99_ms)" "$(jfield "$base" p999_ms)"
    done
  done
}

# target LABEL VALUE OP LIMIT UNIT: one line of the targets check (OP: ge or le).
target() {
  local label="$1" value="$2" op="$3" limit="$4" unit="$5" verdict
  if [ -z "$value" ]; then
    printf "  %-6s %-52s %s\n" "-" "$label" "(not measured)"
    return
  fi
  verdict="$(awk -v v="$value" -v l="$limit" -v op="$op" 'BEGIN { ok = (op == "ge") ? v >= l : v <= l; print ok ? "met" : "MISSED" }')"
  printf "  %-6s %-52s %s%s (target %s %s%s)\n" "$verdict" "$label" "$(printf "%.2f" "$value")" "$unit" \
    "$([ "$op" = ge ] && echo ">=" || echo "<=")" "$limit" "$unit"
}

ratio_of() {  # ratio_of KEY_A KEY_B
  local a b
  a="$(rps_of "$1")"; b="$(rps_of "$2")"
  [ -n "$a" ] && [ -n "$b" ] && awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) print a / b }'
  return 0
}

report_targets() {
  local mode w x line
  echo
  echo "Targets (issue 8)"
  [ -n "${RES["nginx|raw-get"]:-}" ] &&
    target "GetItem in memory vs nginx's static answer" "$(ratio_of "dynamod|in-memory|get" "nginx|raw-get")" ge 0.5 x
  if [ "$has_ddb" = 1 ]; then
    for mode in $MODES; do
      for w in get put query update mix; do
        x=5
        [ "$w" = put ] && [ "$mode" = durable ] && x=20
        [ -n "${RES["dynamod|$mode|$w"]:-}" ] &&
          target "$w vs DynamoDB Local ($mode)" "$(ratio_of "dynamod|$mode|$w" "ddb-local|$mode|$w")" ge "$x" x
      done
    done
  fi
  for mode in $MODES; do
    for w in get query; do
      line="${RES["dynamod|$mode|$w"]:-}"
      [ -n "$line" ] && target "$w p99 latency, $CONNS connections ($mode)" "$(jfield "$line" p99_ms)" le 2 " ms"
    done
  done
  line="${INFO[startup_dynamod_mem]:-}"
  [ -n "$line" ] && target "startup to first answer (--in-memory, median)" "$(jfield "$line" median_ms)" le 20 " ms"
  line="${INFO[startup_dynamod_disk]:-}"
  [ -n "$line" ] && target "startup to first answer (--data-dir, median)" "$(jfield "$line" median_ms)" le 20 " ms"
  for mode in $MODES; do
    [ -n "${INFO["dynamod|$mode|rss_idle"]:-}" ] || continue
    target "idle RSS ($mode)" "$(awk -v k="${INFO["dynamod|$mode|rss_idle"]}" 'BEGIN { print k / 1024 }')" le 10 " MiB"
    target "peak RSS under the loads ($mode)" "$(awk -v k="${INFO["dynamod|$mode|rss_peak"]}" 'BEGIN { print k / 1024 }')" le 64 " MiB"
  done
  if [ -n "${INFO[scale_item_bytes]:-}" ] && [ "${INFO[scale_item_bytes]}" -gt 0 ]; then
    target "on-disk size / item bytes, $SCALE_KEYS items per table" \
      "$(awk -v d="${INFO[scale_disk_bytes]}" -v i="${INFO[scale_item_bytes]}" 'BEGIN { print d / i }')" le 2 x
  fi
}

# The run's summary at the end of bench/RESULTS.md: when and at what commit, the command that
# repeats it, the main table and the targets (the rest stays in table.txt).
record_summary() {
  local notebook=bench/RESULTS.md commit subject dirty="" fs
  commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  subject="$(git log -1 --format=%s 2>/dev/null | cut -c1-100)"
  git diff --quiet HEAD 2>/dev/null || dirty=", with uncommitted changes"
  fs="$(df -T "${TMPDIR:-/tmp}" | awk 'NR == 2 { print $2 }')"
  {
    echo
    echo "### $(date -u '+%Y-%m-%d %H:%M') UTC, $commit$dirty"
    echo
    echo "At \"$subject\"; $(nproc) cores, durable data on $fs; command:"
    echo "\`DURATION=$DURATION WARMUP=$WARMUP CONNS=$CONNS KEYS=$KEYS MODES=\"$MODES\" WORKLOADS=\"$WORKLOADS\""
    echo "SERVERS=\"$SERVERS\" SCALE_KEYS=$SCALE_KEYS DYNAMOD_ARGS=\"$DYNAMOD_ARGS\" bench/run.sh\`; everything in"
    echo "\`${RESULTS#"$PWD"/}/table.txt\`."
    echo
    echo '```'
    # Paragraphs: the header, the main table, ..., "Targets ...".
    awk 'BEGIN { RS = ""; ORS = "\n\n" } NR <= 2 || /^Targets/' "$RESULTS/table.txt" | sed '$d'
    echo '```'
  } >>"$notebook"
  log "summary appended to $notebook"
}

{ report; report_ceiling; report_scale; report_targets; } | tee "$RESULTS/table.txt"
echo "(raw results: $RAW)"
if [ "${RECORD:-0}" = 1 ]; then record_summary; fi
