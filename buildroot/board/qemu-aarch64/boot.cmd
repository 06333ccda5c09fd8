# Where things are on the qemu-aarch64 board (qemu `virt`: U-Boot's distro boot finds boot.scr on the first
# partition of the virtio disk and sets devtype/devnum); board/common/uboot-ab.cmd follows and boots a slot.
setenv bootstate_lba 0x20800
setenv bootstate_blocks 0x20
setenv bootstate_size 0x4000
setenv rootpart_A 3
setenv rootpart_B 4
setenv kernel_file /boot/Image
setenv console_args console=ttyAMA0,115200
