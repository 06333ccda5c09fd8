// Driver for byte-stream printers (TCP 9100, USB bulk): optional pre-flight, send, live status.
import type { Transport } from '../transports/transport';
import type { LiveStatus } from '../printers/status-cache';
import type { DeliveryResult, PreflightOutcome, PreparedDocument, PrinterDriver } from './printer-driver';

/** What a stream driver is made of: the transport and how this kind of printer is checked. */
export interface StreamDriverParts {
  transport: Transport;
  /** Seed 4.5.1 pre-flight; absent for printers without one (USB, raw receipt printers). */
  preflight?: () => Promise<PreflightOutcome>;
  status: () => Promise<LiveStatus>;
}

/** Sends prepared bytes over a Transport. */
export class StreamDriver implements PrinterDriver {
  constructor(private readonly parts: StreamDriverParts) {}

  /** The printer's pre-flight, or `ready` when it has none. */
  preflight(): Promise<PreflightOutcome> {
    return this.parts.preflight ? this.parts.preflight() : Promise.resolve({ kind: 'ready' });
  }

  /** Sends every byte; the transport bounds the time and reports failures as DeviceErrors. */
  async deliver(doc: PreparedDocument, signal: AbortSignal): Promise<DeliveryResult> {
    const result = await this.parts.transport.send(doc.bytes, signal);
    return { bytes: result.bytes };
  }

  /** Live status from the printer kind's probe. */
  status(): Promise<LiveStatus> {
    return this.parts.status();
  }
}
