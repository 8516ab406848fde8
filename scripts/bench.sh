#!/usr/bin/env bash
# `make bench`: every benchmark, each printing ratios against a baseline measured in the
# same run (these machines are noisy; compare ratios, not absolute numbers).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup-lib.sh"
cd "$QUIRE_ROOT"
TARGET=${TARGET_DIR:-target}
Q=$TARGET/release/quire

# The peers Quire is compared with, and wrk for the HTTP load.
need_apt=()
command -v wrk >/dev/null || need_apt+=(wrk)
command -v pandoc >/dev/null || need_apt+=(pandoc)
command -v chromium >/dev/null || need_apt+=(chromium)
[ ${#need_apt[@]} -eq 0 ] || apt_install "${need_apt[@]}"
python_tools scripts/python-tools.txt scripts/python-bench.txt
export PATH=$QUIRE_PY_VENV/bin:$PATH
# mermaid-cli drives Debian's Chromium; puppeteer must not download a browser of its own.
MMDC_VERSION=11.9.0
node_tools
if ! grep -qs "\"version\": \"$MMDC_VERSION\"" "$TARGET/bench-tools/node_modules/@mermaid-js/mermaid-cli/package.json"; then
  PUPPETEER_SKIP_DOWNLOAD=1 npm install --silent --no-audit --no-fund --prefix "$TARGET/bench-tools" "@mermaid-js/mermaid-cli@$MMDC_VERSION" >/dev/null
fi
export QUIRE_MMDC=$PWD/$TARGET/bench-tools/node_modules/.bin/mmdc

echo "== machine: $(nproc) cores"
echo
echo "== converter platform (native vs sandbox, fresh instance, conversions/s)"
cargo bench -q -p quire --bench platform 2>/dev/null

echo
echo "== converters against their peers (same inputs, same run)"
cargo bench -q -p quire --bench converters 2>/dev/null

echo
echo "== HTTP API under wrk on loopback"
DATA=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
APORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export QUIRE_DATA=$DATA QUIRE_ADDR=127.0.0.1:$PORT QUIRE_ADMIN_ADDR=127.0.0.1:$APORT QUIRE_PLUGINS_DIR=$TARGET/plugins QUIRE_LOG=error
$Q admin plan set enterprise --daily-calls none >/dev/null
ACCOUNT=$($Q admin account create --email bench@example.com --plan enterprise --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
CRED=$($Q admin credential create --account "$ACCOUNT" --json)
CID=$(echo "$CRED" | python3 -c 'import json,sys; print(json.load(sys.stdin)["client_id"])')
SECRET=$(echo "$CRED" | python3 -c 'import json,sys; print(json.load(sys.stdin)["client_secret"])')
$Q serve & SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 600); do curl -s -o /dev/null "http://127.0.0.1:$PORT/api/v1" && break; sleep 0.1; done  # the first start compiles every plugin
TOKEN=$(curl -s -d grant_type=client_credentials -d "client_id=$CID" -d "client_secret=$SECRET" "http://127.0.0.1:$PORT/auth/oauth/token" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
DOC=$(curl -s -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d '{"markdown": "# Bench\n\nOne page of **Markdown** with a [link](https://example.com).\n\n- a\n- b\n"}' \
  "http://127.0.0.1:$PORT/api/v1/pdfs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["document"]["id"])')

LUA=$(mktemp --suffix=.lua)
cat > "$LUA" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"markdown": "# Bench\\n\\nOne page of **Markdown** with a [link](https://example.com).\\n\\n- a\\n- b\\n"}'
LUA
report() { # name, wrk output
  local rps p99
  rps=$(echo "$2" | awk '/Requests\/sec/ {print $2}')
  p99=$(echo "$2" | awk '$1=="99%" {print $2}')
  local non2xx; non2xx=$(echo "$2" | awk '/Non-2xx/ {print $NF}')
  echo "$1: ${rps} requests/s, p99 ${p99}${non2xx:+, non-2xx: $non2xx}"
}
OUT=$(wrk -t2 -c32 -d8s --latency -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/api/v1/documents/$DOC")
report "GET /api/v1/documents/{id} (goal 5000/s, p99 < 50 ms)" "$OUT"
OUT=$(wrk -t2 -c4 -d8s --latency -s "$LUA" -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/api/v1/pdfs")
report "POST /api/v1/pdfs, 1-page Markdown, 4 connections (goal 300/s, p99 < 50 ms)" "$OUT"
rm -f "$LUA"

for extra in scripts/bench-*.sh; do
  [ -e "$extra" ] || continue
  echo
  bash "$extra"
done
