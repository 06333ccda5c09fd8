// Driver for IPP printers: Print-Job with the supported options, then the printer's own job state.
import { DeviceError } from '../../errors';
import { capabilitiesOf, jobAttributesFor, jobStateOf, liveStatusOf, type Attributes } from '../../ipp/ipp-mapping';
import type { Capabilities } from '../../schemas/printer';
import { IppSession, OP } from '../../ipp/ipp-session';
import { TAG, type IppAttribute } from '../../ipp/ipp-wire';
import type { Logger } from '../../log';
import type { LiveStatus } from '../status-cache';
import type { DeliveryResult, PreflightOutcome, PreparedDocument, PrinterDriver, PrinterJobState } from './driver';

/** Settings of the IPP driver; times in ms. */
export interface IppDriverOptions {
  uri: string;
  timeoutMs: number;
  /** How often a job's state is polled while the driver waits for it to end. */
  pollMs: number;
  /** Longest wait for the printer to finish a job before the job is left `printing` (GET /jobs stays live). */
  maxWaitMs: number;
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
  const attributes = await printerAttributes(new IppSession({ uri, timeoutMs, busyRetries: 0 }));
  const capabilities = capabilitiesOf(attributes);
  return { live: liveStatusOf(attributes), capabilities, supportedFormats: capabilities.documentFormatsSupported ?? [] };
}

/** An IPP printer behind the PrinterDriver interface. */
export class IppDriver implements PrinterDriver {
  private readonly session: IppSession;

  constructor(private readonly options: IppDriverOptions) {
    this.session = new IppSession({ uri: options.uri, timeoutMs: options.timeoutMs });
  }

  /** IPP printers have no seed pre-flight; the printer refuses or queues by itself. */
  preflight(): Promise<PreflightOutcome> {
    return Promise.resolve({ kind: 'ready' });
  }

  /** Print-Job with the options the printer supports, then waits (bounded) for the printer's job to end. */
  async deliver(doc: PreparedDocument, signal: AbortSignal): Promise<DeliveryResult> {
    const attributes = await printerAttributes(this.session);
    const { attributes: jobAttributes, dropped } = jobAttributesFor(doc.options, attributes);
    if (dropped.length > 0) this.options.logger.info('options the printer does not support were dropped', { printer: this.options.uri, dropped });
    const answer = await this.session.call(OP.printJob, this.operationAttributes(doc, attributes), jobAttributes, doc.bytes);
    const jobId = answer.job.get('job-id')?.[0];
    if (typeof jobId !== 'number') throw new DeviceError('PROTOCOL', `ipp ${this.options.uri}: Print-Job answered without a job-id`);
    const final = await this.waitForEnd(jobId, signal);
    if (final?.state === 'failed') throw new DeviceError('IO', `ipp ${this.options.uri}: job ${jobId} ${final.error}`, doc.bytes.length);
    return { bytes: doc.bytes.length, printerJobId: String(jobId), pending: final === null };
  }

  /** printer-state and printer-state-reasons; offline when the printer does not answer. */
  async status(): Promise<LiveStatus> {
    try {
      return liveStatusOf(await printerAttributes(this.session));
    } catch {
      return { status: 'offline', statusReasons: [] };
    }
  }

  /** The printer's own state of job `printerJobId`. */
  async jobState(printerJobId: string): Promise<PrinterJobState> {
    const answer = await this.session.call(OP.getJobAttributes, [
      { tag: TAG.integer, name: 'job-id', values: [Number(printerJobId)] },
      { tag: TAG.keyword, name: 'requested-attributes', values: ['job-state', 'job-state-reasons'] },
    ]);
    const reasons = (answer.job.get('job-state-reasons') ?? []).filter((r): r is string => typeof r === 'string');
    return jobStateOf(answer.job.get('job-state')?.[0], reasons);
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

  /** Polls until the job ends; null when it has not ended within maxWaitMs. Cancels the printer job on abort. */
  private async waitForEnd(jobId: number, signal: AbortSignal): Promise<PrinterJobState | null> {
    const deadline = Date.now() + this.options.maxWaitMs;
    while (Date.now() < deadline) {
      if (signal.aborted) {
        await this.session.call(OP.cancelJob, [{ tag: TAG.integer, name: 'job-id', values: [jobId] }]).catch(() => undefined);
        throw new DeviceError('CANCELED', 'Canceled');
      }
      const state = await this.jobState(String(jobId));
      if (state.state === 'completed' || state.state === 'failed') return state;
      await new Promise((r) => setTimeout(r, this.options.pollMs));
    }
    return null;
  }
}
