// Holding a printer interface: open, detach usblp, claim, and keep it (as PAPPL owns a device it uses) until the
// printer leaves the bus or the daemon stops; only then release it (re-attaching usblp unless the quirks say not) and close.
// A job, a status probe and discovery share the one claim: usbfs lets only one handle hold an interface, so a second
// claim would fail with LIBUSB_ERROR_BUSY. Keeping it means usblp is detached once, not at every probe: a detach and
// re-attach is a synchronous ioctl during which usblp re-probes, and it blocked the event loop each time.
import { DeviceError } from '../errors';
import { portKey, UsbError, usbFailure, type UsbBackend, type UsbDeviceInfo, type UsbHandle, type UsbInterfaceInfo } from './usb-backend';
import { reattachesKernelDriver } from './usb-quirks';

interface Claim {
  /** The handle holding the interface and whether a kernel driver was detached for it; rejects when open or claim failed. */
  ready: Promise<{ handle: UsbHandle; detached: boolean }>;
  device: UsbDeviceInfo;
  iface: UsbInterfaceInfo;
}

/** The interfaces this process holds on one bus (one instance per bus, shared by discovery, jobs and status probes). */
export class InterfaceClaims {
  private readonly held = new Map<string, Claim>();
  /** Releases in progress, so that a new claim of the same interface waits for them. */
  private readonly releasing = new Map<string, Promise<void>>();
  private unwatch: (() => void) | null = null;

  constructor(readonly backend: UsbBackend) {}

  /**
   * Runs `work` with `iface` claimed, claiming it on first use and keeping it afterwards; rejects with UsbError when
   * open or claim fails. A failure that says the device is gone gives the claim up at once (no handle is left open).
   */
  async use<T>(device: UsbDeviceInfo, iface: UsbInterfaceInfo, work: (handle: UsbHandle) => Promise<T>): Promise<T> {
    const key = keyOf(device, iface);
    const claim = this.held.get(key) ?? this.open(key, device, iface);
    try {
      const { handle } = await claim.ready;
      return await work(handle);
    } catch (err) {
      if (gone(err)) await this.drop(key);
      throw err;
    }
  }

  /** How many interfaces are held now (each one open handle). */
  get size(): number {
    return this.held.size;
  }

  /** Releases every held interface (re-attaching usblp per the quirks) and stops watching the bus; for the daemon's stop. */
  async closeAll(): Promise<void> {
    this.unwatch?.();
    this.unwatch = null;
    await Promise.all([...this.held.keys()].map((key) => this.drop(key)));
  }

  private open(key: string, device: UsbDeviceInfo, iface: UsbInterfaceInfo): Claim {
    this.watchDetach();
    // a printer re-plugged into the same socket has a new address: whatever was held for its old one is stale
    for (const [other, claim] of this.held) {
      if (portKey(claim.device) === portKey(device) && claim.device.deviceAddress !== device.deviceAddress) void this.drop(other);
    }
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
    const claim: Claim = { ready, device, iface };
    // a claim that could not be made is not kept: the next use tries again
    ready.catch(() => {
      if (this.held.get(key) === claim) this.held.delete(key);
    });
    this.held.set(key, claim);
    return claim;
  }

  /** Closes what is held for a device that left the bus, as soon as the bus says so. */
  private watchDetach(): void {
    if (this.unwatch) return;
    this.unwatch = this.backend.watch(
      () => undefined,
      (device) => {
        for (const [key, claim] of this.held) {
          if (claim.device.busNumber === device.busNumber && claim.device.deviceAddress === device.deviceAddress) void this.drop(key);
        }
      },
    );
  }

  private async drop(key: string): Promise<void> {
    const claim = this.held.get(key);
    if (!claim) return this.releasing.get(key);
    this.held.delete(key);
    const done: Promise<void> = claim.ready
      .then(
        async ({ handle, detached }) => {
          await handle.release(claim.iface.number, reattachesKernelDriver(claim.device.vendorId, detached, claim.device.productId)).catch(() => undefined);
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

function keyOf(device: UsbDeviceInfo, iface: UsbInterfaceInfo): string {
  return `${portKey(device)}@${device.deviceAddress}#${iface.number}`;
}

/** Whether an error means the device left the bus. */
function gone(err: unknown): boolean {
  if (err instanceof DeviceError) return err.code === 'NO_DEVICE';
  return err instanceof UsbError && usbFailure(err.name) === 'no-device';
}
