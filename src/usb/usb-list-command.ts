// `printproxyd usb-list`: what libusb sees — ids, classes, the 1284 device ID and the path each printer would get.
import { contentOf, parseDeviceId } from './ieee1284';
import { printerInterface } from './interface-select';
import { duplicateSerials, readDeviceIdText, usbPath } from './usb-identify';
import type { UsbBackend, UsbDeviceInfo } from './usb-backend';
import { InterfaceClaims } from './usb-claim';

/** Prints a JSON array (one entry per device) to `out`; returns the exit code (0, or 1 when libusb fails). */
export async function runUsbListCommand(backend: UsbBackend, out: (text: string) => void, err: (text: string) => void): Promise<number> {
  let devices: UsbDeviceInfo[];
  try {
    devices = await backend.list();
  } catch (e) {
    err(`printproxyd usb-list: libusb failed: ${(e as Error).message}\n`);
    return 1;
  }
  const dupes = duplicateSerials(devices.filter((d) => printerInterface(d)));
  const claims = new InterfaceClaims(backend);
  const rows = await Promise.all(devices.map((d) => row(claims, d, dupes)));
  out(JSON.stringify(rows, null, 2) + '\n');
  return 0;
}

async function row(claims: InterfaceClaims, device: UsbDeviceInfo, dupes: Set<string>) {
  const hex = (n: number) => n.toString(16).padStart(4, '0');
  const iface = printerInterface(device);
  const deviceId = iface ? await readDeviceIdText(claims, device, iface, 2000) : null;
  return {
    id: `${hex(device.vendorId)}:${hex(device.productId)}`,
    bus: device.busNumber,
    ports: device.portNumbers.join('.'),
    manufacturer: device.manufacturer,
    product: device.product,
    serialNumber: device.serialNumber,
    classes: [...new Set(device.interfaces.map((i) => i.interfaceClass))],
    printerInterface: iface?.number ?? null,
    alternate: iface?.alternate ?? null,
    deviceId,
    content: iface ? contentOf(parseDeviceId(deviceId ?? ''), device) : null,
    path: iface ? usbPath(device, !dupes.has(device.serialNumber)) : null,
  };
}
