#!/usr/bin/env bash
# The HTTP API under wrk on loopback, and how far one host's throughput can grow with cores.
# Run by `make bench`; alone: bash scripts/bench-http.sh.
#
# Four loads: GET one document (32 connections); POST a 1-page Markdown as a PDF (8
# connections), new text each time, as clients create documents; POST the same Markdown
# over and over (8 connections: its blobs are stored already, so no file is written and
# synced, and the write turn is a larger share of the request); and GET a document as
# `.pdf` (a conversion, 8 connections).
#
# 1. On every core of this machine (wrk beside the server): requests/s and p99 against
#    issue 32's goals, and the time a request spends in work that runs one at a time
#    however many cores there are (the metrics' `quire_serial_seconds_total`: SQLite's
#    write turn, an account's allowance); then each load again on one connection, where
#    nothing queues, for that time once more. SQLite's writer commits the writes queued
#    together in one group, so under load a create's share of the turn is smaller; the
#    one-connection figure is the prediction, the loaded ones are printed beside it: by
#    wall time, and by the CPU time of the thread holding the turn (on two busy cores the
#    writer waits for a core while it holds the turn; that wait is not serial work, and
#    more cores shrink it), with the verdict on each.
# 2. On one core (the server pinned to core 0, wrk to another): the single-core throughput
#    X1. The serial share is s = (serial seconds per request) x X1, and Amdahl's law gives
#    the most N cores can speed a host up: 1 / (s + (1 - s) / N).
#
# QUIRE_BASELINE=<another quire binary> runs both binaries on the same loads in turn
# (baseline, candidate, twice) and prints candidate/baseline ratios: these machines are
# noisy, compare ratios. QUIRE_BENCH_POSTGRES=1 (the default when `make bench` runs it)
# repeats the single-core part on Postgres (scripts/test-postgres.sh starts one).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
TARGET=${TARGET_DIR:-target}
Q=${QUIRE_BIN:-$TARGET/release/quire}
BASELINE=${QUIRE_BASELINE:-}
SECONDS_EACH=${QUIRE_BENCH_SECONDS:-8}
POSTGRES=${QUIRE_BENCH_POSTGRES:-1}
command -v wrk >/dev/null || { source scripts/setup-lib.sh; apt_install wrk; }

WORK=$(mktemp -d)
SERVER=
cleanup() { [ -z "$SERVER" ] || kill "$SERVER" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
json_field() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
cat > "$WORK/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"markdown": "# Bench\\n\\nOne page of **Markdown** with a [link](https://example.com).\\n\\n- a\\n- b\\n"}'
LUA
# The same page with a number no other request of the run has (each wrk run is tagged by
# `load`): every create new content.
cat > "$WORK/post-new.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local tag = os.getenv("QUIRE_BENCH_TAG")
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end
local sent = 0
function request()
  sent = sent + 1
  return wrk.format(nil, nil, nil, '{"markdown": "# Bench ' .. tag .. '-' .. thread_number .. '-' .. sent ..
    '\\n\\nOne page of **Markdown** with a [link](https://example.com).\\n\\n- a\\n- b\\n"}')
end
LUA

PG_URL=
if [ "$POSTGRES" = 1 ]; then
  PG_URL=$(bash scripts/test-postgres.sh)
fi
CORES=$(nproc)
ONE_CORE=(taskset -c 0)
WRK_CORES=(taskset -c "1-$((CORES - 1))")
if [ "$CORES" -lt 2 ]; then ONE_CORE=(); WRK_CORES=(); fi

# The serial seconds the host has counted so far: wall time, then CPU time (see the
# metrics' quire_serial_cpu_seconds_total).
serial_seconds() {
  curl -s "http://$QUIRE_ADMIN_ADDR/metrics" | python3 -c '
import re, sys
text = sys.stdin.read()
total = lambda name: sum(float(v) for v in re.findall(r"^" + name + r"\{[^}]*\} (\S+)$", text, re.M))
print(total("quire_serial_seconds_total"), total("quire_serial_cpu_seconds_total"))'
}

# load NAME CONNECTIONS URL [wrk args...]: "rps p99_ms serial_seconds_per_request
# serial_cpu_seconds_per_request".
load() {
  local name=$1 conns=$2 url=$3 out before after seconds=${LOAD_SECONDS:-$SECONDS_EACH}
  shift 3
  before=$(serial_seconds)
  out=$(QUIRE_BENCH_TAG=$(date +%s%N) "${wrk_pin[@]}" wrk -t"$(( conns < 2 ? 1 : 2 ))" -c"$conns" -d"${seconds}s" --latency "$@" "$url")
  after=$(serial_seconds)
  if echo "$out" | grep -q "Non-2xx"; then echo "wrk saw failed requests ($name):" >&2; echo "$out" >&2; exit 1; fi
  python3 - "$out" "$before" "$after" <<'PY'
import re, sys
out, before, after = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
requests = max(int(re.search(r"(\d+) requests in", out).group(1)), 1)
value, unit = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
p99 = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
wall, cpu = ((float(a) - float(b)) / requests for a, b in zip(after, before))
print(f"{rps:.0f} {p99:.2f} {wall:.9f} {cpu:.9f}")
PY
}

# The wall seconds per request of a load's figures.
wall_of() { local f; read -ra f <<<"$1"; echo "${f[2]}"; }

# run BINARY WHERE DATABASE: the four loads against one server; WHERE is "all" (every
# core) or "one" (pinned to one core); DATABASE is "sqlite" or "postgres". Prints twenty
# numbers: rps, p99, serial seconds per request under the load (wall, CPU) and on one
# connection (nan where not measured) of GET, POST new, POST again and the download.
run() {
  local q=$1 where=$2 database=$3 data port account cred cid secret token doc pin=()
  wrk_pin=()
  data=$(mktemp -d -p "$WORK")
  port=$(free_port)
  export QUIRE_DATA=$data QUIRE_ADDR=127.0.0.1:$port QUIRE_ADMIN_ADDR=127.0.0.1:$(free_port) \
    QUIRE_PLUGINS_DIR=$TARGET/plugins QUIRE_LOG=error
  unset DATABASE_URL
  if [ "$database" = postgres ]; then
    local db="bench_$RANDOM$RANDOM"
    psql -q "$PG_URL" -c "CREATE DATABASE $db" >/dev/null
    export DATABASE_URL=${PG_URL%/*}/$db
  fi
  if [ "$where" = one ]; then pin=("${ONE_CORE[@]}"); wrk_pin=("${WRK_CORES[@]}"); fi
  # Admin commands need the database the server makes: open the installation first.
  "$q" plugins list >/dev/null
  "$q" admin plan set enterprise --daily-calls none --storage none >/dev/null
  account=$("$q" admin account create --email bench@example.com --plan enterprise --json | json_field '["id"]')
  cred=$("$q" admin credential create --account "$account" --json)
  cid=$(echo "$cred" | json_field '["client_id"]')
  secret=$(echo "$cred" | json_field '["client_secret"]')
  "${pin[@]}" "$q" serve & SERVER=$!
  for _ in $(seq 600); do curl -s -o /dev/null "http://127.0.0.1:$port/api/v1" && break; sleep 0.1; done
  token=$(curl -s -d grant_type=client_credentials -d "client_id=$cid" -d "client_secret=$secret" \
    "http://127.0.0.1:$port/auth/oauth/token" | json_field '["access_token"]')
  doc=$(curl -s -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"markdown": "# Bench\n\nOne page of **Markdown**.\n"}' \
    "http://127.0.0.1:$port/api/v1/pdfs" | json_field '["document"]["id"]')
  local auth=(-H "Authorization: Bearer $token") base="http://127.0.0.1:$port/api/v1"
  local get post again download
  get=$(load GET 32 "$base/documents/$doc" "${auth[@]}")
  post=$(load POST 8 "$base/pdfs" -s "$WORK/post-new.lua" "${auth[@]}")
  again=$(load POST 8 "$base/pdfs" -s "$WORK/post.lua" "${auth[@]}")
  download=$(load download 8 "$base/documents/$doc.pdf" "${auth[@]}")
  if [ "$where" = all ]; then
    # Serial time per request where nothing queues, as a fourth number of each load.
    local alone
    alone=$(LOAD_SECONDS=3 load GET 1 "$base/documents/$doc" "${auth[@]}"); get="$get $(wall_of "$alone")"
    alone=$(LOAD_SECONDS=3 load POST 1 "$base/pdfs" -s "$WORK/post-new.lua" "${auth[@]}"); post="$post $(wall_of "$alone")"
    alone=$(LOAD_SECONDS=3 load POST 1 "$base/pdfs" -s "$WORK/post.lua" "${auth[@]}"); again="$again $(wall_of "$alone")"
    alone=$(LOAD_SECONDS=3 load download 1 "$base/documents/$doc.pdf" "${auth[@]}"); download="$download $(wall_of "$alone")"
  else
    get="$get nan"; post="$post nan"; again="$again nan"; download="$download nan"
  fi
  kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=
  if [ "$database" = postgres ]; then psql -q "$PG_URL" -c "DROP DATABASE $db" >/dev/null 2>&1 || true; fi
  echo "$get $post $again $download"
}

# Prints the table of one set of runs: "who where database twenty-numbers" per line on stdin.
report() {
  python3 -c '
import sys, statistics
rows = {}
for line in sys.stdin:
    who, where, database, *vals = line.split()
    rows.setdefault((who, where, database), []).append([float(v) for v in vals])
def med(key, i):
    return statistics.median(r[i] for r in rows[key])
N = 5  # figures per load: rps, p99, serial per request under the load (wall, CPU), alone
loads = ["GET one document", "POST 1-page Markdown, new", "POST the same again", "GET .pdf (a conversion)"]
goals = {0: (20000, 20), 1: (1500, 20), 2: (1500, 20)}
whos = sorted({k[0] for k in rows}, key=lambda w: w != "baseline")
cores = int(sys.argv[1])
for who in whos:
    label = "" if len(whos) == 1 else f" [{who}]"
    if (who, "all", "sqlite") in rows:
        print(f"-- every core ({cores}), SQLite{label}")
        for i, name in enumerate(loads):
            rps, p99 = med((who, "all", "sqlite"), N * i), med((who, "all", "sqlite"), N * i + 1)
            goal = goals.get(i)
            note = f"  (goal >= {goal[0]}/s, p99 < {goal[1]} ms)" if goal else ""
            print(f"   {name:26} {rps:8.0f}/s  p99 {p99:6.2f} ms{note}")
    for database in ("sqlite", "postgres"):
        one, every = (who, "one", database), (who, "all", database)
        if one not in rows or every not in rows:
            continue
        print(f"-- {database}{label}: throughput on one core; serial share on one connection"
              " (and under the load: wall, CPU); Amdahl speedup at 4/8/12/16 cores")
        for i, name in enumerate(loads):
            rps = med(one, N * i)
            share = lambda k: min(max(med(every, N * i + k) * rps, 0.0), 1.0)
            alone, loaded, loaded_cpu = share(4), share(2), share(3)
            speedup = lambda n, s: 1 / (s + (1 - s) / n)
            goal = {0: 8, 1: 6, 2: 6}.get(i)
            met = lambda s: "met" if speedup(12, s) >= goal else "NOT met"
            verdict = "" if goal is None else (
                f"  (goal at 12 cores >= {goal}x: alone {met(alone)}, under the load by CPU {met(loaded_cpu)})")
            print(f"   {name:26} {rps:8.0f}/s  serial {alone * 100:5.2f}% ({loaded * 100:5.2f}%, "
                  f"{loaded_cpu * 100:5.2f}%)  " +
                  " ".join(f"{speedup(n, alone):5.1f}x" for n in (4, 8, 12, 16)) +
                  f" ({speedup(12, loaded):4.1f}x, {speedup(12, loaded_cpu):4.1f}x at 12)" + verdict)
if len(whos) == 2:
    print("-- candidate/baseline (medians)")
    for (who, where, database) in sorted(rows):
        if who != "candidate" or ("baseline", where, database) not in rows:
            continue
        for i, name in enumerate(loads):
            b = med(("baseline", where, database), N * i)
            c = med(("candidate", where, database), N * i)
            bp = med(("baseline", where, database), N * i + 1)
            cp = med(("candidate", where, database), N * i + 1)
            print(f"   {where:3} {database:8} {name:26} req/s {c / b:5.2f}x   p99 {cp / bp:5.2f}x")
' "$CORES"
}

echo "== HTTP API under wrk on loopback, $CORES cores, ${SECONDS_EACH} s per load"
binaries=("candidate $Q")
[ -n "$BASELINE" ] && binaries=("baseline $BASELINE" "candidate $Q" "baseline $BASELINE" "candidate $Q")
results=()
for entry in "${binaries[@]}"; do
  read -r who q <<<"$entry"
  results+=("$who all sqlite $(run "$q" all sqlite)")
done
# How it grows with cores: the candidate's alone.
results+=("candidate one sqlite $(run "$Q" one sqlite)")
if [ -n "$PG_URL" ]; then
  results+=("candidate all postgres $(run "$Q" all postgres)")
  results+=("candidate one postgres $(run "$Q" one postgres)")
fi
printf '%s\n' "${results[@]}" | report
