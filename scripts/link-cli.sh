#!/bin/bash
# Links the quire binary `make run` built into ~/.local/bin (on Debian's default PATH once it
# exists), so the README's commands work from any directory. The binary finds its checkout,
# and so the data directory `make run` serves, through the link. A file there that is not a
# link is someone else's and is left alone.
set -euo pipefail
bin=$(realpath "$1")
dir="$HOME/.local/bin"
mkdir -p "$dir"
if [ -e "$dir/quire" ] && [ ! -L "$dir/quire" ]; then
    echo "note: $dir/quire is not a link; left alone (the quire built here is $bin)" >&2
    exit 0
fi
ln -sfn "$bin" "$dir/quire"
echo "linked $dir/quire -> $bin"
