#!/usr/bin/env bash
# The HTTP API under wrk on loopback: GET one document (32 connections) and create a PDF
# from a 1-page Markdown (4 connections), each against issue 13's goal. Run by `make bench`;
# alone: bash scripts/bench-http.sh. With QUIRE_BASELINE=<another quire binary> both
# binaries serve the same load in turn (baseline, candidate, baseline, candidate) and the
# ratios candidate/baseline are printed: compare builds on a noisy machine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
TARGET=${TARGET_DIR:-target}
Q=${QUIRE_BIN:-$TARGET/release/quire}
BASELINE=${QUIRE_BASELINE:-}
SECONDS_EACH=${QUIRE_BENCH_SECONDS:-8}
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

# One run of both loads against binary $1: prints "get_rps get_p99_ms post_rps post_p99_ms".
run() {
  local q=$1 data port aport account cred cid secret token doc get post
  data=$(mktemp -d -p "$WORK")
  port=$(free_port) aport=$(free_port)
  export QUIRE_DATA=$data QUIRE_ADDR=127.0.0.1:$port QUIRE_ADMIN_ADDR=127.0.0.1:$aport \
    QUIRE_PLUGINS_DIR=$TARGET/plugins QUIRE_LOG=error
  # Admin commands need the database the server makes: open the installation first.
  "$q" plugins list >/dev/null
  "$q" admin plan set enterprise --daily-calls none >/dev/null
  account=$("$q" admin account create --email bench@example.com --plan enterprise --json | json_field '["id"]')
  cred=$("$q" admin credential create --account "$account" --json)
  cid=$(echo "$cred" | json_field '["client_id"]')
  secret=$(echo "$cred" | json_field '["client_secret"]')
  "$q" serve & SERVER=$!
  trap '[ -z "$SERVER" ] || kill "$SERVER" 2>/dev/null' EXIT
  for _ in $(seq 600); do curl -s -o /dev/null "http://127.0.0.1:$port/api/v1" && break; sleep 0.1; done
  token=$(curl -s -d grant_type=client_credentials -d "client_id=$cid" -d "client_secret=$secret" \
    "http://127.0.0.1:$port/auth/oauth/token" | json_field '["access_token"]')
  doc=$(curl -s -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"markdown": "# Bench\n\nOne page of **Markdown**.\n"}' \
    "http://127.0.0.1:$port/api/v1/pdfs" | json_field '["document"]["id"]')
  get=$(wrk -t2 -c32 -d"${SECONDS_EACH}s" --latency -H "Authorization: Bearer $token" \
    "http://127.0.0.1:$port/api/v1/documents/$doc")
  post=$(wrk -t2 -c4 -d"${SECONDS_EACH}s" --latency -s "$WORK/post.lua" -H "Authorization: Bearer $token" \
    "http://127.0.0.1:$port/api/v1/pdfs")
  kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=
  for out in "$get" "$post"; do
    if echo "$out" | grep -q "Non-2xx"; then echo "wrk saw failed requests:" >&2; echo "$out" >&2; exit 1; fi
  done
  python3 - "$get" "$post" <<'PY'
import re, sys
def figures(out):
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    value, unit = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
    p99 = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    return rps, p99
g, p = figures(sys.argv[1]), figures(sys.argv[2])
print(f"{g[0]:.0f} {g[1]:.2f} {p[0]:.0f} {p[1]:.2f}")
PY
}

echo "== HTTP API under wrk on loopback, $(nproc) cores, ${SECONDS_EACH} s per load"
if [ -z "$BASELINE" ]; then
  read -r grps gp99 prps pp99 < <(run "$Q")
  echo "GET /api/v1/documents/{id}, 32 connections: $grps requests/s, p99 $gp99 ms (goal >= 15000/s, p99 < 10 ms)"
  echo "POST /api/v1/pdfs, 1-page Markdown, 4 connections: $prps requests/s, p99 $pp99 ms (goal >= 1000/s, p99 < 50 ms)"
  exit 0
fi
results=()
for round in 1 2; do
  results+=("baseline $(run "$BASELINE")" "candidate $(run "$Q")")
done
printf '%s\n' "${results[@]}" | python3 -c '
import sys, statistics
rows = {"baseline": [], "candidate": []}
for line in sys.stdin:
    who, *vals = line.split()
    rows[who].append([float(v) for v in vals])
names = ["GET req/s", "GET p99 ms", "POST req/s", "POST p99 ms"]
for i, name in enumerate(names):
    b = statistics.median(r[i] for r in rows["baseline"])
    c = statistics.median(r[i] for r in rows["candidate"])
    print(f"{name:12} baseline {b:9.2f}  candidate {c:9.2f}  candidate/baseline {c / b:.2f}x")
'
