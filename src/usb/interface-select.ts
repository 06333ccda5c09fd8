// Which alternate setting of which interface a printer is driven through (as CUPS's usb-libusb.c and PAPPL choose):
// USB printer class 7 subclass 1, bidirectional (protocol 2) before unidirectional (1); never IEEE 1284.4 (3) or
// IPP-USB (4), which speak a packet protocol rather than the printer's language.
import type { UsbDeviceInfo, UsbInterfaceInfo } from './usb-backend';
import { isBlacklisted, usesVendorClass } from './usb-quirks';

const PRINTER_CLASS = 7;
const PRINTER_SUBCLASS = 1;
const VENDOR_CLASS = 0xff;
/** Protocols that are not a plain byte stream to the printer: IEEE 1284.4 and IPP-USB. */
const PACKET_PROTOCOLS = new Set([3, 4]);

/** How good an alternate setting is as the printer interface: lower is better, null when it is not one. */
function rank(device: Pick<UsbDeviceInfo, 'vendorId' | 'productId'>, alt: UsbInterfaceInfo): number | null {
  const printer = alt.interfaceClass === PRINTER_CLASS && alt.interfaceSubclass === PRINTER_SUBCLASS;
  const vendor = alt.interfaceClass === VENDOR_CLASS && usesVendorClass(device.vendorId, device.productId);
  if (!printer && !vendor) return null;
  if (PACKET_PROTOCOLS.has(alt.interfaceProtocol)) return null;
  if (!alt.endpoints.some((e) => e.direction === 'out' && e.transferType === 'bulk')) return null;
  return alt.interfaceProtocol === 2 ? 0 : alt.interfaceProtocol === 1 ? 1 : 2;
}

/** The best printer alternate setting among `alts` (the first of equal rank), or null when none is one. */
function best(device: UsbDeviceInfo, alts: UsbInterfaceInfo[]): UsbInterfaceInfo | null {
  let chosen: UsbInterfaceInfo | null = null;
  let chosenRank = Infinity;
  for (const alt of alts) {
    const r = rank(device, alt);
    if (r !== null && r < chosenRank) [chosen, chosenRank] = [alt, r];
  }
  return chosen;
}

/** The alternate setting to print through, over every alternate setting of every interface; null for a device that is not a printer (or that CUPS blacklists). */
export function printerInterface(device: UsbDeviceInfo): UsbInterfaceInfo | null {
  if (isBlacklisted(device.vendorId, device.productId)) return null;
  return best(device, device.interfaces);
}

/** The alternate setting of interface `number` to use: the printer one when it has one, else its first; null when the interface is gone. */
export function interfaceFor(device: UsbDeviceInfo, number: number): UsbInterfaceInfo | null {
  const alts = device.interfaces.filter((i) => i.number === number);
  return best(device, alts) ?? alts[0] ?? null;
}
