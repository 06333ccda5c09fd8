// USB printer transport: claim (detaching usblp), bulk OUT with the zero-length-packet rule, release; CUPS quirks.
import { DeviceError } from '../../errors';
import { portKey, UsbError, type UsbDeviceInfo, type UsbHandle, type UsbInterfaceInfo } from '../../usb/usb-backend';
import type { InterfaceClaims } from '../../usb/usb-claim';
import { readEndpoint } from '../../usb/usb-quirks';
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

/** Settings: the bus's claims (and through them the backend), locator, per-transfer time limit (ms) and the largest bulk transfer (bytes). */
export interface UsbTransportOptions {
  claims: InterfaceClaims;
  locator: UsbLocator;
  writeTimeoutMs: number;
  chunkBytes?: number;
}

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
        await handle.bulkOut(iface.number, out.address, piece, this.options.writeTimeoutMs).catch((err: unknown) => Promise.reject(this.error(err, sent, total)));
        sent += piece.length;
      }
      if (total > 0 && total % out.maxPacketSize === 0) {
        await handle.bulkOut(iface.number, out.address, new Uint8Array(0), this.options.writeTimeoutMs).catch((err: unknown) => Promise.reject(this.error(err, sent, total)));
      }
      return { bytes: sent };
    }, () => sent, total);
  }

  /** Writes a status command and reads bulk IN until `complete`; null for silence or a printer that may not be read (no IN endpoint, unidirectional quirk). */
  async query(command: Uint8Array, complete: (reply: Buffer) => boolean, timeoutMs: number): Promise<Buffer | null> {
    const { device, iface } = await this.locate();
    const input = readEndpoint(device.vendorId, iface);
    if (!input) return null;
    return this.withInterface(device, iface, async (handle) => {
      const out = iface.endpoints.find((e) => e.direction === 'out' && e.transferType === 'bulk')!;
      await handle.bulkOut(iface.number, out.address, command, timeoutMs);
      let reply = Buffer.alloc(0);
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline && !complete(reply)) {
        const piece = await handle.bulkIn(iface.number, input.address, input.maxPacketSize * 8, Math.max(1, deadline - Date.now())).catch((err: unknown) => {
          if (err instanceof UsbError && err.name === 'LIBUSB_ERROR_TIMEOUT') return Buffer.alloc(0);
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
    const iface = device.interfaces.find((i) => i.number === this.options.locator.interface);
    if (!iface) throw new DeviceError('DEVICE_GONE', `${this.describe}: interface ${this.options.locator.interface} is gone`);
    return { device, iface };
  }

  private error(err: unknown, sent: number, total: number): DeviceError {
    if (err instanceof DeviceError) return err;
    const progress = total > 0 ? ` after ${sent} of ${total} bytes` : '';
    const name = err instanceof UsbError ? err.name : 'LIBUSB_ERROR_OTHER';
    switch (name) {
      case 'LIBUSB_ERROR_ACCESS':
        return new DeviceError('ACCESS_DENIED', `${this.describe}: permission denied; the daemon's user needs access to USB printers (install /etc/udev/rules.d/99-printproxyd.rules and re-plug the printer)`, sent);
      case 'LIBUSB_ERROR_BUSY':
        return new DeviceError('DEVICE_BUSY', `${this.describe}: the printer is held by another process (a CUPS backend or another driver); stop it and retry`, sent);
      case 'LIBUSB_ERROR_NO_DEVICE':
        return new DeviceError('DEVICE_GONE', `${this.describe}: the printer was disconnected${progress}`, sent);
      case 'LIBUSB_ERROR_TIMEOUT':
        return new DeviceError('WRITE_TIMEOUT', `${this.describe}: the printer accepted no data for ${this.options.writeTimeoutMs / 1000} s${progress}`, sent);
      case 'LIBUSB_ERROR_PIPE':
        return new DeviceError('IO', `${this.describe}: the printer stalled the transfer${progress}`, sent);
      default:
        return new DeviceError('IO', `${this.describe}: ${(err as Error)?.message ?? String(err)}${progress}`, sent);
    }
  }
}
