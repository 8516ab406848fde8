#!/usr/bin/env bash
# Tests the image `make image` built, the way an operator runs it:
#  1. one container on SQLite in a named volume: healthy by its own health check, running
#     as the unprivileged user; a document created over HTTP and downloaded as PDF; stopped
#     by SIGTERM with exit code 0; a new container on the same volume reads it back.
#  2. two containers sharing the test Postgres and a Garage store: a document made through
#     one is downloaded through the other; both stop with exit code 0.
# Containers use the host's network (--network host), on free loopback ports.
#
#   scripts/test-image.sh IMAGE
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup-lib.sh"
source "$QUIRE_ROOT/scripts/podman.sh"
image=$1
run_id="quire-test-$$"
work=$(mktemp -d)
containers=()
cleanup() {
    for c in "${containers[@]}"; do quire_podman rm -f "$c" >/dev/null 2>&1 || true; done
    quire_podman volume rm -f "$run_id" "$run_id-cache" >/dev/null 2>&1 || true
    [ -n "${QUIRE_S3_PID:-}" ] && kill "$QUIRE_S3_PID" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "test-image: $*" >&2
    for c in "${containers[@]}"; do
        echo "--- logs of $c" >&2
        quire_podman logs --tail 30 "$c" >&2 || true
    done
    exit 1
}
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start NAME PORT ADMIN_PORT [podman run options...]: a detached container of the image.
start() {
    local name=$1 port=$2 admin=$3
    shift 3
    containers+=("$name")
    # No health-check timer (it needs systemd here); `ready` runs the check itself.
    # One compile cache for every container of the run: the converters compile once.
    quire_podman run -d --name "$name" --network host --health-interval disable \
        -v "$run_id-cache:/cache" -e QUIRE_CACHE_DIR=/cache \
        -e QUIRE_ADDR="127.0.0.1:$port" -e QUIRE_ADMIN_ADDR="127.0.0.1:$admin" \
        -e QUIRE_BASE_URL="http://127.0.0.1:$port" -e QUIRE_ADMIN_TOKEN=operator-secret-for-image-tests \
        "$@" "$image" >/dev/null
}

# ready NAME PORT: /readyz answers (the first start compiles the converters), and then
# the image's own health check passes.
ready() {
    local name=$1 port=$2
    for _ in $(seq 300); do
        curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break
        [ "$(quire_podman inspect --format '{{.State.Running}}' "$name")" = true ] ||
            fail "$name stopped before it was ready"
        sleep 1
    done
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || fail "$name not ready in 300 s"
    quire_podman healthcheck run "$name" >/dev/null || fail "the health check of $name failed"
}

# stopped NAME: SIGTERM drains and the process exits 0.
stopped() {
    quire_podman stop -t 60 "$1" >/dev/null
    local code
    code=$(quire_podman inspect --format '{{.State.ExitCode}}' "$1")
    [ "$code" = 0 ] || fail "$1 exited $code after SIGTERM"
}

# token NAME PORT: an account and a credential made inside the container, and a token.
token() {
    local account credential
    account=$(quire_podman exec "$1" quire admin account create --email "$RANDOM@example.org" --plan pro --json | jq -r .id)
    credential=$(quire_podman exec "$1" quire admin credential create --account "$account" --json)
    curl -sf -u "$(jq -r .client_id <<<"$credential"):$(jq -r .client_secret <<<"$credential")" \
        -d grant_type=client_credentials "http://127.0.0.1:$2/auth/oauth/token" | jq -r .access_token
}

# pdf_of PORT TOKEN ID: the document downloaded as PDF starts like one.
pdf_of() {
    curl -sf -H "Authorization: Bearer $2" -o "$work/out.pdf" "http://127.0.0.1:$1/api/v1/documents/$3.pdf" ||
        fail "downloading $3 from port $1"
    [ "$(head -c 5 "$work/out.pdf")" = "%PDF-" ] || fail "$3.pdf is not a PDF"
}

printf '# Minutes\n\nKept in a volume.\n' >"$work/minutes.md"

echo "test-image: one container on SQLite in volume $run_id" >&2
quire_podman volume create "$run_id" >/dev/null
quire_podman volume create "$run_id-cache" >/dev/null
port=$(free_port)
admin=$(free_port)
start "$run_id-a" "$port" "$admin" -v "$run_id:/data"
ready "$run_id-a" "$port"
pid=$(quire_podman inspect --format '{{.State.Pid}}' "$run_id-a")
[ "$(awk '/^Uid:/ {print $2}' "/proc/$pid/status")" = 10001 ] ||
    fail "the server does not run as the image's user 10001"
token=$(token "$run_id-a" "$port")
doc=$(curl -sf -H "Authorization: Bearer $token" -F "file=@$work/minutes.md;type=text/markdown" \
    -F title=Minutes "http://127.0.0.1:$port/api/v1/pdfs" | jq -r .document.id)
[ -n "$doc" ] && [ "$doc" != null ] || fail "creating a document"
pdf_of "$port" "$token" "$doc"
stopped "$run_id-a"
start "$run_id-b" "$port" "$admin" -v "$run_id:/data"
ready "$run_id-b" "$port"
title=$(curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/v1/documents/$doc" | jq -r .document.title)
[ "$title" = Minutes ] || fail "after a restart on the same volume the document is gone (title: $title)"
pdf_of "$port" "$token" "$doc"
stopped "$run_id-b"

echo "test-image: a stop while the converters compile" >&2
start "$run_id-e" "$(free_port)" "$(free_port)"
sleep 2
stopped "$run_id-e"

echo "test-image: two containers on Postgres and Garage" >&2
postgres=$(bash "$QUIRE_ROOT/scripts/test-postgres.sh")
database="quire_image_$$"
psql -q "$postgres" -c "CREATE DATABASE $database" >/dev/null
eval "$(QUIRE_S3_DIR="$work/s3" bash "$QUIRE_ROOT/scripts/test-s3.sh")"
shared=(-e "DATABASE_URL=${postgres%/*}/$database" -e "QUIRE_BLOBS=$QUIRE_BLOBS/image"
    -e "AWS_ENDPOINT_URL=$AWS_ENDPOINT_URL" -e "AWS_ACCESS_KEY_ID=$AWS_ACCESS_KEY_ID"
    -e "AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY" -e "AWS_REGION=$AWS_REGION")
port_c=$(free_port)
port_d=$(free_port)
start "$run_id-c" "$port_c" "$(free_port)" "${shared[@]}"
start "$run_id-d" "$port_d" "$(free_port)" "${shared[@]}"
ready "$run_id-c" "$port_c"
ready "$run_id-d" "$port_d"
token=$(token "$run_id-c" "$port_c")
doc=$(curl -sf -H "Authorization: Bearer $token" -F "file=@$work/minutes.md;type=text/markdown" \
    "http://127.0.0.1:$port_c/api/v1/pdfs" | jq -r .document.id)
[ -n "$doc" ] && [ "$doc" != null ] || fail "creating a document on the first host"
pdf_of "$port_d" "$token" "$doc"
stopped "$run_id-c"
stopped "$run_id-d"
psql -q "$postgres" -c "DROP DATABASE $database" >/dev/null || true
echo "test-image: passed" >&2
