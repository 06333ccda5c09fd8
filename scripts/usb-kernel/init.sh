#!/bin/sh
# /init of the USB kernel test guest (busybox): loads the USB gadget stack, mounts the host's root (9p, read-only),
# enters the Debian 13 test root inside it (ppd.newroot=) with fresh proc, sys, dev, configfs and tmpfs mounts and the
# host folders named by ppd.binds= bound in at their own paths, then runs the run script the host named on the kernel
# command line (ppd.run=) chrooted there, and reports its exit status on the console before powering off.
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
newroot=$(sed -n 's/.*ppd\.newroot=\([^ ]*\).*/\1/p' /proc/cmdline)
binds=$(sed -n 's/.*ppd\.binds=\([^ ]*\).*/\1/p' /proc/cmdline)
# the guest's /tmp is a tmpfs of its own; a bound folder under the host's /tmp (a clone there) stays visible through a bind
case ",$binds," in *,/tmp/*) mkdir -p /hosttmp && mount -o bind /host/tmp /hosttmp ;; esac
r="/host$newroot"
# a host folder as the guest sees it: below /host, or below /hosttmp for one under the host's /tmp
hostpath() { case "$1" in /tmp/*) echo "/hosttmp${1#/tmp}" ;; *) echo "/host$1" ;; esac; }
mount -t proc proc "$r/proc"
mount -t sysfs sysfs "$r/sys"
mount -t configfs none "$r/sys/kernel/config"
mount -t devtmpfs devtmpfs "$r/dev"
mkdir -p "$r/dev/shm" "$r/dev/pts"
mount -t tmpfs tmpfs "$r/dev/shm"
mount -t tmpfs tmpfs "$r/tmp"
mount -t tmpfs tmpfs "$r/run"
# after the tmpfs mounts, so one below /tmp stays visible (its mount point made in the tmpfs; the others by the host)
for p in $(echo "$binds" | tr , ' '); do
  mkdir -p "$r$p" 2>/dev/null
  mount -o bind "$(hostpath "$p")" "$r$p"
done
echo "@@usb-kernel ready $(cut -d' ' -f1 /proc/uptime)"
chroot "$r" /bin/sh "$run" < /dev/console > /dev/console 2>&1
code=$?
echo "@@usb-kernel exit $code"
poweroff -f
