// The IPP operations of a shared printer (PWG 5100.14): jobs go into the spooler; state is read from it and the printer.
import { AppError, IppFault } from '../errors';
import type { PrinterLanguage } from '../filters/filters';
import { GROUP, type IppAttribute, type IppRequest } from '../ipp/ipp-wire';
import type { Logger } from '../log';
import { isFinished, type JobRecord } from '../schemas/job';
import type { LiveStatus, PrinterRecord } from '../schemas/printer';
import type { Readiness } from '../schemas/readiness';
import type { Submission } from '../spooler/submission';
import type { SubmitOutcome } from '../spooler/spooler';
import { IPP_OP, IPP_STATUS, JOB_STATE } from '../ipp/ipp-constants';
import type { IppJob, IppJobTable } from './ipp-job-table';
import { PrinterStateClock } from './ipp-printer-state';
import { booleanOf, groupOf, integerOf, optionsOf, stringsOf, valueOf } from './ipp-request-attributes';
import { jobAttributes, jobState } from './job-attributes';
import { printerAttributes } from './printer-attributes';
import { declaredFormat, formatsOf } from './share-formats';
import { mediaOf, offeredPaperSize } from './share-media';

/** What the operations use of the rest of the daemon. */
export interface IppOperationsDeps {
  jobs: IppJobTable;
  submit: (sub: Submission, printer: PrinterRecord) => Promise<SubmitOutcome>;
  /** The spooler's record of a job (read live for printers that hold jobs), or undefined once expired. */
  record: (jobId: string) => Promise<JobRecord | undefined>;
  cancel: (jobId: string) => void;
  languageOf: (printer: PrinterRecord) => PrinterLanguage;
  /** Live status within the API's budget. */
  status: (path: string) => Promise<LiveStatus>;
  /** The readiness that holds the printer's queue, or null when it is not held. */
  held: (path: string) => Readiness | null;
  /** Identify-Printer: makes the printer known to whoever stands by it (logged and emitted). */
  identify: (printer: PrinterRecord) => void;
  deviceId: () => string;
  /** How long a Create-Job waits for its document, in ms (multiple-operation-time-out). */
  documentWaitMs: number;
  startedAt: Date;
  now: () => Date;
  logger: Logger;
}

/** One request, resolved to its printer. */
export interface IppCall {
  request: IppRequest;
  printer: PrinterRecord;
  /** The printer URI the request reached. */
  printerUri: string;
  secure: boolean;
  /** The device's web address, http://HOST:PORT. */
  webUrl: string;
  /** Document bytes after the attributes. */
  data: Buffer;
  /** Keeps the request's bytes counted in the device's memory budget past the answer: their release, or null when over it. */
  hold: () => (() => void) | null;
}

/** An operation's answer: extra operation attributes and the groups after them. */
export interface IppAnswer {
  status?: number;
  message?: string;
  groups: Array<{ tag: number; attributes: IppAttribute[] }>;
}

type Operation = (call: IppCall) => Promise<IppAnswer>;

const JOB_SUMMARY = new Set(['job-id', 'job-uri', 'job-state', 'job-state-reasons', 'job-state-message']);

/** The operations, by code; `run` dispatches one call. */
export class IppOperations {
  private readonly clock: PrinterStateClock;
  private readonly table: Record<number, Operation>;

  constructor(private readonly deps: IppOperationsDeps) {
    this.clock = new PrinterStateClock(deps.startedAt);
    this.table = {
      [IPP_OP.printJob]: (c) => this.printJob(c),
      [IPP_OP.validateJob]: async (c) => (this.checkDocument(c), { groups: [] }),
      [IPP_OP.createJob]: (c) => this.createJob(c),
      [IPP_OP.sendDocument]: (c) => this.sendDocument(c),
      [IPP_OP.cancelJob]: (c) => this.cancelJob(c),
      [IPP_OP.getJobAttributes]: (c) => this.getJobAttributes(c),
      [IPP_OP.getJobs]: (c) => this.getJobs(c),
      [IPP_OP.getPrinterAttributes]: (c) => this.getPrinterAttributes(c),
      [IPP_OP.cancelMyJobs]: (c) => this.cancelMyJobs(c),
      [IPP_OP.closeJob]: (c) => this.closeJob(c),
      [IPP_OP.identifyPrinter]: async (c) => (this.deps.identify(c.printer), { groups: [] }),
    };
  }

  /** Runs the call's operation; throws IppFault for an unsupported one or a refused request. */
  run(call: IppCall): Promise<IppAnswer> {
    const operation = this.table[call.request.operation];
    if (!operation) throw new IppFault(IPP_STATUS.operationNotSupported, `operation 0x${call.request.operation.toString(16).padStart(4, '0')} is not supported`);
    return operation(call);
  }

  private async printJob(call: IppCall): Promise<IppAnswer> {
    const mime = this.checkDocument(call);
    if (call.data.length === 0) throw new IppFault(IPP_STATUS.badRequest, 'Print-Job carries no document');
    const job = this.newJob(call);
    await this.submitJob(call.printer, job, call.data, mime);
    return this.jobAnswer(call, job);
  }

  private async createJob(call: IppCall): Promise<IppAnswer> {
    const job = this.newJob(call);
    job.local = 'incoming';
    job.timer = setTimeout(() => this.abandon(job, 'No document came within multiple-operation-time-out.'), this.deps.documentWaitMs);
    job.timer.unref();
    return this.jobAnswer(call, job);
  }

  private async sendDocument(call: IppCall): Promise<IppAnswer> {
    const job = this.jobOf(call);
    const op = groupOf(call.request, GROUP.operation);
    const last = booleanOf(op, 'last-document');
    if (last === undefined) throw new IppFault(IPP_STATUS.badRequest, 'last-document is required');
    if (job.local !== 'incoming') throw new IppFault(IPP_STATUS.notPossible, `job ${job.id} is not waiting for a document`);
    const mime = this.checkDocument(call);
    if (job.pending && call.data.length > 0) throw new IppFault(IPP_STATUS.notPossible, 'this printer takes one document per job (multiple-document-jobs-supported is false)');
    if (call.data.length > 0) job.pending = this.keep(call, mime, last);
    if (last) await this.close(call.printer, job);
    return this.jobAnswer(call, job);
  }

  private async closeJob(call: IppCall): Promise<IppAnswer> {
    const job = this.jobOf(call);
    if (job.local === 'incoming') await this.close(call.printer, job);
    return { groups: [] };
  }

  private async cancelJob(call: IppCall): Promise<IppAnswer> {
    const job = this.jobOf(call);
    const { state } = jobState({ job, record: job.jobId ? await this.deps.record(job.jobId) : undefined, printerHeld: false });
    if (state >= JOB_STATE.canceled) throw new IppFault(IPP_STATUS.notPossible, `job ${job.id} has already ended`);
    this.cancelOne(job);
    return { groups: [] };
  }

  private async cancelMyJobs(call: IppCall): Promise<IppAnswer> {
    const user = this.userOf(call.request);
    const ids = groupOf(call.request, GROUP.operation).find((a) => a.name === 'job-ids')?.values.map(Number);
    for (const job of this.deps.jobs.of(call.printer.path)) {
      if (job.user !== user || (ids && !ids.includes(job.id))) continue;
      const record = job.jobId ? await this.deps.record(job.jobId) : undefined;
      if (jobState({ job, record, printerHeld: false }).state < JOB_STATE.canceled) this.cancelOne(job);
    }
    return { groups: [] };
  }

  private async getJobAttributes(call: IppCall): Promise<IppAnswer> {
    const job = this.jobOf(call);
    const wanted = requested(call.request, ['all']);
    return { groups: [{ tag: GROUP.job, attributes: pick(await this.attributesOf(call, job), wanted) }] };
  }

  private async getJobs(call: IppCall): Promise<IppAnswer> {
    const op = groupOf(call.request, GROUP.operation);
    const which = stringsOf(op, 'which-jobs')?.[0] ?? 'not-completed';
    if (which !== 'completed' && which !== 'not-completed' && which !== 'all') throw new IppFault(IPP_STATUS.attributesNotSupported, `which-jobs ${which} is not supported`);
    const mine = booleanOf(op, 'my-jobs') === true ? this.userOf(call.request) : null;
    const limit = Number(valueOf(op, 'limit') ?? Number.POSITIVE_INFINITY);
    const wanted = requested(call.request, ['job-id', 'job-uri']);
    const groups: IppAnswer['groups'] = [];
    for (const job of this.deps.jobs.of(call.printer.path)) {
      if (groups.length >= limit) break;
      if (mine !== null && job.user !== mine) continue;
      const attributes = await this.attributesOf(call, job);
      const ended = (attributes.find((a) => a.name === 'job-state')?.values[0] as number) >= JOB_STATE.canceled;
      if ((which === 'completed' && !ended) || (which === 'not-completed' && ended)) continue;
      groups.push({ tag: GROUP.job, attributes: pick(attributes, wanted) });
    }
    return { groups };
  }

  private async getPrinterAttributes(call: IppCall): Promise<IppAnswer> {
    const { printer } = call;
    const [live, queued] = [await this.deps.status(printer.path), await this.queuedJobs(printer.path)];
    const now = this.deps.now();
    const attributes = printerAttributes({
      printer,
      language: this.deps.languageOf(printer),
      uri: call.printerUri,
      secure: call.secure,
      webUrl: call.webUrl,
      deviceId: this.deps.deviceId(),
      live: this.clock.state(printer.path, live, this.deps.held(printer.path), queued > 0, now),
      queuedJobs: queued,
      startedAt: this.deps.startedAt,
      now,
    });
    return { groups: [{ tag: GROUP.printer, attributes: pick(attributes, requested(call.request, ['all'])) }] };
  }

  /** The document-format (default application/octet-stream) when the printer takes it and it is not compressed; else IppFault. */
  private checkDocument(call: IppCall): string {
    const op = groupOf(call.request, GROUP.operation);
    const compression = valueOf(op, 'compression');
    if (compression !== undefined && compression !== 'none') throw new IppFault(IPP_STATUS.compressionNotSupported, `compression ${String(compression)} is not supported`);
    const mime = String(valueOf(op, 'document-format') ?? 'application/octet-stream').toLowerCase();
    if (!formatsOf(call.printer, this.deps.languageOf(call.printer)).includes(mime)) throw new IppFault(IPP_STATUS.documentFormatNotSupported, `document-format ${mime} is not supported`);
    return mime;
  }

  private newJob(call: IppCall): IppJob {
    const op = groupOf(call.request, GROUP.operation);
    const name = String(valueOf(op, 'job-name') ?? valueOf(op, 'document-name') ?? 'Untitled').slice(0, 255) || 'Untitled';
    const options = optionsOf(call.request);
    const paperSize = offeredPaperSize(options.paperSize, mediaOf(call.printer, this.deps.languageOf(call.printer)));
    if (paperSize) options.paperSize = paperSize;
    else delete options.paperSize;
    return this.deps.jobs.create(call.printer.path, this.userOf(call.request), name, options, this.deps.now());
  }

  private userOf(request: IppRequest): string {
    return String(valueOf(groupOf(request, GROUP.operation), 'requesting-user-name') ?? 'anonymous').slice(0, 255) || 'anonymous';
  }

  /** The job a job operation names (job-id, or the last segment of job-uri); IppFault not-found otherwise. */
  private jobOf(call: IppCall): IppJob {
    const op = groupOf(call.request, GROUP.operation);
    const id = integerOf(op, 'job-id') ?? Number(String(valueOf(op, 'job-uri') ?? '').split('/').pop());
    if (!Number.isInteger(id) || id < 1) throw new IppFault(IPP_STATUS.badRequest, 'job-id (or job-uri) is required');
    const job = this.deps.jobs.get(call.printer.path, id);
    if (!job) throw new IppFault(IPP_STATUS.notFound, `job ${id} does not exist`);
    return job;
  }

  private async submitJob(printer: PrinterRecord, job: IppJob, data: Buffer, mime: string): Promise<void> {
    const format = declaredFormat(mime, this.deps.languageOf(printer));
    const sub: Submission = { document: { source: { kind: 'inline' }, format, contentType: mime }, data, title: job.name, source: job.user, wait: false, options: job.options, idempotencyKey: null };
    try {
      const outcome = await this.deps.submit(sub, printer);
      job.jobId = outcome.jobs[0].jobId;
    } catch (err) {
      job.local = 'aborted';
      job.message = (err as Error).message;
      const busy = err instanceof AppError && (err.code === 'QUEUE_FULL' || err.code === 'TOO_BUSY' || err.code === 'SPOOL_FULL');
      throw new IppFault(busy ? IPP_STATUS.busy : IPP_STATUS.internalError, (err as Error).message);
    }
  }

  /**
   * The document of a Send-Document; one that waits for Close-Job stays counted in the memory budget until then
   * (server-error-busy when the budget cannot hold it: the client sends it again later).
   */
  private keep(call: IppCall, mime: string, last: boolean): NonNullable<IppJob['pending']> {
    const release = last ? () => undefined : call.hold();
    if (!release) throw new IppFault(IPP_STATUS.busy, 'the device is holding other documents; send this one again shortly');
    return { data: call.data, format: declaredFormat(mime, this.deps.languageOf(call.printer)), mime, release };
  }

  /** Submits an incoming job's document, or aborts it when none came. */
  private async close(printer: PrinterRecord, job: IppJob): Promise<void> {
    if (job.timer) clearTimeout(job.timer);
    job.timer = null;
    const pending = job.pending;
    job.pending = null;
    if (!pending) {
      this.abandon(job, 'The job was closed without a document.');
      return;
    }
    job.local = null;
    try {
      await this.submitJob(printer, job, pending.data, pending.mime);
    } finally {
      pending.release();
    }
  }

  private abandon(job: IppJob, message: string): void {
    if (job.local !== 'incoming') return;
    if (job.timer) clearTimeout(job.timer);
    job.local = 'aborted';
    job.message = message;
    job.pending?.release();
    job.pending = null;
  }

  private cancelOne(job: IppJob): void {
    if (job.local === 'incoming') {
      if (job.timer) clearTimeout(job.timer);
      job.local = 'canceled';
      job.pending?.release();
      job.pending = null;
    } else if (job.jobId) {
      this.deps.cancel(job.jobId);
    }
  }

  private async attributesOf(call: IppCall, job: IppJob): Promise<IppAttribute[]> {
    const record = job.jobId ? await this.deps.record(job.jobId) : undefined;
    return jobAttributes({ job, record, printerUri: call.printerUri, printerHeld: this.deps.held(call.printer.path) !== null, startedAt: this.deps.startedAt, now: this.deps.now() });
  }

  private async jobAnswer(call: IppCall, job: IppJob): Promise<IppAnswer> {
    const attributes = (await this.attributesOf(call, job)).filter((a) => JOB_SUMMARY.has(a.name));
    return { groups: [{ tag: GROUP.job, attributes }] };
  }

  private async queuedJobs(path: string): Promise<number> {
    let count = 0;
    for (const job of this.deps.jobs.of(path)) {
      if (job.local === 'incoming') count += 1;
      else if (job.jobId && !isFinished((await this.deps.record(job.jobId))?.state ?? 'failed')) count += 1;
    }
    return count;
  }
}

/** requested-attributes, or `fallback` when the request names none. */
function requested(request: IppRequest, fallback: string[]): Set<string> {
  return new Set(stringsOf(groupOf(request, GROUP.operation), 'requested-attributes') ?? fallback);
}

/** The attributes `wanted` names; `all` and the group names take every one. */
function pick(attributes: IppAttribute[], wanted: Set<string>): IppAttribute[] {
  if (wanted.has('all') || wanted.has('printer-description') || wanted.has('job-template') || wanted.has('job-description')) return attributes;
  return attributes.filter((a) => wanted.has(a.name));
}

