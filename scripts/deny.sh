#!/usr/bin/env bash
# `make lint`'s dependency policy: cargo-deny checks bans (duplicate versions, wildcards),
# licenses and sources against deny.toml. cargo-deny is built once into a cache outside
# the checkout. The advisories check needs the RustSec database from the network; run
# `scripts/deny.sh check advisories` where it can be reached.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DENY_VERSION=0.20.2
CACHE=${QUIRE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/quire-tools}
ROOT="$CACHE/cargo-deny-$DENY_VERSION"
if [ ! -x "$ROOT/bin/cargo-deny" ]; then
  mkdir -p "$CACHE"
  exec 9>"$CACHE/cargo-deny.lock"
  flock 9
  if [ ! -x "$ROOT/bin/cargo-deny" ]; then
    echo "building cargo-deny $DENY_VERSION into $ROOT (once)" >&2
    CARGO_TARGET_DIR="$CACHE/cargo-deny-target" cargo install cargo-deny \
      --version "$DENY_VERSION" --locked --root "$ROOT" >&2
    rm -rf "$CACHE/cargo-deny-target"
  fi
  flock -u 9
fi
if [ $# -eq 0 ]; then
  set -- check bans licenses sources
fi
exec "$ROOT/bin/cargo-deny" --workspace "$@"
