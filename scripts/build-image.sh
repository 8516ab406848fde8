#!/usr/bin/env bash
# Builds the OCI image quire:VERSION (and quire:latest) with podman, from files of this
# machine only: no base image comes from a registry. The image is the release binary, the
# shared libraries it links (glibc's), the shipped converters and the default fonts, on an
# empty root, run as an unprivileged user with its data in the volume /data.
#
#   scripts/build-image.sh BINARY PLUGINS_DIR
#
# `make image` runs it after building both. Podman is installed when missing; on machines
# without systemd or cgroup delegation it runs with runc, cgroupfs and no default ulimits
# (scripts/podman.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup-lib.sh"
source "$QUIRE_ROOT/scripts/podman.sh"
binary=$(realpath "$1")
plugins=$(realpath "$2")
version=$("$binary" --version | awk '{print $2}')
context="$QUIRE_ROOT/target/image"
rm -rf "$context"
root="$context/rootfs"
mkdir -p "$root/usr/local/bin" "$root/usr/share/quire/plugins" "$root/etc" "$root/tmp"
# /data (and /cache, for a compile cache in a volume of its own shared by several
# containers: QUIRE_CACHE_DIR=/cache) come from a tree of their own, so that COPY --chown
# gives the directories themselves to the image's user (the server makes them private).
mkdir -p "$context/volume/data" "$context/volume/cache"

install -m 0755 "$binary" "$root/usr/local/bin/quire"
strip "$root/usr/local/bin/quire" 2>/dev/null || true
cp "$plugins"/*.wasm "$root/usr/share/quire/plugins/"
# The dynamic loader and every library the binary links, at the paths it looks in.
for lib in $(ldd "$binary" | grep -o '/[^ ]*'); do
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
done
# The default font set (quire-fonts' default roots); without it text in most scripts
# would have no face to be drawn with.
for fonts in /usr/share/fonts/truetype/liberation2 /usr/share/fonts/truetype/noto \
    /usr/share/fonts/opentype/noto /usr/share/fonts/truetype/ancient-scripts; do
    [ -d "$fonts" ] || continue
    mkdir -p "$root$fonts"
    cp -r "$fonts/." "$root$fonts/"
done
# Who runs it; glibc resolves names through /etc/hosts and the resolv.conf the runtime
# mounts (webhooks, mail, S3).
printf 'root:x:0:0::/:/nonexistent\nquire:x:10001:10001::/data:/nonexistent\n' >"$root/etc/passwd"
printf 'root:x:0:\nquire:x:10001:\n' >"$root/etc/group"
printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"
printf '127.0.0.1 localhost\n::1 localhost\n' >"$root/etc/hosts"
chmod 1777 "$root/tmp"

cat >"$context/Containerfile" <<EOF
FROM scratch
COPY --chown=0:0 rootfs/ /
COPY --chown=10001:10001 volume/ /
ENV QUIRE_DATA=/data \\
    QUIRE_PLUGINS_DIR=/usr/share/quire/plugins \\
    QUIRE_ADDR=0.0.0.0:8080 \\
    QUIRE_ADMIN_ADDR=127.0.0.1:8081 \\
    QUIRE_LOG_FORMAT=json \\
    TMPDIR=/tmp
USER 10001:10001
VOLUME /data
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=6s --start-period=120s --retries=3 CMD ["/usr/local/bin/quire", "ready"]
ENTRYPOINT ["/usr/local/bin/quire"]
CMD ["serve"]
LABEL org.opencontainers.image.title="Quire" \\
      org.opencontainers.image.description="Self-hosted document conversion and forms service" \\
      org.opencontainers.image.version="$version"
EOF
quire_podman build --format docker --tag "quire:$version" --tag quire:latest "$context" >&2
rm -rf "$root"
echo "quire:$version"
