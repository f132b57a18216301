#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the test suites: `start` prints the TEST_DATABASE_URL to use,
# `stop` removes it. Uses Debian's postgresql package (installed by .ci/run when missing).
# The port asked for (DWELL_TEST_PG_PORT) is tried first; when something else holds it, or the
# server cannot start there, the next nine are tried, and each failure's log is shown.
set -euo pipefail
dir="${DWELL_TEST_PG_DIR:-/tmp/dwell-test-pg}"
port="${DWELL_TEST_PG_PORT:-54329}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -n "$bin" ] || { echo "PostgreSQL server binaries not found: apt-get install postgresql" >&2; exit 1; }

# initdb and pg_ctl refuse to run as root.
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
# Something already answers on 127.0.0.1:$1.
port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

case "${1:-}" in
  start)
    if [ -f "$dir/data/postmaster.pid" ] && as_postgres "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
      echo "postgres://postgres@127.0.0.1:$(sed -n 4p "$dir/data/postmaster.pid")/postgres"; exit 0
    fi
    rm -rf "$dir"; mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_postgres "$bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
    for try in $(seq "$port" $((port + 9))); do
      if port_taken "$try"; then echo "port $try is taken; trying the next" >&2; continue; fi
      if as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-p $try -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start >/dev/null; then
        echo "postgres://postgres@127.0.0.1:$try/postgres"; exit 0
      fi
      echo "PostgreSQL did not start on port $try; its log:" >&2
      tail -n 20 "$dir/server.log" >&2 || true
    done
    echo "PostgreSQL did not start on ports $port to $((port + 9))" >&2
    exit 1
    ;;
  stop)
    [ -d "$dir/data" ] && as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
