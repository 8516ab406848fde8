#!/usr/bin/env bash
# Builds the example converters written in Python and JavaScript (plugins/examples/) into
# target/examples/: text.wasm (Python, componentize-py) and plain-text.wasm (JavaScript,
# ComponentizeJS). Installs the pinned tools under target/tools/ when they are missing.
# Quiet on success (prints the two paths), loud on failure, fast when nothing changed.
#
#   bash scripts/build-examples.sh          # build what is out of date
#   FORCE=1 bash scripts/build-examples.sh  # rebuild both
#
# Needs python3 (3.10+) and node (18+) with npm (installed from Debian when missing).
# Nothing is installed into the system Python.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup-lib.sh"

# componentize-py is pinned in scripts/python-tools.txt (the one venv of Python tools).
# npm versions are pinned in plugins/examples/js-plain/package.json and its package-lock.json:
# @bytecodealliance/componentize-js 0.23.0, @bytecodealliance/jco 1.35.0.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS=$ROOT/target/tools
OUT=$ROOT/target/examples
WIT=$ROOT/wit
PY_SRC=$ROOT/plugins/examples/python-text
JS_SRC=$ROOT/plugins/examples/js-plain
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

# Runs a command with its output in the log; on failure prints the log and stops.
quietly() {
    if ! "$@" >"$LOG" 2>&1; then
        echo "build-examples: failed: $*" >&2
        grep -v 'Unknown user config "nodedir"' "$LOG" >&2 || true
        exit 1
    fi
}

# True when $1 is missing or older than any file given after it (or any file under a
# directory given after it).
stale() {
    local out=$1
    shift
    [[ -n ${FORCE:-} || ! -s $out ]] && return 0
    [[ -n $(find "$@" -type f -newer "$out" -not -path '*/__pycache__/*' -print -quit) ]]
}

install_python_tools() {
    quietly python_tools "$ROOT/scripts/python-tools.txt"
}

install_node_tools() {
    local prefix=$TOOLS/node
    # npm ci from the example's lock file, again whenever that lock file changes.
    if [[ -x $prefix/node_modules/.bin/componentize-js ]] &&
        cmp -s "$JS_SRC/package-lock.json" "$prefix/package-lock.json"; then
        return
    fi
    node_tools
    mkdir -p "$prefix"
    cp "$JS_SRC/package.json" "$JS_SRC/package-lock.json" "$prefix/"
    quietly npm ci --prefix "$prefix" --no-audit --no-fund --loglevel=error
}

build_python() {
    local out=$OUT/text.wasm
    stale "$out" "$PY_SRC" "$WIT" "$0" || return 0
    install_python_tools
    mkdir -p "$OUT"
    # No __pycache__ in the source folder, so nothing stale is bundled.
    PYTHONDONTWRITEBYTECODE=1 quietly "$QUIRE_PY_VENV/bin/componentize-py" \
        -d "$WIT" -w converter componentize -p "$PY_SRC" app -o "$out.tmp"
    mv "$out.tmp" "$out"
}

build_js() {
    local out=$OUT/plain-text.wasm
    stale "$out" "$JS_SRC" "$WIT" "$0" || return 0
    install_node_tools
    mkdir -p "$OUT"
    # http and fetch-event off: the host links WASI without wasi:http.
    quietly "$TOOLS/node/node_modules/.bin/componentize-js" \
        --wit "$WIT" --world-name converter --disable http fetch-event \
        -o "$out.tmp" "$JS_SRC/plain-text.js"
    mv "$out.tmp" "$out"
}

build_python
build_js
echo "$OUT/text.wasm"
echo "$OUT/plain-text.wasm"
