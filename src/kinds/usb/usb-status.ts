// Live status of a USB printer from GET_PORT_STATUS.
import type { LiveStatus } from '../../schemas/printer';
import type { UsbLocator } from './usb-transport';
import { getPortStatus, portStatusToLive } from '../../usb/printer-class';
import { portKey } from '../../usb/usb-backend';
import { interfaceFor } from '../../usb/interface-select';
import type { InterfaceClaims } from '../../usb/usb-claim';

/** Port status of the printer at `locator`, asked with its interface claimed (through a running job's claim): offline when not attached, unknown when it does not answer. */
export async function usbPortStatus(claims: InterfaceClaims, locator: UsbLocator, timeoutMs: number): Promise<LiveStatus> {
  const devices = await claims.backend.list();
  const device = devices.find((d) => portKey(d) === `${locator.bus}-${locator.ports || '0'}` && d.vendorId === locator.vendorId && d.productId === locator.productId);
  if (!device) return { status: 'offline', statusReasons: [] };
  const iface = interfaceFor(device, locator.interface);
  if (!iface) return { status: 'offline', statusReasons: [] };
  try {
    return portStatusToLive(await claims.use(device, iface, (handle) => getPortStatus(handle, iface.number, timeoutMs)));
  } catch {
    return { status: 'unknown', statusReasons: [] };
  }
}

/** The locator a USB discovery recorded on a printer record, or null when it lacks one. */
export function usbLocatorOf(locator: Record<string, string | number> | undefined): UsbLocator | null {
  if (!locator || locator.bus === undefined) return null;
  return { bus: Number(locator.bus), ports: String(locator.ports ?? ''), vendorId: Number(locator.vendorId), productId: Number(locator.productId), interface: Number(locator.interface) };
}
