# Sourced by the bench scripts: helpers they share, and nginx as the HTTP
# ceiling (a tiny static file answered over keep-alive connections).

CLK_TCK="$(getconf CLK_TCK)"
# A process's CPU time so far, in clock ticks (utime + stime); 0 once it is gone.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }

# median COLUMN <FILE: the median of one column of numbers.
median() { awk -v c="$1" '{ print $c }' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The first port from $1 up that nothing listens on (loopback only).
free_port() {
  local p="$1"
  while ss -Hltn "sport = :$p" | grep -q .; do p=$((p + 1)); done
  echo "$p"
}

# The nginx binary, installed from Debian when missing (without starting its service).
nginx_binary() {
  if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    echo "installing nginx" >&2
    local sudo="" policy=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    # Keep the package from starting its own service on port 80 (Debian's policy-rc.d convention).
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      policy=/usr/sbin/policy-rc.d
      printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null && $sudo chmod +x "$policy"
    fi
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nginx-light >/dev/null 2>&1 ||
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nginx >/dev/null
    [ -n "$policy" ] && $sudo rm -f "$policy"
  fi
  command -v nginx || echo /usr/sbin/nginx
}

# nginx_start NGINX DIR PORT WORKERS: serves "ok\n" at / from DIR on 127.0.0.1:PORT
# in the background; sets NGINX_PID.
nginx_start() {
  local nginx="$1" dir="$2" port="$3" workers="$4"
  mkdir -p "$dir/www" "$dir/logs"
  # nginx's workers run as an unprivileged user when started by root: they must reach the file.
  chmod 755 "$dir" "$(dirname "$dir")"
  printf 'ok\n' >"$dir/www/index.html"
  chmod -R a+rX "$dir/www"
  cat >"$dir/nginx.conf" <<CONF
worker_processes $workers;
daemon off;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 100000000;
  keepalive_timeout 65s;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  server {
    listen 127.0.0.1:$port reuseport;
    root $dir/www;
    location / { index index.html; }
  }
}
CONF
  "$nginx" -p "$dir" -c "$dir/nginx.conf" -e "$dir/logs/error.log" &
  NGINX_PID=$!
}
