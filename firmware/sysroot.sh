#!/usr/bin/env bash
# Makes a sysroot for running the armv7 Node (and our natives) under qemu-user on this machine: Debian 12's armhf
# glibc, libstdc++, libgcc, libatomic and libudev, unpacked into DIR. (arm64 runs in the Debian 13 root that
# firmware/debian-root.sh makes: its uWS needs glibc 2.38.)
# usage: firmware/sysroot.sh armv7 DIR     (installs qemu-user-static when missing; needs root for apt)
set -euo pipefail
arch=${1:?usage: sysroot.sh armv7 DIR}
dir=${2:?usage: sysroot.sh armv7 DIR}
case "$arch" in
  armv7) deb=armhf; triplet=arm-linux-gnueabihf; loader=ld-linux-armhf.so.3 ;;
  *) echo "unknown arch $arch (armv7)" >&2; exit 2 ;;
esac
[ -e "$dir/lib/$triplet/$loader" ] && [ -e "$dir/usr/lib/$triplet/libudev.so.1" ] && exit 0

export DEBIAN_FRONTEND=noninteractive
updated=0
# a mirror mid-sync can fail one index file; the download below fails loudly if a package is really missing
update() { [ $updated = 1 ] || { apt-get update -qq || echo "apt-get update reported errors; trying the download anyway" >&2; updated=1; }; }
command -v qemu-arm-static >/dev/null 2>&1 || { update; apt-get install -y -qq --no-install-recommends qemu-user-static >/dev/null; }
if ! dpkg --print-foreign-architectures | grep -qx "$deb"; then
  dpkg --add-architecture "$deb"
  updated=0
fi
update
debs=$(mktemp -d)
trap 'rm -rf "$debs"' EXIT
chmod 755 "$debs"
(cd "$debs" && apt-get download -qq "libc6:$deb" "libstdc++6:$deb" "libgcc-s1:$deb" "libatomic1:$deb" "libudev1:$deb" "libcap2:$deb")
mkdir -p "$dir"
for f in "$debs"/*.deb; do dpkg-deb -x "$f" "$dir"; done
# Debian keeps the loader under lib/TRIPLET with a link in /lib (bookworm's usrmerge layout may keep it in usr/lib)
if [ ! -e "$dir/lib/$loader" ]; then
  mkdir -p "$dir/lib"
  src=$(cd "$dir" && find . -name "$loader" | head -n 1)
  ln -sf "/${src#./}" "$dir/lib/$loader"
fi
echo "sysroot for $arch in $dir"
