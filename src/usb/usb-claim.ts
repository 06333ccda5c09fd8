// Holding a printer interface: open, detach usblp, claim; then release (re-attaching usblp unless the quirks say not) and close.
// A job, a status probe and discovery that need the same interface at once share one claim: usbfs lets only one
// handle hold an interface, so a second claim would fail with LIBUSB_ERROR_BUSY, and releasing it would end the first.
import { portKey, type UsbBackend, type UsbDeviceInfo, type UsbHandle, type UsbInterfaceInfo } from './usb-backend';
import { reattachesKernelDriver } from './usb-quirks';

interface Claim {
  /** The handle holding the interface and whether a kernel driver was detached for it; rejects when open or claim failed. */
  ready: Promise<{ handle: UsbHandle; detached: boolean }>;
  users: number;
}

/** The interfaces this process holds on one bus (one instance per bus, shared by discovery, jobs and status probes). */
export class InterfaceClaims {
  private readonly held = new Map<string, Claim>();
  /** Releases in progress, so that a new claim of the same interface waits for them. */
  private readonly releasing = new Map<string, Promise<void>>();

  constructor(readonly backend: UsbBackend) {}

  /** Runs `work` with `iface` claimed, joining a claim already held (by a job or a probe); rejects with UsbError when open or claim fails. */
  async use<T>(device: UsbDeviceInfo, iface: UsbInterfaceInfo, work: (handle: UsbHandle) => Promise<T>): Promise<T> {
    const key = `${portKey(device)}@${device.deviceAddress}#${iface.number}`;
    const claim = this.held.get(key) ?? this.open(key, device, iface);
    claim.users += 1;
    try {
      const { handle } = await claim.ready;
      return await work(handle);
    } finally {
      claim.users -= 1;
      if (claim.users === 0) await this.close(key, claim, device, iface);
    }
  }

  private open(key: string, device: UsbDeviceInfo, iface: UsbInterfaceInfo): Claim {
    const ready = (async () => {
      await this.releasing.get(key);
      const handle = await this.backend.open(device);
      try {
        return { handle, detached: await handle.claim(iface.number, iface.alternate) };
      } catch (err) {
        handle.close();
        throw err;
      }
    })();
    const claim: Claim = { ready, users: 0 };
    this.held.set(key, claim);
    return claim;
  }

  private async close(key: string, claim: Claim, device: UsbDeviceInfo, iface: UsbInterfaceInfo): Promise<void> {
    this.held.delete(key);
    const done: Promise<void> = claim.ready
      .then(
        async ({ handle, detached }) => {
          await handle.release(iface.number, reattachesKernelDriver(device.vendorId, detached, device.productId)).catch(() => undefined);
          handle.close();
        },
        () => undefined,
      )
      .finally(() => {
        if (this.releasing.get(key) === done) this.releasing.delete(key);
      });
    this.releasing.set(key, done);
    await done;
  }
}
