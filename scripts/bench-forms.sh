#!/usr/bin/env bash
# Forms under load (run by scripts/bench.sh): submissions per second for a 20-field form,
# each making its filled copy, against plain document creates in the same run; the CSV of
# 10,000 responses against Python's csv module writing the same rows; and detection
# precision/recall on the corpus's scanned forms.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${TARGET_DIR:-target}
Q=$PWD/$TARGET/release/quire

echo "== forms: field detection on the corpus's scanned forms"
cargo run -q --release -p quire-detect --example score 2>/dev/null || echo "(detector scoring unavailable)"

echo
echo "== forms under wrk on loopback"
DATA=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
APORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export QUIRE_DATA=$DATA QUIRE_ADDR=127.0.0.1:$PORT QUIRE_ADMIN_ADDR=127.0.0.1:$APORT QUIRE_PLUGINS_DIR=$TARGET/plugins QUIRE_LOG=error
$Q plugins list >/dev/null  # makes the database the admin commands need, as the server would
$Q admin plan set enterprise --daily-calls none --storage none >/dev/null
ACCOUNT=$($Q admin account create --email forms-bench@example.com --plan enterprise --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
CRED=$($Q admin credential create --account "$ACCOUNT" --json)
CID=$(echo "$CRED" | python3 -c 'import json,sys; print(json.load(sys.stdin)["client_id"])')
SECRET=$(echo "$CRED" | python3 -c 'import json,sys; print(json.load(sys.stdin)["client_secret"])')
$Q serve & SERVER=$!
LUA=$(mktemp --suffix=.lua)
trap 'kill $SERVER 2>/dev/null; rm -rf "$DATA" "$LUA"' EXIT
for _ in $(seq 600); do curl -s -o /dev/null "http://127.0.0.1:$PORT/api/v1" && break; sleep 0.1; done  # the first start compiles every plugin
TOKEN=$(curl -s -d grant_type=client_credentials -d "client_id=$CID" -d "client_secret=$SECRET" "http://127.0.0.1:$PORT/auth/oauth/token" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')

# A one-page form of 20 text, email, number, date and checkbox questions.
FORM_BODY=$(python3 - <<'PY'
import json
types = ["text", "email", "number", "date", "checkbox"]
fields = [{"key": f"q{i}", "type": types[i % 5], "label": f"Question {i}", "required": i < 3,
           "page": 1, "x": 72, "y": 80 + i * 32, "w": 14 if types[i % 5] == "checkbox" else 240,
           "h": 14 if types[i % 5] == "checkbox" else 20} for i in range(20)]
md = "# Survey\n\n" + "\n\n".join(f"Question {i}" for i in range(20))
print(json.dumps({"markdown": md, "title": "Bench survey", "fields": fields}))
PY
)
FORM=$(curl -s -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "$FORM_BODY" \
  "http://127.0.0.1:$PORT/api/v1/forms" | python3 -c 'import json,sys; print(json.load(sys.stdin)["form"]["id"])')
ANSWERS=$(python3 - <<'PY'
import json
vals = {"text": "Some answer, with a comma", "email": "someone@example.org", "number": 42, "date": "2026-11-22", "checkbox": True}
types = ["text", "email", "number", "date", "checkbox"]
print(json.dumps({"answers": {f"q{i}": vals[types[i % 5]] for i in range(20)}, "as": "bench@example.org"}))
PY
)
cat > "$LUA" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[$ANSWERS]]
LUA
report() { # name, wrk output -> prints and echoes requests/s
  local rps p99 non2xx
  rps=$(echo "$2" | awk '/Requests\/sec/ {print $2}')
  p99=$(echo "$2" | awk '$1=="99%" {print $2}')
  non2xx=$(echo "$2" | awk '/Non-2xx/ {print $NF}')
  echo "$1: ${rps} requests/s, p99 ${p99}${non2xx:+, non-2xx: $non2xx}" >&2
  echo "$rps"
}
SUB=$(report "POST /api/v1/forms/{id}/responses, 20 fields + filled copy, 4 connections (goal 200/s)" \
  "$(wrk -t2 -c4 -d8s --latency -s "$LUA" -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/api/v1/forms/$FORM/responses")")
# The baseline: creating a plain document from the same Markdown, same connections.
python3 -c 'import json,sys; print(json.dumps({"markdown": json.loads(sys.argv[1])["markdown"]}))' "$FORM_BODY" > "$DATA/md.json"
cat > "$LUA" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[$(cat "$DATA/md.json")]]
LUA
BASE=$(report "baseline POST /api/v1/pdfs of the same Markdown, 4 connections" \
  "$(wrk -t2 -c4 -d8s --latency -s "$LUA" -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/api/v1/pdfs")")
python3 -c "import sys; print(f'submissions / plain creates: {float(sys.argv[1])/float(sys.argv[2]):.2f}x')" "$SUB" "$BASE"

# Top the form up to 10,000 responses by copying stored ones (the export is what is timed).
python3 - "$DATA/quire.db" "$FORM" <<'PY'
import sqlite3, sys, uuid
db = sqlite3.connect(sys.argv[1]); form = sys.argv[2]
have = db.execute("SELECT COUNT(*) FROM form_responses WHERE form_id=?", (form,)).fetchone()[0]
row = db.execute("SELECT respondent, via, submitted, document, answers, summary FROM form_responses WHERE form_id=? LIMIT 1", (form,)).fetchone()
db.executemany("INSERT INTO form_responses (id, form_id, respondent, via, submitted, document, answers, summary) VALUES (?,?,?,?,?,?,?,?)",
    [(uuid.uuid4().hex, form, row[0], row[1], row[2] + i * 0.001, row[3], row[4], row[5]) for i in range(max(0, 10000 - have))])
db.execute("UPDATE forms SET responses = (SELECT COUNT(*) FROM form_responses WHERE form_id=?) WHERE doc_id=?", (form, form))
db.commit()
PY
CSV_TIMES=$(for _ in 1 2 3; do curl -s -o "$DATA/out.csv" -w '%{time_starttransfer} %{time_total}\n' -H "Authorization: Bearer $TOKEN" \
  "http://127.0.0.1:$PORT/api/v1/forms/$FORM/responses.csv"; done | sort -k2 -n | sed -n 2p)
ROWS=$(python3 -c 'import csv,sys; print(sum(1 for _ in csv.reader(open(sys.argv[1], newline="")))-1)' "$DATA/out.csv")
PEER=$(python3 - "$DATA/quire.db" "$FORM" <<'PY'
import csv, io, json, sqlite3, sys, time
db = sqlite3.connect(sys.argv[1]); form = sys.argv[2]
t = time.perf_counter()
out = io.StringIO(); w = csv.writer(out)
cols = json.loads(db.execute("SELECT columns FROM forms WHERE doc_id=?", (form,)).fetchone()[0])
w.writerow(["submitted", "from"] + cols)
for sub, who, answers in db.execute("SELECT submitted, respondent, answers FROM form_responses WHERE form_id=? ORDER BY submitted, id", (form,)):
    a = json.loads(answers); w.writerow([sub, who] + [a.get(c, "") for c in cols])
print(f"{time.perf_counter() - t:.3f}")
PY
)
read -r FIRST TOTAL <<<"$CSV_TIMES"
echo "GET responses.csv, $ROWS rows (goal < 1 s, streamed): first byte ${FIRST}s, whole ${TOTAL}s (median of 3)"
python3 -c "import sys; print(f'Python csv module writing the same rows from the same database: {sys.argv[1]}s; Quire / Python: {float(sys.argv[2])/float(sys.argv[1]):.2f}x')" "$PEER" "$TOTAL"
