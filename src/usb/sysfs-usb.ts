// What the kernel already read from a USB device, from sysfs (/sys/bus/usb/devices/<bus>-<ports>/): its strings and
// address, readable while another process or usblp holds the device, and without opening it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the kernel lists USB devices. */
export const SYSFS_USB_DEVICES = '/sys/bus/usb/devices';

/** A device's string descriptors as sysfs has them; a field is undefined when sysfs has no such file (no string, or no sysfs). */
export interface SysfsStrings {
  serialNumber?: string;
  manufacturer?: string;
  product?: string;
}

/** The sysfs folder name of the device at `busNumber` and hub `portNumbers` (`1-1.4`); null for a root hub (no ports). */
export function sysfsName(busNumber: number, portNumbers: number[]): string | null {
  return portNumbers.length > 0 ? `${busNumber}-${portNumbers.join('.')}` : null;
}

/** Reads serial, manufacturer and product of a device from sysfs, when its folder is there and holds `deviceAddress` (`devnum`). */
export function sysfsStrings(busNumber: number, portNumbers: number[], deviceAddress: number, root = SYSFS_USB_DEVICES): SysfsStrings {
  const name = sysfsName(busNumber, portNumbers);
  if (!name) return {};
  const dir = join(root, name);
  // a folder of a device re-plugged since libusb listed it describes another device
  if (Number(read(join(dir, 'devnum'))) !== deviceAddress) return {};
  return { serialNumber: read(join(dir, 'serial')), manufacturer: read(join(dir, 'manufacturer')), product: read(join(dir, 'product')) };
}

/** Whether sysfs still has the device at `busNumber`/`portNumbers` with address `deviceAddress` (a root hub always counts); true when there is no sysfs to ask. */
export function sysfsHolds(busNumber: number, portNumbers: number[], deviceAddress: number, root = SYSFS_USB_DEVICES): boolean {
  const name = sysfsName(busNumber, portNumbers);
  if (!name || !existsSync(root)) return true;
  return Number(read(join(root, name, 'devnum'))) === deviceAddress;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1').trim();
  } catch {
    return undefined;
  }
}
