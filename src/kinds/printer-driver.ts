// What the spooler asks of a printer, whatever its kind: pre-flight, delivery, live status, live job state.
import type { LiveStatus } from '../printers/status-cache';
import type { PrintOptions } from '../schemas/print-options';

/** Seed 4.5.1 readiness: the 503 body of a printer that is not ready. */
export interface Readiness {
  ready: boolean;
  paperOut: boolean;
  paused: boolean;
  headOpen: boolean;
  ribbonOut: boolean;
  errors: string[];
}

/** Outcome of a pre-flight check: ready, not ready (with why), or no answer (the job is attempted). */
export type PreflightOutcome = { kind: 'ready' } | { kind: 'not-ready'; readiness: Readiness } | { kind: 'silent' };

/** A document ready for the wire, with its MIME type for printers that care (IPP). */
export interface PreparedDocument {
  bytes: Uint8Array;
  mimeType: string;
  title: string;
  userName: string;
  options: PrintOptions;
}

/** What a delivery reports. */
export interface DeliveryResult {
  bytes: number;
  /** The printer's own job id (IPP job-id), when it gave one. */
  printerJobId?: string;
  /** True when the printer still holds the job (with `printerJobId`): GET /jobs reads its state live until it ends. */
  pending?: boolean;
}

/** Live state of a job the printer itself tracks (IPP). */
export interface PrinterJobState {
  state: 'queued' | 'printing' | 'completed' | 'failed';
  error: string | null;
}

/** One printer's driver; built per printer by the driver factory. */
export interface PrinterDriver {
  /** Seed 4.5.1 check before each job; network ZPL printers only, the others answer `ready`. */
  preflight(): Promise<PreflightOutcome>;
  /** Sends one prepared document; resolves when every byte was accepted; rejects with DeviceError. */
  deliver(doc: PreparedDocument, signal: AbortSignal): Promise<DeliveryResult>;
  /** Live status for GET /printers. */
  status(): Promise<LiveStatus>;
  /** Live state of a printer-side job, for printers that keep one (IPP); undefined otherwise. */
  jobState?(printerJobId: string): Promise<PrinterJobState>;
}
