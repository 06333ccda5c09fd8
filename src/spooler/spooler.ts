// The spooler: job records, idempotency, one serial queue per printer, the disk spool, pre-flight and delivery.
import { randomBytes } from 'node:crypto';
import { DeviceError, toDeviceError } from '../errors';
import type { Logger } from '../log';
import type { PrinterDriver, PrinterJobState, Readiness } from '../kinds/printer-driver';
import type { PrinterRecord } from '../printers/registry';
import { resolveFormat, type DocumentSpec } from './document';
import type { DiskSpool, SpoolEntry } from './disk-spool';
import { prepareForPrinter, type PdfToZpl } from '../filters/filters';
import { isFinished, type JobRecord } from '../schemas/job';
import type { JobStore } from './job-store';
import { KeyedQueue } from './keyed-queue';
import type { Submission } from '../http/print-request';
import { sleep } from '../util/sleep';
import { withinBudget } from '../util/within-budget';

/** Collaborators of the spooler. */
export interface SpoolerDeps {
  store: JobStore;
  spool: DiskSpool;
  driverFor: (printer: PrinterRecord) => PrinterDriver;
  findPrinter: (path: string) => PrinterRecord | null;
  /** Loads a document's bytes (inline data, a URL fetch, an allowed file). */
  loadDocument: (spec: DocumentSpec, data: Buffer | null, signal: AbortSignal) => Promise<Buffer>;
  pdfToZpl: PdfToZpl | null;
  logger: Logger;
  /** How often a queue held by a not-ready printer re-checks it, in ms. */
  holdRetryMs: number;
  /** Longest a `wait: false` job waits for a not-ready printer before failing, in ms. */
  maxHoldMs: number;
  /** Called when a job ends (to refresh the printer's cached status). */
  onJobEnded?: (job: JobRecord) => void;
  now?: () => number;
}

/** What a submission produced: the jobs, whether they are replays of an idempotency key, and pre-flight refusals. */
export interface SubmitOutcome {
  jobs: JobRecord[];
  replay: boolean;
  /** Readiness of each printer that failed pre-flight, by job id (wait: true only). */
  notReady: Map<string, Readiness>;
}

interface ActiveJob {
  job: JobRecord;
  seq: number;
  spec: DocumentSpec;
  data: Buffer | null;
  sub: Pick<Submission, 'options' | 'wait'>;
  controller: AbortController;
  spooled: boolean;
  readiness?: Readiness;
}

const INTERRUPTED = 'the device restarted while this job was being sent; it was not sent again, to avoid a duplicate print';
/** Longest one live read of a printer-side job may take before the last known state is answered (as printer status), ms. */
const LIVE_READ_BUDGET_MS = 1000;
/** How often a `wait: true` request reads its printer-side job while waiting for it to end, ms. */
const PRINTER_POLL_MS = 500;
/** Longest a `wait: true` request waits for its printer-side job to end before answering `printing`, ms. */
const PRINTER_WAIT_MS = 120_000;
/** The start of a job's error when it could not be stored on disk. */
const SPOOL_WRITE_FAILED = 'the job could not be written to the spool';

/** Accepts jobs and runs them one at a time per printer. */
export class Spooler {
  private seq = 0;
  private readonly queue = new KeyedQueue();
  private readonly active = new Map<string, ActiveJob>();
  /** Printers whose queue waits for them to become ready, with their last readiness. */
  private readonly held = new Map<string, Readiness>();
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly deps: SpoolerDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Creates one job per printer (or replays an idempotency key); with `wait` resolves when every job ended.
   * Rejects with DeviceError SPOOL_WRITE when no `wait: false` job could be stored (each is failed, the key forgotten);
   * when only some could, those fail on their own and the rest go ahead.
   */
  async submit(sub: Submission, printers: PrinterRecord[], target: string): Promise<SubmitOutcome> {
    const replayed = sub.idempotencyKey ? this.deps.store.byKey(sub.idempotencyKey) : undefined;
    if (replayed) return { jobs: replayed, replay: true, notReady: new Map() };
    const created = printers.map((printer) => this.create(sub, printer, target));
    if (sub.idempotencyKey) this.deps.store.remember(sub.idempotencyKey, created.map((a) => a.job.jobId));
    // queue places are taken now, in submission order; a spooled job starts only once it is on disk
    const onDisk = created.map((a) => (a.spooled ? this.persist(a) : Promise.resolve()));
    const runs = created.map((a, i) => this.enqueueOrRefuse(a, onDisk[i]));
    const stored = await Promise.allSettled(onDisk);
    const refused = stored.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (refused && stored.every((s) => s.status === 'rejected')) {
      // the queue fails those jobs with the same reason; the caller learns it now rather than from a 201
      if (sub.idempotencyKey) this.deps.store.forget(sub.idempotencyKey);
      throw new DeviceError('SPOOL_WRITE', `${SPOOL_WRITE_FAILED}: ${(refused.reason as Error).message}`);
    }
    if (sub.wait) {
      await Promise.all(runs);
      await Promise.all(created.map((a) => this.followAtPrinter(a.job)));
    }
    const notReady = new Map(created.filter((a) => a.readiness).map((a) => [a.job.jobId, a.readiness!]));
    return { jobs: created.map((a) => a.job), replay: false, notReady };
  }

  /** Cancels a queued or printing job: it moves to `failed` with error "Canceled"; finished jobs are left alone. */
  cancel(jobId: string): JobRecord | undefined {
    const job = this.deps.store.get(jobId);
    if (!job || isFinished(job.state)) return job;
    const controller = this.active.get(jobId)?.controller ?? this.tracked.get(jobId);
    this.finish(job, 'failed', 'Canceled');
    controller?.abort();
    return job;
  }

  /** The record of a job; a job its printer holds (IPP) is first read live from the printer, within 1 s. */
  async get(jobId: string): Promise<JobRecord | undefined> {
    this.forgetExpired();
    const job = this.deps.store.get(jobId);
    if (job && this.tracked.has(jobId)) await this.refresh(job);
    return job;
  }

  /** Re-queues the disk spool after a start; jobs interrupted mid-send are failed, not re-sent. */
  recover(): number {
    const recovered = this.deps.spool.load((file, reason) => this.deps.logger.warn('unreadable spool entry skipped', { file, reason }));
    for (const { entry, data, interrupted } of recovered) {
      this.seq = Math.max(this.seq, entry.seq);
      const active = this.restore(entry, data);
      if (interrupted) {
        this.finish(active.job, 'failed', INTERRUPTED);
        void this.deps.spool.remove(active.job.jobId);
      } else {
        void this.enqueue(active);
      }
    }
    return recovered.length;
  }

  /**
   * Stops starting jobs and waits (up to `graceMs`) for the ones being sent. Queued `wait: false` jobs stay in the
   * disk spool for the next start; queued `wait: true` jobs fail, since nobody will be there to answer.
   */
  async close(graceMs: number): Promise<void> {
    this.closed = true;
    for (const active of this.active.values()) {
      if (!active.spooled && active.job.state === 'queued') this.finish(active.job, 'failed', 'the device is shutting down');
    }
    await Promise.race([Promise.all(this.running), new Promise((r) => setTimeout(r, graceMs).unref())]);
  }

  /** Jobs their printer holds (accepted, not ended), with the controller whose abort cancels them at the printer. */
  private readonly tracked = new Map<string, AbortController>();
  /** The live read in flight per tracked job, shared by concurrent GETs. */
  private readonly reading = new Map<string, Promise<PrinterJobState | null>>();
  private readonly running = new Set<Promise<void>>();

  /**
   * A `wait: true` job for a printer whose queue is held (not ready) asks the printer again at once:
   * still not ready answers 503 now instead of waiting behind the held jobs; ready joins the queue.
   */
  private async enqueueOrRefuse(active: ActiveJob, onDisk: Promise<void>): Promise<void> {
    const printer = active.sub.wait && this.held.has(active.job.printer) ? this.deps.findPrinter(active.job.printer) : null;
    if (!printer) return this.enqueue(active, onDisk);
    const outcome = await this.deps.driverFor(printer).preflight();
    if (outcome.kind !== 'not-ready') return this.enqueue(active, onDisk);
    active.readiness = outcome.readiness;
    this.finish(active.job, 'failed', `Printer is not ready: ${outcome.readiness.errors.join('; ')}`);
    this.active.delete(active.job.jobId);
  }

  private create(sub: Submission, printer: PrinterRecord, target: string): ActiveJob {
    this.seq += 1;
    const job: JobRecord = {
      jobId: `pj_${randomBytes(6).toString('hex')}`,
      printer: printer.path,
      target,
      title: sub.title,
      source: sub.source,
      state: 'queued',
      error: null,
      createdAt: new Date(this.now()).toISOString(),
      completedAt: null,
      contentType: sub.document.contentType,
      size: sub.data?.length ?? 0,
      cupsJobId: String(this.seq),
    };
    this.deps.store.add(job);
    const active: ActiveJob = { job, seq: this.seq, spec: sub.document, data: sub.data, sub, controller: new AbortController(), spooled: !sub.wait };
    this.active.set(job.jobId, active);
    return active;
  }

  private restore(entry: SpoolEntry, data: Buffer | null): ActiveJob {
    const job: JobRecord = { ...entry.job, state: 'queued' };
    this.deps.store.add(job);
    const active: ActiveJob = { job, seq: entry.seq, spec: entry.document, data, sub: { options: entry.options, wait: false }, controller: new AbortController(), spooled: true };
    this.active.set(job.jobId, active);
    return active;
  }

  private persist(active: ActiveJob): Promise<void> {
    return this.deps.spool.put({ seq: active.seq, job: active.job, document: active.spec, options: active.sub.options }, active.spec.source.kind === 'inline' ? active.data : null);
  }

  private enqueue(active: ActiveJob, onDisk: Promise<void> = Promise.resolve()): Promise<void> {
    return this.queue.run(active.job.printer, async () => {
      try {
        await onDisk;
      } catch (err) {
        this.active.delete(active.job.jobId);
        this.finish(active.job, 'failed', `${SPOOL_WRITE_FAILED}: ${(err as Error).message}`);
        return;
      }
      if (this.closed) return;
      const run = this.execute(active);
      this.running.add(run);
      return run.finally(() => this.running.delete(run));
    });
  }

  private async execute(active: ActiveJob): Promise<void> {
    const { job, controller } = active;
    try {
      if (isFinished(job.state)) return;
      const printer = this.deps.findPrinter(job.printer);
      if (!printer) throw new DeviceError('DEVICE_GONE', `printer ${job.printer} no longer exists`);
      const driver = this.deps.driverFor(printer);
      const bytes = await this.deps.loadDocument(active.spec, active.data, controller.signal);
      job.size = bytes.length;
      const prepared = await prepareForPrinter(
        { bytes, format: resolveFormat(active.spec.format, bytes), printerContent: printer.content, label: { dpi: printer.dpi, dither: printer.dither }, title: job.title, userName: job.source ?? 'printproxyd', options: active.sub.options },
        this.deps.pdfToZpl,
        controller.signal,
      );
      if (!(await this.awaitReady(active, driver))) return;
      if (isFinished(job.state)) return;
      job.state = 'printing';
      if (active.spooled) await this.deps.spool.markSending(job.jobId);
      const result = await driver.deliver(prepared, controller.signal);
      if (result.printerJobId) job.cupsJobId = result.printerJobId;
      // a printer that holds the job is read live; without its job id there is nothing to read, so it counts as done
      if (result.pending && result.printerJobId) {
        if (!isFinished(job.state)) this.track(job.jobId, controller);
      } else this.finish(job, 'completed', null);
    } catch (err) {
      const error = toDeviceError(err);
      this.finish(job, 'failed', error.code === 'CANCELED' ? 'Canceled' : error.message);
    } finally {
      this.active.delete(job.jobId);
      // a job the printer accepted is the printer's to keep: it is not sent again after a restart
      if (active.spooled && (isFinished(job.state) || this.tracked.has(job.jobId))) await this.deps.spool.remove(job.jobId).catch(() => undefined);
    }
  }

  /** Pre-flight; `wait: true` jobs fail when not ready, `wait: false` jobs hold the queue until ready. */
  private async awaitReady(active: ActiveJob, driver: PrinterDriver): Promise<boolean> {
    const started = this.now();
    for (;;) {
      const outcome = await driver.preflight();
      if (outcome.kind !== 'not-ready') {
        this.held.delete(active.job.printer);
        return true;
      }
      if (active.sub.wait || this.now() - started >= this.deps.maxHoldMs) {
        active.readiness = outcome.readiness;
        this.finish(active.job, 'failed', `Printer is not ready: ${outcome.readiness.errors.join('; ')}`);
        return false;
      }
      this.held.set(active.job.printer, outcome.readiness);
      await sleep(this.deps.holdRetryMs, active.controller.signal);
      if (isFinished(active.job.state) || this.closed) {
        this.held.delete(active.job.printer);
        return false;
      }
    }
  }

  /** Starts reading a job the printer accepted from the printer. */
  private track(jobId: string, controller: AbortController): void {
    this.forgetExpired();
    this.tracked.set(jobId, controller);
  }

  /** Stops tracking jobs the store no longer holds (expired), releasing their controllers. */
  private forgetExpired(): void {
    for (const id of this.tracked.keys()) if (!this.deps.store.get(id)) this.tracked.delete(id);
  }

  /** Takes a tracked job's state from its printer (live, within the budget); keeps the last known state when it cannot. */
  private async refresh(job: JobRecord): Promise<void> {
    if (isFinished(job.state) || !this.tracked.has(job.jobId)) return;
    const live = await withinBudget(this.reading.get(job.jobId) ?? this.readLive(job), LIVE_READ_BUDGET_MS, null);
    if (!live || isFinished(job.state)) return;
    if (live.state === 'completed' || live.state === 'failed') this.finish(job, live.state, live.error);
    else job.state = live.state;
  }

  /** One Get-Job-Attributes (through the driver) for `job`, registered as in flight; null when it fails. */
  private readLive(job: JobRecord): Promise<PrinterJobState | null> {
    const printer = this.deps.findPrinter(job.printer);
    const driver = printer ? this.deps.driverFor(printer) : null;
    if (!driver?.jobState || !job.cupsJobId) return Promise.resolve(null);
    const read = driver
      .jobState(job.cupsJobId)
      .catch(() => null)
      .finally(() => this.reading.delete(job.jobId));
    this.reading.set(job.jobId, read);
    return read;
  }

  /** `wait: true`: reads a tracked job every PRINTER_POLL_MS until it ends at the printer, for at most PRINTER_WAIT_MS. */
  private async followAtPrinter(job: JobRecord): Promise<void> {
    const deadline = this.now() + PRINTER_WAIT_MS;
    for (;;) {
      const controller = this.tracked.get(job.jobId);
      if (!controller || this.closed) return;
      await this.refresh(job);
      if (isFinished(job.state) || this.now() >= deadline) return;
      await sleep(PRINTER_POLL_MS, controller.signal);
    }
  }

  private finish(job: JobRecord, state: 'completed' | 'failed', error: string | null): void {
    if (isFinished(job.state)) return;
    this.tracked.delete(job.jobId);
    job.state = state;
    job.error = error;
    job.completedAt = new Date(this.now()).toISOString();
    if (state === 'failed') this.deps.logger.warn('job failed', { jobId: job.jobId, printer: job.printer, error });
    this.deps.onJobEnded?.(job);
  }
}
