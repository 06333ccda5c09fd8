// Driver for IPP printers: Print-Job with the supported options; the printer's own job state is read on demand, never polled.
import { DeviceError } from '../../errors';
import { capabilitiesOf, jobAttributesFor, jobStateOf, liveStatusOf, type Attributes } from '../../ipp/ipp-mapping';
import type { Capabilities } from '../../schemas/printer';
import { IPP_OP as OP } from '../../ipp/ipp-constants';
import { IppSession } from '../../ipp/ipp-session';
import { TAG, type IppAttribute } from '../../ipp/ipp-wire';
import type { Logger } from '../../log';
import type { LiveStatus } from '../../schemas/printer';
import type { DeliveryResult, DriverStatus, PreflightOutcome, PreparedDocument, PrinterDriver, PrinterJobState } from '../printer-driver';

/** Settings of the IPP driver; times in ms. */
export interface IppDriverOptions {
  uri: string;
  /** Time limit of one request to the printer. */
  timeoutMs: number;
  /** Time limit of a status probe (Get-Printer-Attributes for GET /printers). */
  statusTimeoutMs: number;
  /** Pause before a Print-Job is sent again to a printer that answered server-error-busy (it prints another job). */
  busyRetryMs: number;
  /** Time from the first Print-Job attempt after which a busy printer is no longer retried (the job then fails with server-error-busy). */
  busyWaitMs: number;
  logger: Logger;
}

const PRINTER_ATTRIBUTES = [
  'printer-state', 'printer-state-reasons', 'printer-make-and-model', 'color-supported', 'document-format-supported',
  'media-supported', 'media-source-supported', 'sides-supported', 'copies-supported', 'print-color-mode-supported',
  'page-ranges-supported', 'print-scaling-supported', 'orientation-requested-supported', 'print-quality-supported',
];

/** Reads the printer attributes this client uses. */
export async function printerAttributes(session: IppSession): Promise<Attributes> {
  const answer = await session.call(OP.getPrinterAttributes, [{ tag: TAG.keyword, name: 'requested-attributes', values: PRINTER_ATTRIBUTES }]);
  return answer.printer;
}

/** Live status plus what the printer says about itself, from one Get-Printer-Attributes; rejects when unreachable. */
export async function ippProbe(uri: string, timeoutMs: number): Promise<{ live: LiveStatus; capabilities: Capabilities; supportedFormats: string[] }> {
  const attributes = await printerAttributes(new IppSession({ uri, timeoutMs, busyWaitMs: 0 }));
  const capabilities = capabilitiesOf(attributes);
  return { live: liveStatusOf(attributes), capabilities, supportedFormats: capabilities.documentFormatsSupported ?? [] };
}

/** An IPP printer behind the PrinterDriver interface. */
export class IppDriver implements PrinterDriver {
  private readonly session: IppSession;
  private readonly probing: IppSession;
  /** Print-Job only: retries server-error-busy every busyRetryMs for up to busyWaitMs. */
  private readonly printing: IppSession;

  constructor(private readonly options: IppDriverOptions) {
    this.session = new IppSession({ uri: options.uri, timeoutMs: options.timeoutMs });
    this.probing = new IppSession({ uri: options.uri, timeoutMs: options.statusTimeoutMs, busyWaitMs: 0 });
    this.printing = new IppSession({ uri: options.uri, timeoutMs: options.timeoutMs, busyWaitMs: options.busyWaitMs, busyDelayMs: options.busyRetryMs });
  }

  /** IPP printers have no seed pre-flight; the printer refuses or queues by itself. */
  preflight(): Promise<PreflightOutcome> {
    return Promise.resolve({ kind: 'ready' });
  }

  /**
   * Print-Job with the options the printer supports; resolves as soon as the printer accepts it, with its job-id and
   * `pending` unless the printer already reports it completed. An abort of `signal`, then or later, sends Cancel-Job.
   */
  async deliver(doc: PreparedDocument, signal: AbortSignal): Promise<DeliveryResult> {
    const attributes = await printerAttributes(this.session);
    const { attributes: jobAttributes, dropped } = jobAttributesFor(doc.options, attributes);
    if (dropped.length > 0) this.options.logger.info('options the printer does not support were dropped', { printer: this.options.uri, dropped });
    const answer = await this.printing.call(OP.printJob, this.operationAttributes(doc, attributes), jobAttributes, doc.bytes, signal);
    const jobId = answer.job.get('job-id')?.[0];
    if (typeof jobId !== 'number') throw new DeviceError('PROTOCOL', `ipp ${this.options.uri}: Print-Job answered without a job-id`);
    const state = this.stateOf(jobId, answer.job);
    if (state?.state === 'failed') throw new DeviceError('IO', state.error ?? `ipp ${this.options.uri}: job ${jobId} failed`, doc.bytes.length);
    this.cancelOnAbort(jobId, signal);
    return { bytes: doc.bytes.length, printerJobId: String(jobId), pending: state?.state !== 'completed' };
  }

  /** IPP printers answer status requests while they take a job: the same request as status(), beside the job. */
  controlStatus(): Promise<DriverStatus> {
    return this.status();
  }

  /** printer-state and printer-state-reasons with the printer's capabilities and formats; offline when it does not answer. */
  async status(): Promise<DriverStatus> {
    try {
      const attributes = await printerAttributes(this.probing);
      const capabilities = capabilitiesOf(attributes);
      return { ...liveStatusOf(attributes), details: { capabilities, supportedFormats: capabilities.documentFormatsSupported ?? [] } };
    } catch {
      return { status: 'offline', statusReasons: [] };
    }
  }

  /** The printer's own state of job `printerJobId`, from one Get-Job-Attributes; rejects with DeviceError. */
  async jobState(printerJobId: string): Promise<PrinterJobState> {
    const jobId = Number(printerJobId);
    const answer = await this.session.call(OP.getJobAttributes, [
      { tag: TAG.integer, name: 'job-id', values: [jobId] },
      { tag: TAG.keyword, name: 'requested-attributes', values: ['job-state', 'job-state-reasons', 'job-state-message'] },
    ]);
    const state = this.stateOf(jobId, answer.job);
    if (!state) throw new DeviceError('PROTOCOL', `ipp ${this.options.uri}: job ${jobId} answered without a job-state`);
    return state;
  }

  /** The job's state from job attributes, its error naming the printer and job; null without a job-state. */
  private stateOf(jobId: number, job: Attributes): PrinterJobState | null {
    const texts = (name: string) => (job.get(name) ?? []).filter((v): v is string => typeof v === 'string');
    const state = jobStateOf(job.get('job-state')?.[0], texts('job-state-reasons'), texts('job-state-message')[0]);
    return state?.error ? { ...state, error: `ipp ${this.options.uri}: job ${jobId} ${state.error}` } : state;
  }

  /** Sends Cancel-Job for `jobId` when `signal` aborts (at once when it already has). */
  private cancelOnAbort(jobId: number, signal: AbortSignal): void {
    const cancel = () => {
      this.session.call(OP.cancelJob, [{ tag: TAG.integer, name: 'job-id', values: [jobId] }]).catch((err: Error) => {
        this.options.logger.warn('Cancel-Job failed', { printer: this.options.uri, jobId, error: err.message });
      });
    };
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
  }

  private operationAttributes(doc: PreparedDocument, printer: Attributes): IppAttribute[] {
    const formats = printer.get('document-format-supported') ?? [];
    const format = formats.includes(doc.mimeType) ? doc.mimeType : formats.includes('application/octet-stream') ? 'application/octet-stream' : null;
    return [
      { tag: TAG.name, name: 'requesting-user-name', values: [doc.userName || 'printproxyd'] },
      { tag: TAG.name, name: 'job-name', values: [doc.title || 'Untitled'] },
      ...(format ? [{ tag: TAG.mimeMediaType, name: 'document-format', values: [format] }] : []),
    ];
  }
}
