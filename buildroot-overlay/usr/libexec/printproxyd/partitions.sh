# shellcheck shell=sh
# Shell functions of the init scripts (sourced): partitions by their GPT label, before udev runs (no /dev/disk/by-*).

# part_dev LABEL: prints the device node of the partition whose GPT name is LABEL; fails when there is none.
part_dev() {
	for uevent in /sys/class/block/*/uevent; do
		if grep -qx "PARTNAME=$1" "$uevent"; then
			echo "/dev/$(basename "$(dirname "$uevent")")"
			return 0
		fi
	done
	return 1
}

# part_disk DEV: prints the whole disk a partition device node is on (/dev/vda for /dev/vda4).
part_disk() {
	echo "/dev/$(basename "$(readlink -f "/sys/class/block/$(basename "$1")/..")")"
}

# part_number DEV: prints a partition's number on its disk.
part_number() {
	cat "/sys/class/block/$(basename "$1")/partition"
}
