// USB printer transport: bulk OUT with the zero-length-packet rule; a stall is cleared and retried once (as CUPS's
// usb-libusb.c does), a printer that stops reading is waited for while it stays on the bus, a cancel cancels the transfer.
import { DeviceError } from '../../errors';
import { portKey, UsbError, usbFailure, type UsbDeviceInfo, type UsbEndpointInfo, type UsbHandle, type UsbInterfaceInfo } from '../../usb/usb-backend';
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
 * transfer (bytes), how long (ms) a transfer error waits for the bus to show whether the printer left it (1500), and
 * how long (ms) a printer that takes no data is waited for while it stays attached (paused, out of paper; 1 hour).
 */
export interface UsbTransportOptions {
  claims: InterfaceClaims;
  locator: UsbLocator;
  writeTimeoutMs: number;
  chunkBytes?: number;
  unplugSettleMs?: number;
  holdLimitMs?: number;
  now?: () => number;
}

/** How often the bus is listed while a transfer error waits to see the printer leave (ms). */
const SETTLE_POLL_MS = 100;
/** Decisions.md: a job held by a printer that is not ready fails after an hour. */
const DEFAULT_HOLD_LIMIT_MS = 60 * 60_000;

/** Bytes accepted so far and the job's size, for progress in errors. */
interface Progress {
  sent: number;
  total: number;
}

/**
 * A Transport over one USB printer interface; every call goes through this process's one claim of it (usb-claim). It
 * does not order its calls: the printer runtime's device lock, its one caller, runs sends and queries one at a time.
 */
export class UsbTransport implements Transport {
  readonly describe: string;

  constructor(private readonly options: UsbTransportOptions) {
    const hex = (n: number) => n.toString(16).padStart(4, '0');
    this.describe = `usb ${hex(options.locator.vendorId)}:${hex(options.locator.productId)} at ${options.locator.bus}-${options.locator.ports}`;
  }

  /** Sends every byte in bulk OUT transfers, then a zero-length packet when the size is a multiple of the packet size. */
  async send(data: Uint8Array, signal?: AbortSignal, repeat = 1): Promise<SendResult> {
    const progress: Progress = { sent: 0, total: data.length * repeat };
    const { device, iface } = await this.locate();
    return this.withInterface(device, iface, async (handle) => {
      const out = outEndpoint(iface);
      for (const piece of pieces(data, repeat, this.options.chunkBytes ?? 16 * 1024)) await this.write(handle, iface, out, piece, progress, signal);
      if (progress.total > 0 && progress.total % out.maxPacketSize === 0) await this.write(handle, iface, out, new Uint8Array(0), progress, signal);
      return { bytes: progress.sent };
    }, progress);
  }

  /**
   * Writes a status command and reads bulk IN until `complete`; null for silence (within `timeoutMs`) or a printer that
   * may not be read (no IN endpoint, unidirectional quirk).
   */
  async query(command: Uint8Array, complete: (reply: Buffer) => boolean, timeoutMs: number): Promise<Buffer | null> {
    const { device, iface } = await this.locate();
    const input = readEndpoint(device.vendorId, iface, device.productId);
    if (!input) return null;
    return this.withInterface(device, iface, (handle) => this.ask(handle, iface, input, command, complete, timeoutMs), { sent: 0, total: command.length });
  }

  private async ask(handle: UsbHandle, iface: UsbInterfaceInfo, input: UsbEndpointInfo, command: Uint8Array, complete: (reply: Buffer) => boolean, timeoutMs: number): Promise<Buffer | null> {
    const deadline = Date.now() + timeoutMs;
    // a printer that takes no data now (paused with a full buffer) cannot be asked either: that is silence
    const written = await handle.bulkOut(iface.number, outEndpoint(iface).address, command, timeoutMs).then(
      () => true,
      (err: unknown) => (isTimeout(err) ? false : Promise.reject(err)),
    );
    if (!written) return null;
    let reply = Buffer.alloc(0);
    while (Date.now() < deadline && !complete(reply)) {
      const piece = await handle.bulkIn(iface.number, input.address, input.maxPacketSize * 8, Math.max(1, deadline - Date.now())).catch((err: unknown) => (isTimeout(err) ? Buffer.alloc(0) : Promise.reject(err)));
      reply = Buffer.concat([reply, piece]);
      if (piece.length === 0) break;
    }
    return complete(reply) ? reply : null;
  }

  /**
   * Writes one piece whole. A timeout counts what the device took (actual_length) and writes the rest, for as long as
   * the printer stays attached, up to holdLimitMs; a stall is cleared (clear-halt) and the rest retried once per piece.
   */
  private async write(handle: UsbHandle, iface: UsbInterfaceInfo, out: UsbEndpointInfo, piece: Uint8Array, progress: Progress, signal?: AbortSignal): Promise<void> {
    const now = this.options.now ?? Date.now;
    const started = now();
    let offset = 0;
    let stalled = false;
    for (;;) {
      if (signal?.aborted) throw this.canceled(progress);
      try {
        await handle.bulkOut(iface.number, out.address, piece.subarray(offset), this.options.writeTimeoutMs, signal);
        progress.sent += piece.length - offset;
        return;
      } catch (err) {
        if (!(err instanceof UsbError)) throw err;
        offset += err.actualLength;
        progress.sent += err.actualLength;
        if (signal?.aborted) throw this.canceled(progress);
        if (piece.length > 0 && offset >= piece.length && usbFailure(err.name) === 'timeout') return;
        const failure = usbFailure(err.name);
        if (failure === 'stall' && !stalled) {
          stalled = true;
          await handle.clearHalt(iface.number, out.address).catch((cleared: unknown) => this.failed(cleared, progress));
          continue;
        }
        if (failure === 'stall') throw new DeviceError('IO', `${this.describe}: the printer stalled the transfer again after its endpoint was cleared${progressText(progress)}`, progress.sent);
        if (failure !== 'timeout') return this.failed(err, progress);
        if (!(await this.present())) throw this.disconnected(progress);
        if (now() - started >= (this.options.holdLimitMs ?? DEFAULT_HOLD_LIMIT_MS)) throw this.error(err, progress);
      }
    }
  }

  /** Runs `work` with the printer interface claimed (usb-claim: usblp detached once, the claim kept); errors become DeviceErrors. */
  private async withInterface<T>(device: UsbDeviceInfo, iface: UsbInterfaceInfo, work: (handle: UsbHandle) => Promise<T>, progress: Progress): Promise<T> {
    try {
      return await this.options.claims.use(device, iface, work);
    } catch (err) {
      throw this.error(err, progress);
    }
  }

  private async locate(): Promise<{ device: UsbDeviceInfo; iface: UsbInterfaceInfo }> {
    const { bus, ports, vendorId, productId } = this.options.locator;
    const devices = await this.options.claims.backend.list().catch((err: unknown) => Promise.reject(this.error(err, { sent: 0, total: 0 })));
    const device = devices.find((d) => portKey(d) === `${bus}-${ports || '0'}` && d.vendorId === vendorId && d.productId === productId);
    if (!device) throw new DeviceError('NO_DEVICE', `${this.describe}: the printer is not connected (unplugged or powered off)`);
    const iface = interfaceFor(device, this.options.locator.interface);
    if (!iface) throw new DeviceError('NO_DEVICE', `${this.describe}: interface ${this.options.locator.interface} is gone`);
    return { device, iface };
  }

  /**
   * Rejects with the DeviceError for a failed bulk transfer. A host controller fails the transfer in flight at an
   * unplug with a protocol error (LIBUSB_TRANSFER_ERROR) before the hub reports the disconnect; so a transfer error
   * waits up to unplugSettleMs for the printer to leave the bus, and is a disconnect when it does.
   */
  private async failed(err: unknown, progress: Progress): Promise<never> {
    if (err instanceof UsbError && usbFailure(err.name) === 'transfer-error' && (await this.leftTheBus())) throw this.disconnected(progress);
    throw this.error(err, progress);
  }

  /** Whether the printer's interface is gone from the bus within unplugSettleMs (listed every SETTLE_POLL_MS). */
  private async leftTheBus(): Promise<boolean> {
    const deadline = Date.now() + (this.options.unplugSettleMs ?? 1500);
    for (;;) {
      if (!(await this.present())) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  /** Whether the printer's interface is on the bus now (a failed listing counts as present: it proves nothing). */
  private present(): Promise<boolean> {
    return this.locate().then(
      () => true,
      (err: unknown) => !(err instanceof DeviceError && err.code === 'NO_DEVICE'),
    );
  }

  private disconnected(progress: Progress): DeviceError {
    return new DeviceError('NO_DEVICE', `${this.describe}: the printer was disconnected${progressText(progress)}`, progress.sent);
  }

  private canceled(progress: Progress): DeviceError {
    return new DeviceError('CANCELED', 'Canceled', progress.sent);
  }

  private error(err: unknown, progress: Progress): DeviceError {
    if (err instanceof DeviceError) return err;
    const { sent } = progress;
    const text = progressText(progress);
    const failure = err instanceof UsbError ? usbFailure(err.name) : 'other';
    switch (failure) {
      case 'access':
        return new DeviceError('ACCESS_DENIED', `${this.describe}: permission denied; the daemon's user needs access to USB printers (install /etc/udev/rules.d/99-printproxyd.rules and re-plug the printer)`, sent);
      case 'busy':
        return new DeviceError('DEVICE_BUSY', `${this.describe}: the printer is held by another process (a CUPS backend or another driver); stop it and retry`, sent);
      case 'no-device':
        return this.disconnected(progress);
      case 'timeout':
        return new DeviceError('WRITE_TIMEOUT', `${this.describe}: the printer accepted no data for ${(this.options.holdLimitMs ?? DEFAULT_HOLD_LIMIT_MS) / 1000} s${text}`, sent);
      case 'stall':
        return new DeviceError('IO', `${this.describe}: the printer stalled the transfer${text}`, sent);
      case 'transfer-error':
      case 'other':
        return new DeviceError('IO', `${this.describe}: ${(err as Error)?.message ?? String(err)}${text}`, sent);
    }
  }
}

function outEndpoint(iface: UsbInterfaceInfo): UsbEndpointInfo {
  return iface.endpoints.find((e) => e.direction === 'out' && e.transferType === 'bulk')!;
}

function isTimeout(err: unknown): boolean {
  return err instanceof UsbError && usbFailure(err.name) === 'timeout';
}

function progressText({ sent, total }: Progress): string {
  return total > 0 ? ` after ${sent} of ${total} bytes` : '';
}
