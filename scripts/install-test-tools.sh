#!/usr/bin/env bash
# Installs the independent tools the tests check our outputs with. Idempotent and quiet
# when everything is present; apt-get only runs for what is missing. Python tools go into
# a venv (target/tools/python) that `make test` puts first on PATH.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup-lib.sh"
cd "$QUIRE_ROOT"

need_apt=()
command -v qpdf >/dev/null || need_apt+=(qpdf)
command -v pdftotext >/dev/null || need_apt+=(poppler-utils)
command -v rsvg-convert >/dev/null || need_apt+=(librsvg2-bin)
command -v curl >/dev/null || need_apt+=(curl)
command -v openssl >/dev/null || need_apt+=(openssl)
command -v jq >/dev/null || need_apt+=(jq)
# The public form page is tested in Debian's chromium, driven by playwright-core.
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || need_apt+=(chromium)
# The image test (scripts/test-image.sh) runs the container image with podman and runc.
command -v podman >/dev/null || need_apt+=(podman)
command -v runc >/dev/null || need_apt+=(runc)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt_install "${need_apt[@]}"
fi

# pypdf reads our AcroForms back, aiosmtpd receives mail, prometheus-client parses the
# metrics page, schemathesis checks the OpenAPI document, componentize-py builds an example.
python_tools scripts/python-tools.txt

# The real mermaid parser (npm `mermaid` under node + jsdom) judges our .mmd output;
# playwright-core drives chromium; openapi-typescript generates the TypeScript client and
# tsc checks it. All from their lock files.
node_tools
for dir in plugins/mermaid/tests/js tests/browser clients/typescript; do
  if ! cmp -s "$dir/package-lock.json" "$dir/node_modules/.package-lock.json.installed" 2>/dev/null; then
    (cd "$dir" && npm ci --silent --no-audit --no-fund)
    cp "$dir/package-lock.json" "$dir/node_modules/.package-lock.json.installed"
  fi
done
