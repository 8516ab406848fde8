#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on loopback for the multi-node tests (installing it
# from Debian's packages if needed) and prints its URL. Idempotent: a server already
# running on the port is reused. `stop` and `start` stop and restart that server (the fault
# tests run their own, on their own QUIRE_PGDIR and QUIRE_PGPORT).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup-lib.sh"
action=${1:-up}
PGDIR=${QUIRE_PGDIR:-/tmp/quire-pg}
PORT=${QUIRE_PGPORT:-55432}
URL="postgres://quire@127.0.0.1:$PORT/postgres"

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
bin=$(find_bin)
if [ -z "$bin" ]; then
  apt_install postgresql
  bin=$(find_bin)
fi
# PostgreSQL refuses to run as root: run it as the `postgres` system user then.
as_owner=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  as_owner=(runuser -u postgres --)
fi
options="-p $PORT -k $PGDIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300"
case "$action" in
  stop) exec "${as_owner[@]}" "$bin/pg_ctl" -D "$PGDIR/data" -m fast -w stop >&2 ;;
  start) exec "${as_owner[@]}" "$bin/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w -o "$options" start >&2 ;;
  up) ;;
  *) echo "usage: $0 [up|stop|start]" >&2; exit 2 ;;
esac
if "$bin/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then
  echo "$URL"
  exit 0
fi
rm -rf "$PGDIR"
mkdir -p "$PGDIR"
[ "$(id -u)" = 0 ] && chown postgres "$PGDIR"
"${as_owner[@]}" "$bin/initdb" -D "$PGDIR/data" -A trust -U quire >"$PGDIR/initdb.log" 2>&1
"${as_owner[@]}" "$bin/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w -o "$options" start >&2
echo "$URL"
