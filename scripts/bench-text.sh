#!/usr/bin/env bash
# Issue 26's speed goals: a Chinese page against Chromium, Latin text with and without the
# font library (scripts/bench-text.py says how).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python3 scripts/bench-text.py
