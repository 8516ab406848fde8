#!/usr/bin/env bash
# Installs the independent tools the tests check our outputs with. Idempotent and quiet
# when everything is present; apt-get only runs for what is missing.
set -euo pipefail

need_apt=()
command -v qpdf >/dev/null || need_apt+=(qpdf)
command -v pdftotext >/dev/null || need_apt+=(poppler-utils)
command -v rsvg-convert >/dev/null || need_apt+=(librsvg2-bin)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# pypdf reads our AcroForms back, independently of our writer.
python3 -c 'import pypdf' 2>/dev/null || python3 -m pip install -q pypdf

# The real mermaid parser (npm `mermaid` under node + jsdom) judges our .mmd output.
if [ ! -d plugins/mermaid/tests/js/node_modules ]; then
  (cd plugins/mermaid/tests/js && npm ci --silent --no-audit --no-fund)
fi

# The public form page is tested in Debian's chromium, driven by playwright-core.
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
  echo "installing: chromium"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
if [ ! -d host/tests/browser/node_modules/playwright-core ]; then
  (cd host/tests/browser && npm ci --silent --no-audit --no-fund)
fi

# A real SMTP server receives the service's mail in the tests.
python3 -c 'import aiosmtpd' 2>/dev/null || python3 -m pip install -q aiosmtpd

# The metrics page is read by Prometheus's own Python client parser.
python3 -c 'import prometheus_client' 2>/dev/null || python3 -m pip install -q prometheus-client
