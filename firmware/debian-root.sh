#!/usr/bin/env bash
# Makes a Debian 13 (trixie, glibc 2.41) root from Debian's packages with debootstrap, once, for running the Node 24
# executables here (their uWS addon needs glibc >= 2.38; this machine may have less):
#   x64:   a full minbase root, entered with firmware/in-debian-root.sh (chroot in a private mount namespace);
#   arm64: the same packages unpacked for qemu-user's -L (debootstrap --foreign: no arm64 code runs to make it).
#   x64 with EXTRA packages: the root the host suite runs in on Node 24 (scripts/shipped-runtime.mjs), with the
#   programs its tests start (cupsd, ippeveprinter, chromium, avahi-daemon, mosquitto, ip, …) from trixie's packages.
# usage: firmware/debian-root.sh x64|arm64 DIR [EXTRA,PACKAGES]     (installs debootstrap, and qemu-user-static for arm64, when missing; needs root)
# DIR appears complete or not at all: it is made in DIR.partial and renamed.
set -euo pipefail
arch=${1:?usage: debian-root.sh x64|arm64 DIR}
dir=${2:?usage: debian-root.sh x64|arm64 DIR}
extra=${3:-}
suite=trixie
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
[ -e "$dir/.complete" ] && exit 0

export DEBIAN_FRONTEND=noninteractive
need=()
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
[ "$arch" = x64 ] || command -v qemu-aarch64-static >/dev/null 2>&1 || need+=(qemu-user-static)
# a mirror mid-sync can fail one index file; the install fails loudly if a package is really missing
[ ${#need[@]} -eq 0 ] || { apt-get update -qq || true; apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
# libudev1 for the usb addon, util-linux for setpriv and setsid (the image's init script), libatomic1 for Node on arm,
# ca-certificates for https clients (webhooks, URL fetches) as on the device
include=libudev1,libatomic1,util-linux,ca-certificates
partial="$dir.partial"
rm -rf "$partial"
mkdir -p "$(dirname "$dir")"
started=$(date +%s)
case "$arch" in
  x64)
    debootstrap --variant=minbase --include="$include" "$suite" "$partial" "$mirror" >"$partial.log" 2>&1 || { tail -n 20 "$partial.log" >&2; exit 1; }
    # the extra packages through apt inside the root: it resolves alternatives (dbus-session-bus, …) that debootstrap's
    # --include leaves unconfigured; no service is started (policy-rc.d), /proc is mounted for the maintainer scripts
    if [ -n "$extra" ]; then
      printf '#!/bin/sh\nexit 101\n' >"$partial/usr/sbin/policy-rc.d" && chmod 755 "$partial/usr/sbin/policy-rc.d"
      unshare --mount --propagation private sh -c 'mount -t proc proc "$1/proc" && chroot "$1" sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends \$0" "$2"' \
        sh "$partial" "$(echo "$extra" | tr , ' ')" >>"$partial.log" 2>&1 || { tail -n 20 "$partial.log" >&2; exit 1; }
      chroot "$partial" apt-get clean
    fi
    ;;
  arm64)
    debootstrap --variant=minbase --arch=arm64 --foreign --include="$include" "$suite" "$partial" "$mirror" >"$partial.log" 2>&1 || { tail -n 20 "$partial.log" >&2; exit 1; }
    # the first stage unpacks only the required set; the included packages wait in the cache for a second stage
    for deb in "$partial"/var/cache/apt/archives/*.deb; do dpkg-deb -x "$deb" "$partial"; done
    ;;
  *) echo "unknown arch $arch (x64 or arm64)" >&2; exit 2 ;;
esac
rm -rf "$partial"/var/cache/apt/archives/*.deb "$partial.log"
echo "$suite $arch $(date -u +%F)${extra:+ $extra}" >"$partial/.complete"
mv "$partial" "$dir"
echo "Debian $suite root for $arch in $dir ($(($(date +%s) - started)) s)" >&2
