# The A/B choice of every U-Boot board, after the board's own boot.cmd set where things are (post-image.sh puts the
# two together before mkimage). The state is a raw U-Boot environment in the `bootstate` partition (its LBA and size
# are those of /etc/fw_env.config, which RAUC's uboot backend writes through fw_setenv):
#   BOOT_ORDER       the slots to try, first the primary ("A B" or "B A");
#   BOOT_<slot>_LEFT tries left: each boot takes one, the health gate gives them back (rauc status mark-good: 3), and
#                    a slot with none left is skipped. When no slot has any, both are reset, rather than a brick.
${devtype} dev ${devnum}
setenv BOOT_ORDER
setenv BOOT_A_LEFT
setenv BOOT_B_LEFT
if ${devtype} read ${loadaddr} ${bootstate_lba} ${bootstate_blocks}; then
	env import -c ${loadaddr} ${bootstate_size} BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT
fi
test -n "${BOOT_ORDER}" || setenv BOOT_ORDER "A B"
test -n "${BOOT_A_LEFT}" || setenv BOOT_A_LEFT 3
test -n "${BOOT_B_LEFT}" || setenv BOOT_B_LEFT 3

setenv slot
for s in ${BOOT_ORDER}; do
	if test -n "${slot}"; then
		true
	elif test "${s}" = "A" && test ${BOOT_A_LEFT} -gt 0; then
		setexpr BOOT_A_LEFT ${BOOT_A_LEFT} - 1
		setenv slot A
	elif test "${s}" = "B" && test ${BOOT_B_LEFT} -gt 0; then
		setexpr BOOT_B_LEFT ${BOOT_B_LEFT} - 1
		setenv slot B
	fi
done
if test -z "${slot}"; then
	echo "printproxy: no slot has tries left; resetting both"
	setenv BOOT_A_LEFT 3
	setenv BOOT_B_LEFT 3
	for s in ${BOOT_ORDER}; do
		if test -z "${slot}"; then
			setenv slot ${s}
		fi
	done
	if test "${slot}" = "B"; then
		setenv BOOT_B_LEFT 2
	else
		setenv slot A
		setenv BOOT_A_LEFT 2
	fi
fi
env export -c -s ${bootstate_size} ${loadaddr} BOOT_ORDER BOOT_A_LEFT BOOT_B_LEFT
${devtype} write ${loadaddr} ${bootstate_lba} ${bootstate_blocks}

if test "${slot}" = "A"; then
	setenv rootpart ${rootpart_A}
	setenv rootlabel rootfs-a
else
	setenv rootpart ${rootpart_B}
	setenv rootlabel rootfs-b
fi
echo "printproxy: booting slot ${slot} (tries left: A ${BOOT_A_LEFT}, B ${BOOT_B_LEFT})"

setenv bootargs "root=PARTLABEL=${rootlabel} ro rootwait rauc.slot=${slot} ${console_args} panic=5 oops=panic"
load ${devtype} ${devnum}:${rootpart} ${kernel_addr_r} ${kernel_file}
if load ${devtype} ${devnum}:${rootpart} ${ramdisk_addr_r} /boot/initrd.img; then
	booti ${kernel_addr_r} ${ramdisk_addr_r}:${filesize} ${fdt_addr}
else
	booti ${kernel_addr_r} - ${fdt_addr}
fi
echo "printproxy: slot ${slot} did not boot; resetting"
reset
