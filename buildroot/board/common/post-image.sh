#!/bin/sh
# Buildroot post-image script of every board (BR2_ROOTFS_POST_IMAGE_SCRIPT, BR2_ROOTFS_POST_SCRIPT_ARGS=<board>), and
# the stand-in build's: from rootfs.ext4 (the root, kernel in its /boot) and the boot loader's files in BINARIES_DIR,
# makes the boot partition's files, the boot loader's state (both slots good, A first), the data partition (RAUC's
# status seeded: both slots hold this release), with genimage disk.img, and the signed update bundle
# update-<version>.raucb (RAUC verity format, this board's compatible) when a signer is given.
# usage: post-image.sh BINARIES_DIR BOARD
#   env: TARGET_DIR (the root, for its /etc/printproxyd-version); PRINTPROXY_SIGN_CERT, PRINTPROXY_SIGN_KEY (the
#        release signer, PEM) and PRINTPROXY_KEYRING (the CA it must chain to) for the bundle
set -eu
out=${1:?usage: post-image.sh BINARIES_DIR BOARD}
board=${2:?usage: post-image.sh BINARIES_DIR BOARD}
boards=$(cd "$(dirname "$0")/.." && pwd)
version=$(cat "${TARGET_DIR:?TARGET_DIR is the target root}/etc/printproxyd-version")
compatible="printproxy-$board"
work="$out/.post-image"
rm -rf "$work"
mkdir -p "$work/root" "$work/data/rauc" "$work/tmp"

case "$board" in
	qemu-x86_64)
		mkdir -p "$out/EFI/BOOT"
		# Buildroot's grub2 package leaves its EFI loader in efi-part/; the stand-in puts it in place itself
		if [ -f "$out/efi-part/EFI/BOOT/bootx64.efi" ]; then
			cp "$out/efi-part/EFI/BOOT/bootx64.efi" "$out/EFI/BOOT/BOOTX64.EFI"
		fi
		[ -f "$out/EFI/BOOT/BOOTX64.EFI" ] || { echo "post-image.sh: no EFI/BOOT/BOOTX64.EFI in $out" >&2; exit 1; }
		cp "$boards/$board/grub.cfg" "$out/EFI/BOOT/grub.cfg"
		rm -f "$out/EFI/BOOT/grubenv"
		grub-editenv "$out/EFI/BOOT/grubenv" create
		grub-editenv "$out/EFI/BOOT/grubenv" set ORDER="A B" A_OK=1 B_OK=1 A_TRY=0 B_TRY=0
		;;
	qemu-aarch64 | rpi4)
		cat "$boards/$board/boot.cmd" "$boards/common/uboot-ab.cmd" >"$work/boot.cmd"
		mkimage -A arm64 -O linux -T script -C none -n "printproxy $board" -d "$work/boot.cmd" "$out/boot.scr" >/dev/null
		printf 'BOOT_ORDER=A B\nBOOT_A_LEFT=3\nBOOT_B_LEFT=3\n' >"$work/bootstate.txt"
		mkenvimage -s 0x4000 -o "$out/bootstate.bin" "$work/bootstate.txt"
		if [ "$board" = rpi4 ]; then cp "$boards/rpi4/config.txt" "$out/config.txt"; fi
		;;
	*) echo "post-image.sh: unknown board $board" >&2; exit 2 ;;
esac

# RAUC's central status (data-directory=/data/rauc): the factory image holds this release in both slots
installed=$(date -u +%Y-%m-%dT%H:%M:%SZ)
for slot in rootfs.0 rootfs.1; do
	printf '[slot.%s]\nbundle.compatible=%s\nbundle.version=%s\nstatus=ok\ninstalled.timestamp=%s\ninstalled.count=1\n\n' \
		"$slot" "$compatible" "$version" "$installed"
done >"$work/data/rauc/central.raucs"
rm -f "$out/data.ext4"
mkfs.ext4 -q -F -L data -d "$work/data" "$out/data.ext4" 64M

genimage --config "$boards/$board/genimage.cfg" --inputpath "$out" --outputpath "$out" \
	--rootpath "$work/root" --tmppath "$work/tmp" >"$work/genimage.log" 2>&1 || { cat "$work/genimage.log" >&2; exit 1; }

# the update bundle: this root, signed; a device installs it into its other slot
if [ -n "${PRINTPROXY_SIGN_CERT:-}" ] && [ -n "${PRINTPROXY_SIGN_KEY:-}" ]; then
	mkdir -p "$work/bundle"
	cp "$out/rootfs.ext4" "$work/bundle/rootfs.ext4"
	printf '[update]\ncompatible=%s\nversion=%s\nbuild=%s\n\n[bundle]\nformat=verity\n\n[image.rootfs]\nfilename=rootfs.ext4\n' \
		"$compatible" "$version" "$installed" >"$work/bundle/manifest.raucm"
	rm -f "$out/update-$version.raucb"
	rauc bundle --cert="$PRINTPROXY_SIGN_CERT" --key="$PRINTPROXY_SIGN_KEY" ${PRINTPROXY_KEYRING:+--keyring="$PRINTPROXY_KEYRING"} \
		"$work/bundle" "$out/update-$version.raucb" >"$work/rauc.log" 2>&1 || { cat "$work/rauc.log" >&2; exit 1; }
	echo "post-image.sh: $out/update-$version.raucb"
fi
rm -rf "$work"
echo "post-image.sh: $out/disk.img ($board, $version)"
