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

# A data directory with the plugins installed, for the scripts below that need one.
DATA=$(mktemp -d)
trap 'rm -rf "$DATA"' EXIT
export QUIRE_DATA=$DATA QUIRE_PLUGINS_DIR=$TARGET/plugins QUIRE_LOG=error
$Q plugins list >/dev/null

for extra in scripts/bench-*.sh; do
  [ -e "$extra" ] || continue
  echo
  bash "$extra"
done
