#!/usr/bin/env bash
# Operator actions and several hosts under load (run by scripts/bench.sh):
# 1. creates per second on one host (SQLite) while `markdown` is flipped between two
#    versions every 0.5 s through the operator API, against the same run without swapping;
# 2. one host against two on one Postgres (scripts/test-postgres.sh) and one S3 store
#    (scripts/test-s3.sh, a throwaway Garage), creates and reads; and one host on SQLite
#    against one host on Postgres + S3.
# Every ratio compares numbers measured in this same run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup-lib.sh"
cd "$QUIRE_ROOT"
TARGET=${TARGET_DIR:-target}
Q=$PWD/$TARGET/release/quire
NEXT=$PWD/$TARGET/wasm32-wasip2/plugin/quire_markdown_next.wasm
DUR=${QUIRE_BENCH_SECS:-8}
ADMIN_TOKEN=bench-operator-$(python3 -c 'import secrets; print(secrets.token_hex(16))')

[ -x "$Q" ] || { echo "bench-cluster: $Q is missing (make build)" >&2; exit 1; }
[ -f "$NEXT" ] || { echo "bench-cluster: $NEXT is missing (make plugins builds it)" >&2; exit 1; }
command -v wrk >/dev/null || apt_install wrk

TMP=$(mktemp -d)
PIDS=()          # quire serve processes
S3_PID=""        # garage
PG_URL=""; PG_DB=""
PSQL=$(command -v psql || ls /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -n 1 || true)
cleanup() {
  rm -f "$TMP/swapping"
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -n "$S3_PID" ] && { kill "$S3_PID" 2>/dev/null || true; }
  # The Postgres of scripts/test-postgres.sh is shared with the test suite: only our database goes.
  [ -n "$PG_DB" ] && { "$PSQL" "$PG_URL" -qAt -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 || true; }
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
json_get() { python3 -c 'import json,sys; d=json.load(sys.stdin)
for k in sys.argv[1].split("."): d=d[k]
print(d)' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
sum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a + b }'; }

# start_host NAME DATA PORT APORT [VAR=value ...]: `quire serve` in the background; waits up
# to 120 s for /api/v1 (a first start compiles every converter) and fails loudly otherwise.
start_host() {
  local name=$1 data=$2 port=$3 aport=$4; shift 4
  env QUIRE_DATA="$data" QUIRE_ADDR=127.0.0.1:$port QUIRE_ADMIN_ADDR=127.0.0.1:$aport \
    QUIRE_BASE_URL=http://127.0.0.1:$port "$@" "$Q" serve >"$TMP/$name.log" 2>&1 &
  local pid=$!
  PIDS+=("$pid")
  local started=$SECONDS
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/v1")" != 000 ] &&
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$aport/plugins")" != 000 ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      wait "$pid" && st=0 || st=$?; echo "bench-cluster: host $name exited (status $st) while starting; its log:" >&2; tail -n 30 "$TMP/$name.log" >&2; exit 1
    fi
    if (( SECONDS - started >= 120 )); then
      echo "bench-cluster: host $name did not answer /api/v1 within 120 s; its log:" >&2; tail -n 30 "$TMP/$name.log" >&2; exit 1
    fi
    sleep 0.2
  done
  echo "  (host $name up in $((SECONDS - started)) s)" >&2
}

# account DATA [VAR=value ...]: an enterprise account without limits; prints its token
# once a host (port $PORT_FOR_TOKEN) is up. Two steps: the credential now, the token later.
credential() {
  local data=$1; shift
  env QUIRE_DATA="$data" "$@" "$Q" plugins list >/dev/null  # makes the database, as the server would
  env QUIRE_DATA="$data" "$@" "$Q" admin plan set enterprise --daily-calls none --storage none >/dev/null
  local account
  account=$(env QUIRE_DATA="$data" "$@" "$Q" admin account create --email "bench-$RANDOM@example.com" --plan enterprise --json | json_get id)
  env QUIRE_DATA="$data" "$@" "$Q" admin credential create --account "$account" --json
}
token() { # PORT CREDENTIAL_JSON
  local cid secret
  cid=$(echo "$2" | json_get client_id); secret=$(echo "$2" | json_get client_secret)
  curl -sf -d grant_type=client_credentials -d "client_id=$cid" -d "client_secret=$secret" \
    "http://127.0.0.1:$1/auth/oauth/token" | json_get access_token
}

MD_BODY='{"markdown": "# Bench\n\nOne page of **Markdown** with a [link](https://example.com).\n\n- a\n- b\n"}'
LUA=$TMP/create.lua
cat > "$LUA" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[$MD_BODY]]
LUA
create_doc() { # PORT TOKEN -> document id
  curl -sf -H "Authorization: Bearer $2" -H 'Content-Type: application/json' -d "$MD_BODY" \
    "http://127.0.0.1:$1/api/v1/pdfs" | json_get document.id
}

# stats FILE: sets RPS, P99, NON2XX, SOCKERR from a wrk output.
stats() {
  RPS=$(awk '/Requests\/sec/ {print $2}' "$1")
  P99=$(awk '$1=="99%" {print $2}' "$1")
  NON2XX=$(awk '/Non-2xx/ {print $NF}' "$1"); NON2XX=${NON2XX:-0}
  SOCKERR=$(awk '/Socket errors/ { n = 0; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+,?$/) n += $i; print n }' "$1"); SOCKERR=${SOCKERR:-0}
  [ -n "$RPS" ] || { echo "bench-cluster: wrk printed no rate:" >&2; cat "$1" >&2; exit 1; }
}
errors() { # non-2xx and socket errors of the last stats, if any
  local e=""
  [ "$NON2XX" != 0 ] && e+=", non-2xx: $NON2XX"
  [ "$SOCKERR" != 0 ] && e+=", socket errors: $SOCKERR"
  echo "$e"
}

echo "== converter swaps under load (one host, SQLite)"
DATA1=$TMP/sqlite; mkdir -p "$DATA1"
export QUIRE_PLUGINS_DIR=$PWD/$TARGET/plugins QUIRE_LOG=error QUIRE_ADMIN_TOKEN=$ADMIN_TOKEN
unset DATABASE_URL QUIRE_BLOBS
PORT=$(free_port); APORT=$(free_port)
CRED=$(credential "$DATA1")
start_host sqlite "$DATA1" "$PORT" "$APORT"
TOKEN=$(token "$PORT" "$CRED")
create_doc "$PORT" "$TOKEN" >/dev/null
ADMIN="http://127.0.0.1:$APORT/plugins"
AUTH=(-H "Authorization: Bearer $ADMIN_TOKEN")
code=$(curl -s -o "$TMP/install.json" -w '%{http_code}' -X POST --data-binary @"$NEXT" "${AUTH[@]}" "$ADMIN?activate=false")
[ "$code" = 201 ] || [ "$code" = 200 ] || { echo "bench-cluster: installing $NEXT answered $code: $(cat "$TMP/install.json")" >&2; exit 1; }
# The version the test converter is built as, read where it is set (a pinned copy here went
# stale when the converters' versions moved on, and the bench stopped at its first swap).
NEXT_VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' plugins/testing/markdown-next/Cargo.toml | head -n 1)
activate() { curl -s -o /dev/null -w '%{http_code}' -X POST "${AUTH[@]}" -H 'Content-Type: application/json' \
  -d "{\"version\":\"$NEXT_VERSION\"}" "$ADMIN/markdown/activate"; }
rollback() { curl -s -o /dev/null -w '%{http_code}' -X POST "${AUTH[@]}" "$ADMIN/markdown/rollback"; }
# One flip each way before measuring: the operator API must work, or the numbers mean nothing.
a=$(activate); r=$(rollback)
[ "$a" = 200 ] && [ "$r" = 200 ] || { echo "bench-cluster: activate answered $a, rollback $r" >&2; exit 1; }

wrk -t2 -c4 -d"${DUR}s" --latency -s "$LUA" -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/api/v1/pdfs" > "$TMP/w-base"
stats "$TMP/w-base"; BASE=$RPS
echo "POST /api/v1/pdfs, 1-page Markdown, 4 connections, no swaps: $RPS requests/s, p99 $P99$(errors)"

# The swapper: activate the -next version, roll back to the built-in one, ... on a 0.5 s clock; one status a line.
touch "$TMP/swapping"
(
  i=0; t0=$(date +%s%N)
  while [ -e "$TMP/swapping" ]; do
    if (( i % 2 == 0 )); then activate; else rollback; fi; echo
    i=$((i + 1))
    wait_ns=$(( t0 + i * 500000000 - $(date +%s%N) ))
    (( wait_ns > 0 )) && sleep "$(awk -v n="$wait_ns" 'BEGIN { printf "%.3f", n / 1e9 }')"
  done
) > "$TMP/swaps" &
SWAPPER=$!
wrk -t2 -c4 -d"${DUR}s" --latency -s "$LUA" -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/api/v1/pdfs" > "$TMP/w-swap"
rm -f "$TMP/swapping"; wait "$SWAPPER"
stats "$TMP/w-swap"; SWAP=$RPS
SWAPS=$(grep -c . "$TMP/swaps" || true); FAILED=$(grep -vc '^200$' "$TMP/swaps" || true)
echo "POST /api/v1/pdfs, same, markdown swapped every 0.5 s: $RPS requests/s, p99 $P99$(errors)"
echo "creates while swapping every 0.5 s: $SWAP/s vs $BASE/s without: $(ratio "$SWAP" "$BASE")x (goal >= 0.9x); swaps: $SWAPS, failed $FAILED; non-2xx creates: $NON2XX (goal 0 and 0)$( [ "$SOCKERR" != 0 ] && echo "; socket errors: $SOCKERR")"
SQLITE_CREATES=$BASE
kill "${PIDS[0]}"; wait "${PIDS[0]}" 2>/dev/null || true; PIDS=()

echo
echo "== several hosts: one Postgres, one S3 store (Garage), on loopback"
[ -f scripts/test-s3.sh ] || { echo "bench-cluster: scripts/test-s3.sh is missing" >&2; exit 1; }
[ -n "$PSQL" ] || { echo "bench-cluster: psql not found (apt-get install postgresql-client)" >&2; exit 1; }
PG_URL=$(bash scripts/test-postgres.sh)
PG_DB=quire_bench_$(python3 -c 'import secrets; print(secrets.token_hex(6))')
"$PSQL" "$PG_URL" -qAt -c "CREATE DATABASE $PG_DB" >/dev/null
export DATABASE_URL=${PG_URL%/*}/$PG_DB
mkdir -p "$TMP/s3"
S3_ENV=$(QUIRE_S3_DIR=$TMP/s3 bash scripts/test-s3.sh)
eval "$S3_ENV"
S3_PID=${QUIRE_S3_PID:?scripts/test-s3.sh printed no QUIRE_S3_PID}
export QUIRE_BLOBS=${QUIRE_BLOBS%/}/bench-$PG_DB
DATAA=$TMP/host-a; DATAB=$TMP/host-b; mkdir -p "$DATAA" "$DATAB"
PA=$(free_port); AA=$(free_port); PB=$(free_port); AB=$(free_port)
CRED=$(credential "$DATAA")
start_host A "$DATAA" "$PA" "$AA"
TOKEN=$(token "$PA" "$CRED")
DOC=$(create_doc "$PA" "$TOKEN")

wrk -t2 -c4 -d"${DUR}s" --latency -s "$LUA" -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PA/api/v1/pdfs" > "$TMP/w-c1"
stats "$TMP/w-c1"; C1=$RPS
echo "one host, POST /api/v1/pdfs, 4 connections: $RPS requests/s, p99 $P99$(errors)"
wrk -t2 -c32 -d"${DUR}s" --latency -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PA/api/v1/documents/$DOC" > "$TMP/w-g1"
stats "$TMP/w-g1"; G1=$RPS
echo "one host, GET /api/v1/documents/{id}, 32 connections: $RPS requests/s, p99 $P99$(errors)"

# Host B: same database and blob store, its own data directory and ports. It compiles
# every converter on its first start; nothing is measured until it is up.
start_host B "$DATAB" "$PB" "$AB"
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PB/api/v1/documents/$DOC")" = 200 ] ||
  { echo "bench-cluster: host B cannot read host A's document" >&2; exit 1; }
both() { # OUT_PREFIX CONNECTIONS_EACH PATH [wrk args...]
  local out=$1 c=$2 path=$3; shift 3
  wrk -t1 -c"$c" -d"${DUR}s" --latency "$@" -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PA$path" > "$out-a" & local wa=$!
  wrk -t1 -c"$c" -d"${DUR}s" --latency "$@" -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PB$path" > "$out-b" & local wb=$!
  wait "$wa" "$wb"
}
NOTE="(2 cores: a second host adds no CPU, so this is the cost of sharing, not scaling)"
both "$TMP/w-c2" 2 /api/v1/pdfs -s "$LUA"
stats "$TMP/w-c2-a"; CA=$RPS; EA=$(errors); stats "$TMP/w-c2-b"; CB=$RPS; EB=$(errors); C2=$(sum "$CA" "$CB")
echo "two hosts, POST /api/v1/pdfs, 2+2 connections: $CA/s (A$EA) + $CB/s (B$EB) = $C2/s; two hosts / one host: $(ratio "$C2" "$C1")x $NOTE"
both "$TMP/w-g2" 16 "/api/v1/documents/$DOC"
stats "$TMP/w-g2-a"; GA=$RPS; EA=$(errors); stats "$TMP/w-g2-b"; GB=$RPS; EB=$(errors); G2=$(sum "$GA" "$GB")
echo "two hosts, GET /api/v1/documents/{id}, 16+16 connections: $GA/s (A$EA) + $GB/s (B$EB) = $G2/s; two hosts / one host: $(ratio "$G2" "$G1")x $NOTE"
echo "one host, creates/s, Postgres + S3 / SQLite and local blobs: $C1/s vs $SQLITE_CREATES/s: $(ratio "$C1" "$SQLITE_CREATES")x"
