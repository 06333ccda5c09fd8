#!/bin/sh
# /init of the USB kernel test guest (busybox): loads the USB gadget stack, mounts the host's root (9p, read-only)
# with fresh proc, sys, dev, configfs and tmpfs mounts inside it, then runs the run script the host named on the
# kernel command line (ppd.run=) chrooted there, and reports its exit status on the console before powering off.
export PATH=/bin:/sbin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
while read -r mod params; do
  insmod "/modules/$mod" $params || echo "@@usb-kernel insmod $mod failed"
done < /modules/order
ip link set lo up
run=$(sed -n 's/.*ppd\.run=\([^ ]*\).*/\1/p' /proc/cmdline)
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288,cache=loose,ro host /host; then
  echo "@@usb-kernel exit 125"
  poweroff -f
fi
# the guest's /tmp is a tmpfs of its own; a work tree under the host's /tmp (a clone there) stays visible through a bind
root=$(sed -n 's/.*ppd\.root=\([^ ]*\).*/\1/p' /proc/cmdline)
case "$root" in /tmp/*) mkdir -p /hosttmp && mount -o bind /host/tmp /hosttmp ;; esac
mount -t proc proc /host/proc
mount -t sysfs sysfs /host/sys
mount -t configfs none /host/sys/kernel/config
mount -t devtmpfs devtmpfs /host/dev
mkdir -p /host/dev/shm /host/dev/pts
mount -t tmpfs tmpfs /host/dev/shm
mount -t tmpfs tmpfs /host/tmp
case "$root" in /tmp/*) mkdir -p "/host$root" && mount -o bind "/hosttmp${root#/tmp}" "/host$root" ;; esac
mount -t tmpfs tmpfs /host/run
echo "@@usb-kernel ready $(cut -d' ' -f1 /proc/uptime)"
chroot /host /bin/sh "$run" < /dev/console > /dev/console 2>&1
code=$?
echo "@@usb-kernel exit $code"
poweroff -f
