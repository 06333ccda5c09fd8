// The boards the stand-in image is built for: the executable's arch, Debian's name for it, the packages of the root
// (beside the minbase set), the kernel file the boot loader loads, and the reference qemu machine that boots it.
import { existsSync } from 'node:fs';

/** Packages every board's root has: what the overlay's init scripts run (buildroot-overlay/etc/init.d). */
const COMMON_PACKAGES = [
  'busybox-static', // init, watchdog, udhcpc, syslogd, klogd, logger, wget
  'udev', 'dbus', 'rauc', 'rauc-service', 'e2fsprogs', 'dosfstools', 'fdisk', 'kmod', 'chrony',
  // the executable's: libudev1 (usb), libatomic1 (Node on arm), libstdc++6; ca-certificates for https clients
  'libudev1', 'libatomic1', 'libstdc++6', 'ca-certificates',
];

/** Modules the root loads (with their dependencies): network, the boot partition, the watchdogs, RAUC's bundles. */
const ROOT_MODULES = [
  'virtio_net', 'vfat', 'nls_cp437', 'nls_iso8859_1', 'nls_ascii', 'i6300esb', 'softdog', 'loop', 'squashfs', 'dm_verity', 'dm_mod',
  'crc32c_generic', 'ext4', 'virtio_blk', 'xhci_pci', 'usb_storage',
];

/** Modules the initramfs loads to reach the root: the disk and its file system. */
const INITRAMFS_MODULES = ['virtio_pci', 'virtio_blk', 'crc32c_generic', 'ext4'];

/**
 * Board name → { arch (the executable's), debArch, packages, kernelFile (in the root's /boot), grub (x86: the EFI
 * loader is built), rootModules, initramfsModules, qemu(disk, extraArgs) → the reference machine's command line }.
 */
export const BOARDS = {
  'qemu-x86_64': {
    arch: 'x64',
    debArch: 'amd64',
    packages: [...COMMON_PACKAGES, 'grub-common', 'grub-efi-amd64-bin', 'linux-image-amd64'],
    kernelFile: 'bzImage',
    console: 'ttyS0',
    grub: true,
    rootModules: ROOT_MODULES,
    initramfsModules: INITRAMFS_MODULES,
    firmware: ['/usr/share/ovmf/OVMF.fd', '/usr/share/qemu/OVMF.fd'],
    firmwarePackage: 'ovmf',
    qemuPackage: 'qemu-system-x86',
    qemu: (disk, firmware) => [
      'qemu-system-x86_64', '-M', 'q35', '-cpu', 'Nehalem', '-accel', 'tcg,thread=single', '-smp', '1', '-m', '1024',
      '-bios', firmware, '-drive', `file=${disk},format=raw,if=virtio`, '-device', 'i6300esb', '-action', 'watchdog=reset',
    ],
  },
  'qemu-aarch64': {
    arch: 'arm64',
    debArch: 'arm64',
    packages: [...COMMON_PACKAGES, 'libubootenv-tool', 'linux-image-arm64'],
    kernelFile: 'Image',
    console: 'ttyAMA0',
    grub: false,
    rootModules: ROOT_MODULES,
    initramfsModules: INITRAMFS_MODULES,
    firmware: ['/usr/lib/u-boot/qemu_arm64/u-boot.bin'],
    firmwarePackage: 'u-boot-qemu',
    qemuPackage: 'qemu-system-arm',
    qemu: (disk, firmware) => [
      'qemu-system-aarch64', '-M', 'virt', '-cpu', 'cortex-a57', '-accel', 'tcg,thread=single', '-smp', '1', '-m', '1024',
      '-bios', firmware, '-drive', `if=none,file=${disk},format=raw,id=d0`, '-device', 'virtio-blk-pci,drive=d0',
      // qemu's i6300esb works on `virt` too: the same watchdog as x86, so a hung guest is reset on both
      '-device', 'i6300esb', '-action', 'watchdog=reset',
    ],
  },
};

/** The board called `name`; throws listing the boards for an unknown one. */
export function board(name) {
  const b = BOARDS[name];
  if (!b) throw new Error(`unknown board ${name} (${Object.keys(BOARDS).join(', ')}; rpi4 is built by Buildroot only)`);
  return { name, ...b };
}

/** The boot firmware file of a board (OVMF, U-Boot), or null when its Debian package is not installed. */
export function bootFirmware(b) {
  return b.firmware.find((f) => existsSync(f)) ?? null;
}
