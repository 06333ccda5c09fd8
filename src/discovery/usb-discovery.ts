// USB printers as a discovery source: full scans and hotplug events, with paths that survive re-plugs.
import type { Logger } from '../log';
import type { DiscoveredPrinter } from '../schemas/printer';
import { duplicateSerials, identify, printerInterface, usbPath } from '../usb/usb-identify';
import { portKey, type UsbBackend, type UsbDeviceInfo } from '../usb/usb-backend';
import type { DiscoveryEvent, DiscoverySource } from './source';

/** Settings: the backend (libusb or a fake), the control-transfer time limit in ms, a logger. */
export interface UsbDiscoveryOptions {
  backend: UsbBackend;
  timeoutMs: number;
  logger: Logger;
}

/** Finds printer-class (and fingerprinted receipt) devices; reports attach and detach at once. */
export class UsbDiscovery implements DiscoverySource {
  readonly name = 'usb';
  /** Path of each attached printer by bus address, so a detach (which has no descriptors) can be named. */
  private readonly byAddress = new Map<string, string>();
  private unwatch: (() => void) | null = null;

  constructor(private readonly options: UsbDiscoveryOptions) {}

  /** Every printer attached now. */
  async scan(): Promise<DiscoveredPrinter[]> {
    const devices = await this.options.backend.list();
    const dupes = duplicateSerials(devices.filter((d) => printerInterface(d)));
    const found: DiscoveredPrinter[] = [];
    for (const device of devices) {
      const printer = await this.describe(device, dupes);
      if (printer) found.push(printer);
    }
    return found;
  }

  /** Starts hotplug watching; events arrive as soon as libusb reports them. */
  async start(onEvent: (event: DiscoveryEvent) => void): Promise<void> {
    this.unwatch = this.options.backend.watch(
      (device) => {
        void this.describe(device, new Set()).then((printer) => {
          if (printer) onEvent({ kind: 'attached', printer });
        });
      },
      (device) => {
        const key = addressKey(device);
        const path = this.byAddress.get(key);
        if (!path) return;
        this.byAddress.delete(key);
        onEvent({ kind: 'detached', path });
      },
    );
  }

  /** Stops hotplug watching. */
  async stop(): Promise<void> {
    this.unwatch?.();
    this.unwatch = null;
  }

  private async describe(device: UsbDeviceInfo, dupes: Set<string>): Promise<DiscoveredPrinter | null> {
    const iface = printerInterface(device);
    if (!iface) return null;
    const path = usbPath(device, !dupes.has(device.serialNumber));
    this.byAddress.set(addressKey(device), path);
    return identify(this.options.backend, device, iface, path, this.options.timeoutMs);
  }
}

function addressKey(device: Pick<UsbDeviceInfo, 'busNumber' | 'deviceAddress' | 'portNumbers'>): string {
  return `${portKey(device)}@${device.deviceAddress}`;
}
