// USB printers as a discovery source: full scans and hotplug events, with paths that survive re-plugs.
import type { Logger } from '../../log';
import type { DiscoveredPrinter } from '../../schemas/printer';
import { printerInterface } from '../../usb/interface-select';
import { duplicateSerials, identify, usbPath } from '../../usb/usb-identify';
import { portKey, type UsbDeviceInfo } from '../../usb/usb-backend';
import type { InterfaceClaims } from '../../usb/usb-claim';
import type { DiscoveryEvent, DiscoverySource } from '../../discovery/source';

/** Settings: the bus's claims (their backend is libusb or a fake), the control-transfer time limit in ms, a logger. */
export interface UsbDiscoveryOptions {
  claims: InterfaceClaims;
  timeoutMs: number;
  logger: Logger;
}

/** Finds printer-class devices (and the vendor-class ones CUPS's quirks name); reports attach and detach at once. */
export class UsbDiscovery implements DiscoverySource {
  readonly name = 'usb';
  readonly awaitedAtStart = true;
  /** Path and serial of each attached printer by bus address: a detach (which has no descriptors) is named from it, and a printer keeps its path while attached. */
  private readonly attached = new Map<string, { path: string; serial: string }>();
  /** The socket that last held each path, so a re-plugged printer gets its serial path back even while a twin is attached. */
  private readonly lastPort = new Map<string, string>();
  private unwatch: (() => void) | null = null;

  constructor(private readonly options: UsbDiscoveryOptions) {}

  /** Every printer attached now. */
  async scan(): Promise<DiscoveredPrinter[]> {
    const printers = (await this.options.claims.backend.list()).filter((d) => printerInterface(d));
    const present = new Set(printers.map(addressKey));
    for (const key of this.attached.keys()) if (!present.has(key)) this.attached.delete(key);
    const twins = duplicateSerials(printers);
    const found: DiscoveredPrinter[] = [];
    for (const device of printers) {
      const printer = await this.describe(device, twins);
      if (printer) found.push(printer);
    }
    return found;
  }

  /** Starts hotplug watching; events arrive as soon as libusb reports them. */
  async start(onEvent: (event: DiscoveryEvent) => void): Promise<void> {
    this.unwatch = this.options.claims.backend.watch(
      (device) => {
        const twins = new Set([...this.attached.values()].map((a) => a.serial).filter(Boolean));
        void this.describe(device, twins).then((printer) => {
          if (printer) onEvent({ kind: 'attached', printer });
        });
      },
      (device) => {
        const key = addressKey(device);
        const known = this.attached.get(key);
        if (!known) return;
        this.attached.delete(key);
        onEvent({ kind: 'detached', path: known.path });
      },
    );
  }

  /** Stops hotplug watching. */
  async stop(): Promise<void> {
    this.unwatch?.();
    this.unwatch = null;
  }

  private async describe(device: UsbDeviceInfo, twins: Set<string>): Promise<DiscoveredPrinter | null> {
    const iface = printerInterface(device);
    if (!iface) return null;
    const printer = await identify(this.options.claims, device, iface, this.pathOf(device, twins), this.options.timeoutMs);
    // a page printer (PCL, PostScript) is not offered: it holds no path
    if (!printer) this.attached.delete(addressKey(device));
    return printer;
  }

  /**
   * The path a printer keeps while attached. A new one gets `usb_sn_<serial>` unless another attached printer holds
   * that path, or reports the same serial (`twins`) and this socket was not the path's last holder; else the port-based path.
   */
  private pathOf(device: UsbDeviceInfo, twins: Set<string>): string {
    const key = addressKey(device);
    const known = this.attached.get(key);
    if (known) return known.path;
    const serialPath = usbPath(device, true);
    const taken = [...this.attached.values()].some((a) => a.path === serialPath);
    const returning = this.lastPort.get(serialPath) === portKey(device);
    const path = !taken && (returning || !twins.has(device.serialNumber)) ? serialPath : usbPath(device, false);
    this.attached.set(key, { path, serial: device.serialNumber });
    this.lastPort.set(path, portKey(device));
    return path;
  }
}

function addressKey(device: Pick<UsbDeviceInfo, 'busNumber' | 'deviceAddress' | 'portNumbers'>): string {
  return `${portKey(device)}@${device.deviceAddress}`;
}
