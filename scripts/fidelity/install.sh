#!/usr/bin/env bash
# Installs the reference renderers and scorers of `make fidelity` (not needed by `make
# test`): Chromium (HTML; Markdown through pandoc's HTML), pandoc, LibreOffice Draw
# (Visio), mermaid-cli (mermaid, in Debian's chromium), rsvg-convert (SVG), poppler
# (PDF pages and text), Tesseract (what is visible on a page), numpy and Pillow (SSIM).
# Idempotent: apt-get and npm run only for what is missing or changed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../setup-lib.sh"
cd "$QUIRE_ROOT"

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v pandoc >/dev/null || need_apt+=(pandoc)
command -v soffice >/dev/null || need_apt+=(libreoffice-draw-nogui)
command -v rsvg-convert >/dev/null || need_apt+=(librsvg2-bin)
command -v pdftoppm >/dev/null || need_apt+=(poppler-utils)
command -v qpdf >/dev/null || need_apt+=(qpdf)
command -v tesseract >/dev/null || need_apt+=(tesseract-ocr tesseract-ocr-eng)
command -v npm >/dev/null || need_apt+=(npm)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt_install "${need_apt[@]}"
fi

QUIRE_PY_VENV="$QUIRE_ROOT/target/tools/fidelity-py" python_tools scripts/fidelity/requirements.txt

dir=scripts/fidelity/node
if ! cmp -s "$dir/package-lock.json" "$dir/node_modules/.package-lock.json.installed" 2>/dev/null; then
  (cd "$dir" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --silent --no-audit --no-fund)
  cp "$dir/package-lock.json" "$dir/node_modules/.package-lock.json.installed"
fi
