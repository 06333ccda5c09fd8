#!/bin/busybox sh
# shellcheck shell=dash
# /init of the stand-in image's initramfs (Debian's kernels build virtio_blk and ext4 as modules; the Buildroot build
# has them built in and needs none): loads the modules listed in /modules.list in order, finds the root partition by
# the GPT label the boot loader named (root=PARTLABEL=rootfs-a|b), mounts it read-only and hands over to its init.
# When it cannot, it says why and reboots: the boot loader counts that as a failed try of the slot.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

fail() {
	echo "initramfs: $*; rebooting" >/dev/console
	sleep 5
	reboot -f
}

while read -r module params; do
	# shellcheck disable=SC2086
	[ -n "$module" ] && insmod "/lib/modules/$module" $params
done </modules.list

label=
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in root=PARTLABEL=*) label=${arg#root=PARTLABEL=} ;; esac
done
[ -n "$label" ] || fail "no root=PARTLABEL= on the command line"

dev=
i=0
while [ -z "$dev" ] && [ $i -lt 300 ]; do
	for uevent in /sys/class/block/*/uevent; do
		grep -qx "PARTNAME=$label" "$uevent" 2>/dev/null && dev=/dev/$(basename "$(dirname "$uevent")")
	done
	[ -n "$dev" ] || { sleep 0.1; i=$((i + 1)); }
done
[ -n "$dev" ] || fail "no partition labelled $label"

mkdir -p /newroot
mount -t ext4 -o ro "$dev" /newroot || fail "cannot mount $dev ($label)"
mount --move /dev /newroot/dev
umount /sys /proc
exec switch_root /newroot /sbin/init
