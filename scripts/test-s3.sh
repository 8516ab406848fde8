#!/usr/bin/env bash
# A throwaway S3-compatible store for the several-hosts tests: a single-node Garage on
# loopback, with one bucket (`quire`) and one key allowed on it.
#
#   scripts/test-s3.sh --build-only   builds Garage once (into a cache outside the checkout,
#                                     reused by later runs and clones) and prints its path
#   QUIRE_S3_DIR=DIR scripts/test-s3.sh
#                                     starts a Garage with its data and config in DIR and
#                                     prints `export NAME=VALUE` lines: QUIRE_BLOBS, AWS_*,
#                                     QUIRE_S3_PID and QUIRE_S3_CONFIG
#
# Garage comes from crates.io, pinned, built without the features we don't use (no LMDB,
# no metrics, no K2V) so the one-time build stays short.
set -euo pipefail

GARAGE_VERSION=2.5.0
CACHE=${QUIRE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/quire-tools}
# The tests send Garage a few small objects: it is built without optimisation or debug
# information, which makes the one-time build on a fresh machine (CI) several minutes
# shorter. The flags are part of the cache's name, so a change of them builds again.
GARAGE_BUILD=o0
ROOT="$CACHE/garage-$GARAGE_VERSION-$GARAGE_BUILD"
GARAGE="$ROOT/bin/garage"

build() {
  [ -x "$GARAGE" ] && return 0
  mkdir -p "$CACHE"
  # One build at a time, however many tests or clones ask for it at once.
  exec 9>"$CACHE/garage.lock"
  flock 9
  if [ ! -x "$GARAGE" ]; then
    echo "building Garage $GARAGE_VERSION into $ROOT (once)" >&2
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=false \
      CARGO_PROFILE_RELEASE_INCREMENTAL=false \
      CARGO_TARGET_DIR="$CACHE/garage-target" cargo install garage \
      --version "$GARAGE_VERSION" --locked --no-default-features \
      --features bundled-libs,sqlite --root "$ROOT" >&2
    rm -rf "$CACHE/garage-target"
  fi
  flock -u 9
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

build
if [ "${1:-}" = "--build-only" ]; then
  echo "$GARAGE"
  exit 0
fi

DIR=${QUIRE_S3_DIR:?set QUIRE_S3_DIR to a directory for this store}
mkdir -p "$DIR/meta" "$DIR/data"
CONFIG="$DIR/garage.toml"
RPC_PORT=$(free_port)
S3_PORT=$(free_port)
cat >"$CONFIG" <<EOF
metadata_dir = "$DIR/meta"
data_dir = "$DIR/data"
db_engine = "sqlite"
metadata_fsync = false
data_fsync = false
replication_factor = 1
rpc_bind_addr = "127.0.0.1:$RPC_PORT"
rpc_public_addr = "127.0.0.1:$RPC_PORT"
rpc_secret = "$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"

[s3_api]
s3_region = "garage"
api_bind_addr = "127.0.0.1:$S3_PORT"
root_domain = ".s3.localhost"
EOF

garage() { "$GARAGE" -c "$CONFIG" "$@"; }

# setsid and a log file of its own: the store outlives this script and holds none of the
# caller's pipes open.
setsid "$GARAGE" -c "$CONFIG" server >"$DIR/garage.log" 2>&1 </dev/null &
PID=$!

fail() {
  echo "$1" >&2
  tail -n 30 "$DIR/garage.log" >&2 || true
  kill -9 "$PID" 2>/dev/null || true
  exit 1
}

node=""
for _ in $(seq 1 200); do
  node=$(garage node id -q 2>/dev/null | cut -d@ -f1) && [ -n "$node" ] && break
  kill -0 "$PID" 2>/dev/null || fail "garage exited at start"
  sleep 0.1
done
[ -n "$node" ] || fail "garage did not answer within 20 s"

# `node id` reads the node's key from disk, so it can answer before the RPC listener is up
# (on a loaded machine, "Connection refused"): the layout is retried until the node takes it.
laid=""
for _ in $(seq 1 200); do
  if garage layout assign -z test -c 1G "$node" >/dev/null 2>&1; then laid=1; break; fi
  kill -0 "$PID" 2>/dev/null || fail "garage exited at start"
  sleep 0.1
done
[ -n "$laid" ] || fail "garage did not take its layout within 20 s"
garage layout apply --version 1 >/dev/null
ready=""
for _ in $(seq 1 200); do
  if garage bucket create quire >/dev/null 2>&1; then ready=1; break; fi
  sleep 0.1
done
[ -n "$ready" ] || fail "garage refused to create the bucket"
keyinfo=$(garage key create quire-tests)
key_id=$(printf '%s\n' "$keyinfo" | sed -n 's/^Key ID: *//p' | head -n 1)
secret=$(printf '%s\n' "$keyinfo" | sed -n 's/^Secret key: *//p' | head -n 1)
[ -n "$key_id" ] && [ -n "$secret" ] || fail "no key in: $keyinfo"
garage bucket allow --read --write --owner quire --key "$key_id" >/dev/null

# The S3 endpoint answers once the layout is live; wait for it so the caller need not.
for _ in $(seq 1 100); do
  curl -s -o /dev/null "http://127.0.0.1:$S3_PORT/" && break
  sleep 0.1
done

echo "export QUIRE_BLOBS=s3://quire"
echo "export AWS_ENDPOINT_URL=http://127.0.0.1:$S3_PORT"
echo "export AWS_REGION=garage"
echo "export AWS_ACCESS_KEY_ID=$key_id"
echo "export AWS_SECRET_ACCESS_KEY=$secret"
echo "export QUIRE_S3_PID=$PID"
echo "export QUIRE_S3_CONFIG=$CONFIG"
