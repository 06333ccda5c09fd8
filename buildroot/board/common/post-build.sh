#!/bin/sh
# Buildroot post-build script of every board (BR2_ROOTFS_POST_BUILD_SCRIPT, BR2_ROOTFS_POST_SCRIPT_ARGS=<board>), and
# the stand-in build's (firmware/image/build-image.mjs) on its Debian root: the same fix-ups of the target tree.
# usage: post-build.sh TARGET_DIR BOARD     env: PRINTPROXY_KEYRING (the CA bundles must chain to; PEM)
set -eu
target=${1:?usage: post-build.sh TARGET_DIR BOARD}
board=${2:?usage: post-build.sh TARGET_DIR BOARD}
boards=$(cd "$(dirname "$0")/.." && pwd)
overlay=$(cd "$boards/../../buildroot-overlay" && pwd)
keyring=${PRINTPROXY_KEYRING:?PRINTPROXY_KEYRING names the PEM CA that update bundles must chain to}

install -D -m 0644 "$boards/$board/rauc-system.conf" "$target/etc/rauc/system.conf"
install -D -m 0644 "$keyring" "$target/etc/rauc/keyring.pem"
if [ -f "$boards/$board/fw_env.config" ]; then
	install -D -m 0644 "$boards/$board/fw_env.config" "$target/etc/fw_env.config"
fi

# the root is read-only: what changes lives on /run (tmpfs) or /data
mkdir -p "$target/data" "$target/mnt/boot" "$target/run" "$target/tmp"
ln -sfn /run/resolv.conf "$target/etc/resolv.conf"
ln -sfn /data/etc/machine-id "$target/etc/machine-id"
rm -rf "$target/var/log" "$target/var/tmp"
ln -sfn /data/log "$target/var/log"
ln -sfn /tmp "$target/var/tmp"
[ -L "$target/var/run" ] || { rm -rf "$target/var/run"; ln -sfn /run "$target/var/run"; }

# init is the overlay's: a start script some package brought (S40network, S49ntp, …) would run twice or clash
for script in "$target"/etc/init.d/S??*; do
	[ -e "$script" ] || continue
	[ -e "$overlay/etc/init.d/$(basename "$script")" ] || rm -f "$script"
done
