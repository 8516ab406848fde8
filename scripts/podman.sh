# Sourced (after setup-lib.sh): podman as these machines run it. Installs podman and runc
# when missing, and defines `quire_podman`, which runs podman with runc, cgroupfs and no
# default ulimits (containers.conf under target/), as machines without systemd or cgroup
# delegation need.
command -v podman >/dev/null 2>&1 && command -v runc >/dev/null 2>&1 || apt_install podman runc
QUIRE_CONTAINERS_CONF="$QUIRE_ROOT/target/containers.conf"
if [ ! -f "$QUIRE_CONTAINERS_CONF" ]; then
    mkdir -p "$(dirname "$QUIRE_CONTAINERS_CONF")"
    printf '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\n' >"$QUIRE_CONTAINERS_CONF"
fi
quire_podman() {
    CONTAINERS_CONF="$QUIRE_CONTAINERS_CONF" podman --runtime runc "$@"
}
