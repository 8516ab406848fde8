#!/usr/bin/env bash
# Makes the toolchain rust-toolchain.toml names available. When the machine's `stable` is
# already that exact release (as on our CI image), it is registered under the pinned name
# instead of downloading the same compiler again; otherwise rustup installs it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
want=$(sed -n 's/^channel *= *"\(.*\)"/\1/p' rust-toolchain.toml)
command -v rustup >/dev/null || {
  echo "set-up: rustup is needed (https://rustup.rs), then run make again" >&2
  exit 1
}
if ! rustup toolchain list | grep -q "^$want-"; then
  stable=$(rustup run stable rustc --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$stable" = "$want" ]; then
    host=$(rustup run stable rustc -vV | sed -n 's/^host: //p')
    # A directory link keeps stable's components and targets; `rustup toolchain link`
    # would make a custom toolchain on which rustup refuses to add the wasm target.
    ln -s "$(rustup run stable rustc --print sysroot)" "${RUSTUP_HOME:-$HOME/.rustup}/toolchains/$want-$host"
  fi
fi
# Installs what the toolchain file lists (the toolchain itself, the wasm target) if missing.
rustup show active-toolchain >/dev/null
rustup target list --installed | grep -qx wasm32-wasip2 || rustup target add wasm32-wasip2
