// Driver for byte-stream printers (TCP 9100, USB bulk): optional pre-flight, send, live status.
import type { Transport } from '../transports/transport';
import type { LiveStatus } from '../schemas/printer';
import type { DeliveryResult, DeviceSession, PreflightOutcome, PreparedDocument, PrinterDriver } from './printer-driver';

/** What a stream driver is made of: the transport and how this kind of printer is checked. */
export interface StreamDriverParts {
  transport: Transport;
  /** Seed 4.5.1 pre-flight; absent for printers without one (USB, raw receipt printers). */
  preflight?: () => Promise<PreflightOutcome>;
  status: () => Promise<LiveStatus>;
  /** Formats accepted but not yet printed (ZPL printers that answer `~HS`); absent where the printer cannot tell. */
  unprinted?: () => Promise<number | null>;
  /** Status over a channel of its own beside the job's data path (USB control requests); absent when there is none. */
  controlStatus?: () => Promise<LiveStatus>;
  /** How long a host status query (raw-port `~HS` and the like) waits for the printer's reply, ms; absent: the printer takes none. */
  queryMs?: number;
}

/** Sends prepared bytes over a Transport. */
export class StreamDriver implements PrinterDriver {
  readonly controlStatus?: () => Promise<LiveStatus>;
  readonly unprintedFormats?: () => Promise<number | null>;
  readonly hostQuery?: (command: Uint8Array, complete: (reply: Buffer) => boolean) => Promise<Buffer | null>;
  readonly deviceSession?: () => DeviceSession;

  constructor(private readonly parts: StreamDriverParts) {
    if (parts.controlStatus) this.controlStatus = parts.controlStatus;
    if (parts.unprinted) this.unprintedFormats = parts.unprinted;
    const transport = parts.transport;
    if (transport.session) this.deviceSession = () => transport.session!();
    const queryMs = parts.queryMs;
    if (queryMs !== undefined) this.hostQuery = (command, complete) => parts.transport.query(command, complete, queryMs);
  }

  /** The printer's pre-flight, or `ready` when it has none. */
  preflight(): Promise<PreflightOutcome> {
    return this.parts.preflight ? this.parts.preflight() : Promise.resolve({ kind: 'ready' });
  }

  /** Sends every byte (`doc.repeat` times over); the transport bounds the time and reports failures as DeviceErrors. */
  async deliver(doc: PreparedDocument, signal: AbortSignal): Promise<DeliveryResult> {
    const result = await this.parts.transport.send(doc.bytes, signal, doc.repeat);
    return { bytes: result.bytes };
  }

  /** Live status from the printer kind's probe. */
  status(): Promise<LiveStatus> {
    return this.parts.status();
  }
}
