// USB printer transport: claim (detaching usblp), bulk OUT with the zero-length-packet rule, release; CUPS quirks.
import { DeviceError } from '../../errors';
import { portKey, UsbError, usbFailure, type UsbDeviceInfo, type UsbHandle, type UsbInterfaceInfo } from '../../usb/usb-backend';
import type { InterfaceClaims } from '../../usb/usb-claim';
import { readEndpoint } from '../../usb/usb-quirks';
import { interfaceFor } from '../../usb/interface-select';
import { pieces } from '../../transports/pieces';
import type { SendResult, Transport } from '../../transports/transport';

/** Where the printer is: the locator its discovery recorded. */
export interface UsbLocator {
  bus: number;
  ports: string;
  vendorId: number;
  productId: number;
  interface: number;
}

/**
 * Settings: the bus's claims (and through them the backend), locator, per-transfer time limit (ms), the largest bulk
 * transfer (bytes), and how long (ms) a transfer error waits for the bus to show whether the printer left it (1500).
 */
export interface UsbTransportOptions {
  claims: InterfaceClaims;
  locator: UsbLocator;
  writeTimeoutMs: number;
  chunkBytes?: number;
  unplugSettleMs?: number;
}

/** How often the bus is listed while a transfer error waits to see the printer leave (ms). */
const SETTLE_POLL_MS = 100;

/** A Transport over one USB printer interface; each call claims it (or joins this process's claim of it) and releases it. */
export class UsbTransport implements Transport {
  readonly describe: string;

  constructor(private readonly options: UsbTransportOptions) {
    const hex = (n: number) => n.toString(16).padStart(4, '0');
    this.describe = `usb ${hex(options.locator.vendorId)}:${hex(options.locator.productId)} at ${options.locator.bus}-${options.locator.ports}`;
  }

  /** Sends every byte in bulk OUT transfers, then a zero-length packet when the size is a multiple of the packet size. */
  async send(data: Uint8Array, signal?: AbortSignal, repeat = 1): Promise<SendResult> {
    let sent = 0;
    const total = data.length * repeat;
    const { device, iface } = await this.locate();
    return this.withInterface(device, iface, async (handle) => {
      const out = iface.endpoints.find((e) => e.direction === 'out' && e.transferType === 'bulk')!;
      for (const piece of pieces(data, repeat, this.options.chunkBytes ?? 16 * 1024)) {
        if (signal?.aborted) throw new DeviceError('CANCELED', 'Canceled', sent);
        await handle.bulkOut(iface.number, out.address, piece, this.options.writeTimeoutMs).catch((err: unknown) => this.failed(err, sent, total));
        sent += piece.length;
      }
      if (total > 0 && total % out.maxPacketSize === 0) {
        await handle.bulkOut(iface.number, out.address, new Uint8Array(0), this.options.writeTimeoutMs).catch((err: unknown) => this.failed(err, sent, total));
      }
      return { bytes: sent };
    }, () => sent, total);
  }

  /** Writes a status command and reads bulk IN until `complete`; null for silence or a printer that may not be read (no IN endpoint, unidirectional quirk). */
  async query(command: Uint8Array, complete: (reply: Buffer) => boolean, timeoutMs: number): Promise<Buffer | null> {
    const { device, iface } = await this.locate();
    const input = readEndpoint(device.vendorId, iface, device.productId);
    if (!input) return null;
    return this.withInterface(device, iface, async (handle) => {
      const out = iface.endpoints.find((e) => e.direction === 'out' && e.transferType === 'bulk')!;
      await handle.bulkOut(iface.number, out.address, command, timeoutMs);
      let reply = Buffer.alloc(0);
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline && !complete(reply)) {
        const piece = await handle.bulkIn(iface.number, input.address, input.maxPacketSize * 8, Math.max(1, deadline - Date.now())).catch((err: unknown) => {
          if (err instanceof UsbError && usbFailure(err.name) === 'timeout') return Buffer.alloc(0);
          throw err;
        });
        reply = Buffer.concat([reply, piece]);
        if (piece.length === 0) break;
      }
      return complete(reply) ? reply : null;
    }, () => 0, command.length);
  }

  /** Runs `work` with the printer interface claimed (usb-claim: usblp detached, released and re-attached per the quirks); errors become DeviceErrors. */
  private async withInterface<T>(device: UsbDeviceInfo, iface: UsbInterfaceInfo, work: (handle: UsbHandle) => Promise<T>, sent: () => number, total: number): Promise<T> {
    try {
      return await this.options.claims.use(device, iface, work);
    } catch (err) {
      throw this.error(err, sent(), total);
    }
  }

  private async locate(): Promise<{ device: UsbDeviceInfo; iface: UsbInterfaceInfo }> {
    const { bus, ports, vendorId, productId } = this.options.locator;
    const devices = await this.options.claims.backend.list().catch((err: unknown) => Promise.reject(this.error(err, 0, 0)));
    const device = devices.find((d) => portKey(d) === `${bus}-${ports || '0'}` && d.vendorId === vendorId && d.productId === productId);
    if (!device) throw new DeviceError('DEVICE_GONE', `${this.describe}: the printer is not connected (unplugged or powered off)`);
    const iface = interfaceFor(device, this.options.locator.interface);
    if (!iface) throw new DeviceError('DEVICE_GONE', `${this.describe}: interface ${this.options.locator.interface} is gone`);
    return { device, iface };
  }

  /**
   * Rejects with the DeviceError for a failed bulk transfer. A host controller fails the transfer in flight at an
   * unplug with a protocol error (LIBUSB_TRANSFER_ERROR) before the hub reports the disconnect; so a transfer error
   * waits up to unplugSettleMs for the printer to leave the bus, and is a disconnect when it does.
   */
  private async failed(err: unknown, sent: number, total: number): Promise<never> {
    if (err instanceof UsbError && usbFailure(err.name) === 'transfer-error' && (await this.leftTheBus())) {
      throw new DeviceError('DEVICE_GONE', `${this.describe}: the printer was disconnected${progressText(sent, total)}`, sent);
    }
    throw this.error(err, sent, total);
  }

  /** Whether the printer's interface is gone from the bus within unplugSettleMs (listed every SETTLE_POLL_MS). */
  private async leftTheBus(): Promise<boolean> {
    const deadline = Date.now() + (this.options.unplugSettleMs ?? 1500);
    for (;;) {
      const present = await this.locate().then(
        () => true,
        (err: unknown) => !(err instanceof DeviceError && err.code === 'DEVICE_GONE'),
      );
      if (!present) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  private error(err: unknown, sent: number, total: number): DeviceError {
    if (err instanceof DeviceError) return err;
    const progress = progressText(sent, total);
    const failure = err instanceof UsbError ? usbFailure(err.name) : 'other';
    switch (failure) {
      case 'access':
        return new DeviceError('ACCESS_DENIED', `${this.describe}: permission denied; the daemon's user needs access to USB printers (install /etc/udev/rules.d/99-printproxyd.rules and re-plug the printer)`, sent);
      case 'busy':
        return new DeviceError('DEVICE_BUSY', `${this.describe}: the printer is held by another process (a CUPS backend or another driver); stop it and retry`, sent);
      case 'no-device':
        return new DeviceError('DEVICE_GONE', `${this.describe}: the printer was disconnected${progress}`, sent);
      case 'timeout':
        return new DeviceError('WRITE_TIMEOUT', `${this.describe}: the printer accepted no data for ${this.options.writeTimeoutMs / 1000} s${progress}`, sent);
      case 'stall':
        return new DeviceError('IO', `${this.describe}: the printer stalled the transfer${progress}`, sent);
      case 'transfer-error':
      case 'other':
        return new DeviceError('IO', `${this.describe}: ${(err as Error)?.message ?? String(err)}${progress}`, sent);
    }
  }
}

function progressText(sent: number, total: number): string {
  return total > 0 ? ` after ${sent} of ${total} bytes` : '';
}
