#!/usr/bin/env bash
# Installs the default font library (docs/text-engine.md, §7) when it is missing: Liberation
# for Latin, Greek and Cyrillic (metric-compatible with the standard PDF fonts, so Latin
# layouts do not move), Noto for every other script, Noto CJK for Chinese, Japanese and
# Korean. All are OFL, so subsets may be embedded in the PDFs Quire writes. Operators add
# more with QUIRE_FONTS.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup-lib.sh"

need_apt=()
[ -e /usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf ] || need_apt+=(fonts-liberation2)
[ -e /usr/share/fonts/truetype/noto/NotoSans-Regular.ttf ] || need_apt+=(fonts-noto-core)
[ -e /usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf ] || need_apt+=(fonts-noto-mono)
[ -e /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ] || need_apt+=(fonts-noto-cjk)
# Monochrome emoji and symbols Noto's core set lacks (Noto's colour emoji is a bitmap font,
# which a PDF cannot embed as a CID font).
[ -e /usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf ] || need_apt+=(fonts-symbola)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt_install "${need_apt[@]}"
fi
