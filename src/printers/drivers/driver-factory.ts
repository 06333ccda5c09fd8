// Picks the driver for a printer from its connection and content (PAPPL-style scheme → driver).
import { DeviceError } from '../../errors';
import type { Logger } from '../../log';
import type { PrinterRecord } from '../registry';
import type { PreflightOutcome, PrinterDriver } from '../../kinds/printer-driver';
import { StreamDriver } from '../../kinds/stream-driver';
import { IppDriver } from '../../kinds/ipp/ipp-driver';
import { UsbTransport } from '../../kinds/usb/usb-transport';
import type { InterfaceClaims } from '../../usb/usb-claim';
import { usbLocatorOf, usbPortStatus } from '../../kinds/usb/usb-status';
import { DEFAULT_IPP_RESOURCE } from '../../kinds/printer-path';
import type { Connection } from '../../schemas/printer';
import { rawTcpStatus, tcpTransport, zplTcpPreflight, zplTcpStatus } from '../../kinds/zpl-tcp/zpl-tcp';

/** Time limits of byte-stream transports, in ms. */
export interface TransportTimeouts {
  connectMs: number;
  /** No write progress for this long fails a job (a stalled printer). */
  idleMs: number;
  /** How long a status query (`~HS`, `~HQES`) waits for an answer. */
  queryMs: number;
}

/** Collaborators of the factory. */
export interface DriverFactoryDeps {
  timeouts: TransportTimeouts;
  logger: Logger;
  /** The USB bus's interface claims, or null when libusb could not be loaded. */
  usb: InterfaceClaims | null;
}

/** Returns a function that builds the driver of a printer. */
export function createDriverFactory(deps: DriverFactoryDeps): (printer: PrinterRecord) => PrinterDriver {
  return (printer) => {
    const { connection } = printer;
    if (connection.type === 'network' && connection.protocol === 'tcp') {
      const transport = tcpTransport(connection.host ?? '', connection.port ?? 9100, deps.timeouts);
      const zpl = printer.content === 'zpl';
      return new StreamDriver({
        transport,
        preflight: zpl ? () => zplTcpPreflight(transport, deps.timeouts) : undefined,
        status: zpl ? () => zplTcpStatus(transport, deps.timeouts) : () => rawTcpStatus(connection.host ?? '', connection.port ?? 9100, deps.timeouts),
      });
    }
    const locator = usbLocatorOf(printer.locator);
    if (connection.type === 'usb' && deps.usb && locator) {
      const usb = deps.usb;
      // no pre-flight for USB printers (seed 4.5.1 rule 3); a receipt printer's paper-out never fails a job
      return new StreamDriver({
        transport: new UsbTransport({ claims: usb, locator, writeTimeoutMs: deps.timeouts.idleMs }),
        status: () => usbPortStatus(usb, locator, Math.min(deps.timeouts.queryMs, 900)),
      });
    }
    if (connection.type === 'network') {
      return new IppDriver({ uri: ippUri(connection), timeoutMs: 10_000, busyRetryMs: 500, busyWaitMs: 120_000, logger: deps.logger });
    }
    return new UnsupportedDriver(printer);
  };
}

/** A printer kind this build cannot reach yet: every job fails with a clear error. */
class UnsupportedDriver implements PrinterDriver {
  constructor(private readonly printer: PrinterRecord) {}

  preflight(): Promise<PreflightOutcome> {
    return Promise.resolve({ kind: 'ready' });
  }

  deliver(): Promise<never> {
    return Promise.reject(new DeviceError('UNSUPPORTED_CONTENT', `printing to ${this.printer.path} (${this.printer.connection.protocol ?? this.printer.connection.type}) is not supported by this build`));
  }

  status() {
    return Promise.resolve({ status: 'unknown' as const, statusReasons: [] });
  }
}

/** The printer URI of a network IPP connection (`ipp://host:port/resource`). */
export function ippUri(connection: Connection): string {
  const scheme = connection.protocol === 'ipps' || connection.protocol === 'https' ? 'ipps' : 'ipp';
  const host = connection.host?.includes(':') ? `[${connection.host}]` : connection.host;
  return `${scheme}://${host}:${connection.port ?? 631}${connection.resourcePath ?? DEFAULT_IPP_RESOURCE}`;
}
