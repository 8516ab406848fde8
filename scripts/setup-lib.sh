# Sourced by the set-up scripts: Debian packages and the Python tools' virtual environment.
# Nothing here installs into the system Python (Debian refuses that, PEP 668).

QUIRE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Every Python tool the tests, examples and benchmarks use, pinned, in one venv per checkout.
QUIRE_PY_VENV=${QUIRE_PY_VENV:-$QUIRE_ROOT/target/tools/python}

# apt_install PACKAGE...: as root, or through sudo when there is one; otherwise says which
# packages to install and fails.
apt_install() {
    local sudo=()
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        else
            echo "set-up: needs the Debian packages $*; run as root or install them: apt-get install $*" >&2
            return 1
        fi
    fi
    echo "installing: $*" >&2
    "${sudo[@]}" apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$@" >/dev/null
}

# python_tools REQUIREMENTS...: the venv holds exactly the pinned packages of these files
# (installed again when a file changes). Prints nothing when up to date.
python_tools() {
    local venv=$QUIRE_PY_VENV stamp=$QUIRE_PY_VENV/installed-from.txt wanted
    wanted=$(cat "$@")
    if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c '' 2>/dev/null &&
        [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
        return 0
    fi
    command -v python3 >/dev/null 2>&1 || apt_install python3
    # Debian splits venv's pip bootstrap into its own package.
    python3 -c 'import ensurepip, venv' 2>/dev/null || apt_install python3-venv
    [ -x "$venv/bin/python" ] && "$venv/bin/python" -c '' 2>/dev/null || {
        rm -rf "$venv"
        python3 -m venv "$venv"
    }
    local req
    for req in "$@"; do
        "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
    done
    printf '%s' "$wanted" >"$stamp"
}

# node_tools: node and npm, from Debian when missing.
node_tools() {
    command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || apt_install nodejs npm
}
