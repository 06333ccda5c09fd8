// Live status of a USB printer from GET_PORT_STATUS.
import type { LiveStatus } from '../printers/status-cache';
import type { UsbLocator } from '../transports/usb-transport';
import { getPortStatus, portStatusToLive } from './printer-class';
import { portKey, type UsbBackend } from './usb-backend';

/** Port status of the printer at `locator`: offline when it is not attached, unknown when it does not answer. */
export async function usbPortStatus(backend: UsbBackend, locator: UsbLocator, timeoutMs: number): Promise<LiveStatus> {
  const devices = await backend.list();
  const device = devices.find((d) => portKey(d) === `${locator.bus}-${locator.ports || '0'}` && d.vendorId === locator.vendorId && d.productId === locator.productId);
  if (!device) return { status: 'offline', statusReasons: [] };
  const handle = await backend.open(device).catch(() => null);
  if (!handle) return { status: 'unknown', statusReasons: [] };
  try {
    return portStatusToLive(await getPortStatus(handle, locator.interface, timeoutMs));
  } catch {
    return { status: 'unknown', statusReasons: [] };
  } finally {
    handle.close();
  }
}

/** The locator a USB discovery recorded on a printer record, or null when it lacks one. */
export function usbLocatorOf(locator: Record<string, string | number> | undefined): UsbLocator | null {
  if (!locator || locator.bus === undefined) return null;
  return { bus: Number(locator.bus), ports: String(locator.ports ?? ''), vendorId: Number(locator.vendorId), productId: Number(locator.productId), interface: Number(locator.interface) };
}
