// What a printer runtime asks of a printer, whatever its kind: pre-flight, delivery, live status, live job state.
import type { PrinterJobState } from '../schemas/job';
import type { LiveStatus } from '../schemas/printer';
import type { PreflightOutcome } from '../schemas/readiness';
export type { PreflightOutcome, Readiness } from '../schemas/readiness';
export type { PrinterJobState } from '../schemas/job';
import type { PreparedDocument } from '../filters/filters';
import type { Capabilities } from '../schemas/printer';
export type { PreparedDocument } from '../filters/filters';

/** What a printer reports about itself besides its state (IPP capabilities and formats). */
export interface PrinterDetails {
  capabilities: Capabilities;
  supportedFormats: string[];
}

/** Live status, and the printer's details when the probe read them. */
export type DriverStatus = LiveStatus & { details?: PrinterDetails };

/** What a delivery reports. */
export interface DeliveryResult {
  bytes: number;
  /** The printer's own job id (IPP job-id), when it gave one. */
  printerJobId?: string;
  /** True when the printer still holds the job (with `printerJobId`): GET /jobs reads its state live until it ends. */
  pending?: boolean;
}

/** A connection to the printer kept open across the driver's calls until closed (see PrinterDriver.deviceSession). */
export interface DeviceSession {
  /** Ends the connection gracefully: resolves once the printer let go (the last delivery confirmed); rejects with a DeviceError. */
  close(): Promise<void>;
  /** Resolves once the printer confirmed reading the deliveries made so far (a later query's reply, or a clean close); rejects with the DeviceError of a connection that failed first. */
  confirmation(): Promise<void>;
}

/** One printer's driver; opened per printer by its kind (src/kinds). */
export interface PrinterDriver {
  /** Seed 4.5.1 check before each job; network ZPL printers only, the others answer `ready`. */
  preflight(): Promise<PreflightOutcome>;
  /** Sends one prepared document; resolves when every byte was accepted; rejects with DeviceError. */
  deliver(doc: PreparedDocument, signal: AbortSignal): Promise<DeliveryResult>;
  /** Live status for GET /printers, with what the printer said about itself when it says it (IPP). */
  status(): Promise<DriverStatus>;
  /** Status over a channel of its own that never touches the job's data path (USB control requests, IPP requests); the runtime reads it while a job holds the device instead of waiting. Absent: status waits for the device. */
  controlStatus?(): Promise<DriverStatus>;
  /** Label formats the printer has accepted but not yet printed (ZPL `~HS`), or null when it cannot tell; absent for printers that never say. */
  unprintedFormats?(): Promise<number | null>;
  /** Sends a host status query (ZPL `~HS`, `~HQES`, `~HI`) and gathers the reply until `complete`; null when the printer stays silent. Absent for printers that have none. */
  hostQuery?(command: Uint8Array, complete: (reply: Buffer) => boolean): Promise<Buffer | null>;
  /** Keeps one connection to the printer for the calls that follow (pre-flight, deliver, status, host queries) until the session is closed; absent where each call opens its own or the device stays claimed (USB, IPP). */
  deviceSession?(): DeviceSession;
  /** Live state of a printer-side job, for printers that keep one (IPP); undefined otherwise. */
  jobState?(printerJobId: string): Promise<PrinterJobState>;
}
