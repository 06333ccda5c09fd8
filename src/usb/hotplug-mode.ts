// How USB hotplug reaches libusb on this system. The prebuilt usb.node links libudev, and its libusb learns of devices
// only from udevd's netlink messages: libusb_get_device_list() returns the list kept from those messages and never
// rescans. Without udevd the list stays as it was at start, and a device attached later cannot be opened through libusb.
import { existsSync } from 'node:fs';

/** `udev`: udevd is running (its control socket exists) and libusb sees attach and detach. `sysfs`: no udevd; sysfs is polled instead. */
export type HotplugMode = 'udev' | 'sysfs';

/** udevd's control socket (systemd-udevd and eudev alike). */
export const UDEVD_CONTROL = '/run/udev/control';

/** The mode for this system: `udev` when udevd's control socket exists. */
export function hotplugMode(exists: (path: string) => boolean = existsSync): HotplugMode {
  return exists(UDEVD_CONTROL) ? 'udev' : 'sysfs';
}

/** The start-up line that says which mode is used and what it means. */
export function hotplugModeText(mode: HotplugMode): string {
  return mode === 'udev'
    ? 'USB hotplug through udevd: printers are seen as they attach and detach'
    : `USB hotplug without udevd (${UDEVD_CONTROL} is absent): printers attached before start are used and a detach is seen ` +
        '(sysfs is listed every second), but libusb cannot open a printer attached after start; run udevd (eudev) or restart printproxyd after plugging one in';
}
