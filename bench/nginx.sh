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

if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  echo "installing nginx" >&2
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  # Keep the package from starting its own service on port 80 (Debian's policy-rc.d convention).
  policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null && $sudo chmod +x "$policy"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nginx-light >/dev/null 2>&1 ||
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nginx >/dev/null
  [ -n "$policy" ] && $sudo rm -f "$policy"
fi
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/dynamod-nginx.XXXXXX")"
chmod 755 "$TMP"
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

free_port() {
  local p="$1"
  while ss -Hltn "sport = :$p" | grep -q .; do p=$((p + 1)); done
  echo "$p"
}
run() { timeout --kill-after=5 "$(awk -v d="$DURATION" -v w="$WARMUP" 'BEGIN { printf "%d", d + w + 60 }')" "$LOADGEN" "$@"; }

port="$(free_port "${PORT:-18480}")"
mkdir -p "$TMP/www" "$TMP/logs"
printf 'ok\n' >"$TMP/www/index.html"
chmod -R a+rX "$TMP/www"
cat >"$TMP/nginx.conf" <<EOF
worker_processes $NGINX_WORKERS;
daemon off;
pid $TMP/nginx.pid;
error_log $TMP/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 100000000;
  keepalive_timeout 65s;
  client_body_temp_path $TMP/body;
  proxy_temp_path $TMP/proxy;
  fastcgi_temp_path $TMP/fastcgi;
  uwsgi_temp_path $TMP/uwsgi;
  scgi_temp_path $TMP/scgi;
  server {
    listen 127.0.0.1:$port reuseport;
    root $TMP/www;
    location / { index index.html; }
  }
}
EOF
"$NGINX" -p "$TMP" -c "$TMP/nginx.conf" -e "$TMP/logs/error.log" &
PIDS+=($!)
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
