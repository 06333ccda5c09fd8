// Which USB devices are printers, what they are, and the stable path each one gets.
import type { DiscoveredPrinter } from '../schemas/printer';
import { contentOf, deviceIdText, modelOf, parseDeviceId, type DeviceId } from './ieee1284';
import { getDeviceId } from './printer-class';
import { portKey, type UsbDeviceInfo, type UsbInterfaceInfo } from './usb-backend';
import type { InterfaceClaims } from './usb-claim';

/** Path `usb_sn_<serial>`; without a usable serial, a synthetic id from vendor, product and the physical port. */
export function usbPath(device: UsbDeviceInfo, serialIsUnique: boolean): string {
  const serial = device.serialNumber.trim().replace(/[^A-Za-z0-9-]+/g, '-').replace(/^-+|-+$/g, '');
  if (serial && serialIsUnique) return `usb_sn_${serial}`;
  const hex = (n: number) => n.toString(16).padStart(4, '0');
  return `usb_sn_${hex(device.vendorId)}-${hex(device.productId)}-port-${portKey(device).replace(/\./g, '-')}`;
}

/**
 * Reads the 1284 ID (an unreadable or garbled one reads as empty) and describes the printer; null for one whose command
 * set names only page-printer languages (PCL, PostScript, raster: ieee1284.ts contentOf), which is not offered.
 */
export async function identify(claims: InterfaceClaims, device: UsbDeviceInfo, iface: UsbInterfaceInfo, path: string, timeoutMs: number): Promise<DiscoveredPrinter | null> {
  const id = await readDeviceId(claims, device, iface, timeoutMs);
  // a vendor-class interface without a command set is recognised by its USB ids, else taken as the fallback language
  const content = contentOf(id, device);
  if (content === null) return null;
  const fallbackModel = [device.manufacturer, device.product].filter(Boolean).join(' ') || 'USB printer';
  return {
    path,
    connection: { type: 'usb', ...(device.serialNumber ? { serialNumber: device.serialNumber } : {}) },
    model: modelOf(id, fallbackModel),
    content,
    locator: {
      bus: device.busNumber,
      ports: device.portNumbers.join('.'),
      vendorId: device.vendorId,
      productId: device.productId,
      serial: device.serialNumber,
      interface: iface.number,
    },
  };
}

async function readDeviceId(claims: InterfaceClaims, device: UsbDeviceInfo, iface: UsbInterfaceInfo, timeoutMs: number): Promise<DeviceId> {
  const text = await readDeviceIdText(claims, device, iface, timeoutMs);
  return text === null ? {} : parseDeviceId(text);
}

/** The 1284 device ID text of the printer interface, asked with the interface claimed; null when unreadable. */
export async function readDeviceIdText(claims: InterfaceClaims, device: UsbDeviceInfo, iface: UsbInterfaceInfo, timeoutMs: number): Promise<string | null> {
  try {
    const reply = await claims.use(device, iface, (handle) => getDeviceId(handle, Math.max(0, device.configurationValue - 1), iface.number, iface.alternate, timeoutMs));
    return deviceIdText(reply);
  } catch {
    return null;
  }
}

/** Serials that more than one attached printer reports (cheap clones share one); those printers get port-based paths. */
export function duplicateSerials(devices: UsbDeviceInfo[]): Set<string> {
  const seen = new Map<string, number>();
  for (const d of devices) if (d.serialNumber) seen.set(d.serialNumber, (seen.get(d.serialNumber) ?? 0) + 1);
  return new Set([...seen].filter(([, n]) => n > 1).map(([s]) => s));
}
