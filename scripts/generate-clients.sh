#!/usr/bin/env bash
# Generates the API clients from the OpenAPI document, with pinned, maintained generators:
# openapi-python-client (scripts/python-tools.txt) and openapi-typescript
# (clients/typescript/package-lock.json).
#
#   scripts/generate-clients.sh OPENAPI_JSON OUT_DIR
#
# writes OUT_DIR/openapi.json, OUT_DIR/python/quire_client and
# OUT_DIR/typescript/src/schema.d.ts. `make clients` runs it into clients/; the e2e test
# `clients` runs it into a temporary directory and compares, so a client that drifted from
# the API fails the tests.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
document=$(realpath "$1")
out=$(realpath -m "$2")
mkdir -p "$out/python" "$out/typescript/src"
[ "$document" = "$out/openapi.json" ] || cp "$document" "$out/openapi.json"
# Warnings name the raw-file bodies (application/pdf, image/png…) this generator cannot
# model; the client sends files as multipart instead.
openapi-python-client generate --path "$out/openapi.json" \
    --config "$ROOT/clients/python/config.yaml" --meta none \
    --output-path "$out/python/quire_client" --overwrite >"$out/python/generator.log" 2>&1 ||
    { cat "$out/python/generator.log" >&2; exit 1; }
rm "$out/python/generator.log"
"$ROOT/clients/typescript/node_modules/.bin/openapi-typescript" "$out/openapi.json" \
    --output "$out/typescript/src/schema.d.ts" >/dev/null
