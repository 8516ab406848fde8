#!/usr/bin/env bash
# Runs the test set-up as on a plain Debian: only the system's directories on PATH (no
# pyenv, no user installs), the Python tools into a fresh venv of Debian's /usr/bin/python3.
# Fails if any step assumes more than Debian's packages and the pinned tool lists.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
plain_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# rustup and cargo stay reachable; nothing of pyenv does.
cargo_bin=$(dirname "$(command -v cargo)")
env -i HOME="$HOME" PATH="$cargo_bin:$plain_path" QUIRE_PY_VENV="$scratch/venv" \
  bash scripts/install-test-tools.sh
base=$("$scratch/venv/bin/python" -c 'import sys; print(sys.base_prefix)')
case $base in
  /usr | /usr/local) ;;
  *) echo "check-setup: the venv was made from $base, not the system Python" >&2; exit 1 ;;
esac
"$scratch/venv/bin/python" -c 'import pypdf, cryptography, aiosmtpd, prometheus_client, schemathesis'
"$scratch/venv/bin/componentize-py" --version >/dev/null
echo "check-setup: the set-up runs on the system Python ($("$scratch/venv/bin/python" --version)) with the pinned tools"
