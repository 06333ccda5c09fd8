// Picks the driver for a printer from its connection and content (PAPPL-style scheme → driver).
import { DeviceError } from '../../errors';
import type { Logger } from '../../log';
import type { PrinterRecord } from '../registry';
import type { PreflightOutcome, PrinterDriver } from './driver';
import { StreamDriver } from './stream-driver';
import { rawTcpStatus, tcpTransport, zplTcpPreflight, zplTcpStatus } from './zpl-tcp';

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
