// The spooler: job records, idempotency (keys kept on disk) and the disk spool; each job runs in its printer's runtime.
import { randomBytes } from 'node:crypto';
import { AppError, DeviceError } from '../errors';
import type { PrinterKind } from '../kinds/printer-kind';
import type { Logger } from '../log';
import type { PrinterRuntimes } from '../printers/printer-runtimes';
import type { JobWork } from '../printers/printer-runtime';
import { isFinished, type JobRecord } from '../schemas/job';
import type { PrinterRecord } from '../schemas/printer';
import type { Readiness } from '../schemas/readiness';
import type { DiskSpool, SpoolEntry } from './disk-spool';
import type { DocumentSpec } from './document';
import type { JobStore } from './job-store';
import type { KeyJournal } from './key-journal';
import type { Submission } from './submission';

/** Collaborators of the spooler. */
export interface SpoolerDeps {
  store: JobStore;
  spool: DiskSpool;
  /** Idempotency keys on disk with their jobs' final records: a key outlives a restart for its whole lifetime. */
  keys: KeyJournal;
  runtimes: PrinterRuntimes;
  findPrinter: (path: string) => PrinterRecord | null;
  /** The kind of a printer (its rule for jobs a restart interrupted). */
  kindOf: (printer: PrinterRecord) => Pick<PrinterKind, 'interruptedJobs'>;
  /** Loads a document's bytes (inline data, a URL fetch, an allowed file). */
  loadDocument: (spec: DocumentSpec, data: Buffer | null, signal: AbortSignal) => Promise<Buffer>;
  logger: Logger;
  /** Most jobs that may wait or run at once across every printer; a submission beyond it is refused (QUEUE_FULL, 503). */
  maxUnfinished: number;
  now?: () => number;
}

/** What a submission produced: the jobs, whether they are replays of an idempotency key, and pre-flight refusals. */
export interface SubmitOutcome {
  /** The jobs' live records. */
  jobs: JobRecord[];
  /**
   * A new `wait: false` submission's jobs as they were when accepted (on disk, before they may start sending: `queued`),
   * or as they failed: what its 201 shows (seed-api.md). Absent for `wait: true` and replays.
   */
  accepted?: JobRecord[];
  replay: boolean;
  /** Readiness of each printer that failed pre-flight, by job id (wait: true only). */
  notReady: Map<string, Readiness>;
}

/** A job with what the spooler keeps of it. */
interface Spooled {
  work: JobWork;
  seq: number;
  spec: DocumentSpec;
  spooled: boolean;
  /** Lets go of the document bytes a spooled job held while they were being written (from then on it reads them back). */
  written: () => void;
  /** The record as it was when the job was on disk (before the runtime, waiting for that, could send it). */
  accepted: JobRecord | null;
}

const INTERRUPTED = 'the device restarted while this job was being sent; it was not sent again, to avoid a duplicate print';
const POISON = 'the device restarted twice in a row while working on this job; it was failed rather than tried again';
/** A job taken up this many times before, each ended by a restart, is failed at recovery instead of replayed. */
const MAX_ATTEMPTS = 2;
/** The start of a job's error when it could not be stored on disk. */
const SPOOL_WRITE_FAILED = 'the job could not be written to the spool';

/** Accepts jobs, keeps their records and spool entries, and hands each to its printer's runtime. */
export class Spooler {
  private seq = 0;
  private readonly now: () => number;
  /** Spooled (`wait: false`) jobs not yet ended, by id: what close() keeps for the next start. */
  private readonly onDisk = new Set<string>();

  constructor(private readonly deps: SpoolerDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Creates one job per printer (or replays an idempotency key); with `wait` resolves when every job ended.
   * Rejects with AppError SPOOL_FULL when the disk spool has no room for a `wait: false` job's bytes (nothing created),
   * with DeviceError SPOOL_WRITE when no `wait: false` job could be stored (each is failed, the key forgotten);
   * when only some could, those fail on their own and the rest go ahead.
   */
  async submit(sub: Submission, printers: PrinterRecord[], target: string): Promise<SubmitOutcome> {
    const replayed = sub.idempotencyKey ? this.deps.store.byKey(sub.idempotencyKey) : undefined;
    if (replayed) return { jobs: replayed, replay: true, notReady: new Map() };
    this.checkRoom(printers.length);
    if (!sub.wait) this.checkSpool((sub.data?.length ?? 0) * printers.length);
    const created = printers.map((printer) => this.create(sub, printer, target));
    const keyed = this.keepKey(sub.idempotencyKey, created.map((c) => c.work.job));
    // queue places are taken now, in submission order; a job may render meanwhile, but is sent only once it (spooled) or
    // its key (waited for) is on disk
    const stored = created.map((c) => (c.spooled ? this.persist(c, sub.data, sub.idempotencyKey) : keyed));
    const runs = created.map((c, i) => this.deps.runtimes.of(c.work.job.printer).run(c.work, stored[i]));
    const written = await Promise.allSettled(stored);
    const refused = written.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (refused && written.every((s) => s.status === 'rejected')) {
      // the runtime fails those jobs with the same reason; the caller learns it now rather than from a 201
      if (sub.idempotencyKey) this.forgetKey(sub.idempotencyKey);
      throw refused.reason;
    }
    if (sub.wait) {
      await Promise.all(runs);
      await Promise.all(created.map((c) => this.deps.runtimes.of(c.work.job.printer).follow(c.work.job)));
    }
    const notReady = new Map(created.filter((c) => c.work.readiness).map((c) => [c.work.job.jobId, c.work.readiness!]));
    const accepted = sub.wait ? undefined : created.map((c) => c.accepted ?? c.work.job);
    return { jobs: created.map((c) => c.work.job), ...(accepted ? { accepted } : {}), replay: false, notReady };
  }

  /** Cancels a queued or printing job: it moves to `failed` with error "Canceled"; finished jobs are left alone. */
  cancel(jobId: string): JobRecord | undefined {
    const job = this.deps.store.get(jobId);
    if (!job || isFinished(job.state)) return job;
    this.deps.runtimes.of(job.printer).cancel(job);
    return job;
  }

  /** The record of a job; a job its printer holds (IPP) is first read live from the printer, within 1 s. */
  async get(jobId: string): Promise<JobRecord | undefined> {
    for (const runtime of this.deps.runtimes.all()) runtime.forget((id) => this.deps.store.get(id) !== undefined);
    const job = this.deps.store.get(jobId);
    if (job) await this.deps.runtimes.of(job.printer).refresh(job);
    return job;
  }

  /** Re-queues the disk spool after a start; a job a restart interrupted mid-send follows its printer kind's rule. */
  recover(): number {
    const recovered = this.deps.spool.load((file, reason) => this.deps.logger.warn('spool cleaned at start', { file, reason }));
    this.rememberKeys(recovered.map((r) => r.entry));
    for (const { entry, interrupted, attempts } of recovered) {
      this.seq = Math.max(this.seq, entry.seq);
      const restored = this.restore(entry);
      const runtime = this.deps.runtimes.of(restored.work.job.printer);
      runtime.admit(restored.work.job);
      const printer = this.deps.findPrinter(restored.work.job.printer);
      const failure = attempts >= MAX_ATTEMPTS ? POISON : interrupted && (!printer || this.deps.kindOf(printer).interruptedJobs(printer) === 'fail') ? INTERRUPTED : null;
      if (failure) {
        runtime.fail(restored.work.job, new DeviceError('INTERRUPTED', failure));
        void restored.work.release();
      } else {
        void runtime.run(restored.work);
      }
    }
    this.restoreKeys();
    return recovered.length;
  }

  /**
   * Stops starting jobs and waits (up to `graceMs`) for the ones being sent. Queued `wait: false` jobs stay in the
   * disk spool for the next start; queued `wait: true` jobs fail, since nobody will be there to answer.
   */
  async close(graceMs: number): Promise<void> {
    await this.deps.runtimes.close(graceMs, (work) => this.onDisk.has(work.job.jobId));
  }

  /** Keys of spooled submissions again, with the jobs each made: a client retrying after the restart gets those jobs back. */
  private rememberKeys(entries: SpoolEntry[]): void {
    const jobsOf = new Map<string, string[]>();
    for (const e of entries) if (e.idempotencyKey) jobsOf.set(e.idempotencyKey, [...(jobsOf.get(e.idempotencyKey) ?? []), e.job.jobId]);
    for (const [key, jobIds] of jobsOf) this.deps.store.remember(key, jobIds);
  }

  /**
   * Keys from the key journal again, each with its jobs: those the spool gave back as they run, the others as they ended
   * (a job that had not ended, a `wait: true` one the restart cut short, as failed INTERRUPTED, never sent again).
   */
  private restoreKeys(): void {
    for (const entry of this.deps.keys.restored()) {
      for (const job of entry.jobs) if (!this.deps.store.get(job.jobId)) this.restoreEnded(entry.key, job);
      this.deps.store.remember(entry.key, entry.jobs.map((job) => job.jobId), entry.at);
    }
  }

  private restoreEnded(key: string, job: JobRecord): void {
    const ended: JobRecord = isFinished(job.state) ? job : { ...job, state: 'failed', error: INTERRUPTED, errorCode: 'INTERRUPTED', completedAt: new Date(this.now()).toISOString() };
    this.deps.store.add(ended);
    this.deps.store.settle(ended);
    if (ended !== job) void this.keyEnded(key, ended);
  }

  /** Keeps `key` with `jobs` in memory now and on disk; resolves (never rejects) once it is on disk or could not be stored. */
  private keepKey(key: string | null, jobs: JobRecord[]): Promise<void> {
    if (!key) return Promise.resolve();
    this.deps.store.remember(key, jobs.map((job) => job.jobId));
    return this.deps.keys.created(key, jobs).catch((err: Error) => {
      this.deps.logger.warn('an idempotency key could not be stored; a retry after a restart may print again', { key, reason: err.message });
    });
  }

  private forgetKey(key: string): void {
    this.deps.store.forget(key);
    void this.deps.keys.forget(key).catch((err: Error) => this.deps.logger.warn('an idempotency key could not be forgotten on disk', { key, reason: err.message }));
  }

  /** Stores the final record of a keyed job; a failure is logged (a replay after a restart then answers it as interrupted). */
  private keyEnded(key: string, job: JobRecord): Promise<void> {
    return this.deps.keys.ended(key, job).catch((err: Error) => {
      this.deps.logger.warn('the end of a keyed job could not be stored', { key, jobId: job.jobId, reason: err.message });
    });
  }

  /** Throws QUEUE_FULL when `more` jobs would take the unfinished ones past the limit. */
  private checkRoom(more: number): void {
    const unfinished = this.deps.store.unfinished();
    if (unfinished + more > this.deps.maxUnfinished) {
      throw new AppError('QUEUE_FULL', `the device already has ${unfinished} jobs waiting or printing (at most ${this.deps.maxUnfinished}); try again once some have ended`, { headers: { 'Retry-After': '5' } });
    }
  }

  /** Throws SPOOL_FULL when `bytes` of inline documents would take the disk spool past its byte limit. */
  private checkSpool(bytes: number): void {
    if (this.deps.spool.hasRoom(bytes)) return;
    throw new AppError('SPOOL_FULL', `the spool has no room for ${bytes} more bytes (it holds ${this.deps.spool.usedBytes()}); try again once some jobs have printed`, { headers: { 'Retry-After': '5' } });
  }

  private create(sub: Submission, printer: PrinterRecord, target: string): Spooled {
    this.seq += 1;
    const job: JobRecord = {
      jobId: `pj_${randomBytes(6).toString('hex')}`,
      printer: printer.path,
      target,
      title: sub.title,
      source: sub.source,
      state: 'queued',
      error: null,
      errorCode: null,
      createdAt: new Date(this.now()).toISOString(),
      completedAt: null,
      contentType: sub.document.contentType,
      size: sub.data?.length ?? 0,
      cupsJobId: String(this.seq),
      printedAt: null,
    };
    this.deps.store.add(job);
    const spooled = this.spooled(job, this.seq, sub.document, sub.data, sub.options, sub.wait, sub.idempotencyKey);
    this.deps.runtimes.of(printer.path).admit(job);
    return spooled;
  }

  private restore(entry: SpoolEntry): Spooled {
    const job: JobRecord = { ...entry.job, state: 'queued', errorCode: entry.job.errorCode ?? null, printedAt: null };
    this.deps.store.add(job);
    this.onDisk.add(job.jobId);
    return this.spooled(job, entry.seq, entry.document, null, entry.options, false, entry.idempotencyKey ?? null);
  }

  private spooled(job: JobRecord, seq: number, spec: DocumentSpec, data: Buffer | null, options: Submission['options'], wait: boolean, key: string | null): Spooled {
    const spooled = !wait;
    // a spooled job keeps its bytes in memory only while they are being written (it may render meanwhile); from then on
    // they are read back from the spool when the job is sent
    let bytes = data;
    const inline = (): Promise<Buffer | null> => (spooled && spec.source.kind === 'inline' && !bytes ? this.deps.spool.readData(job.jobId) : Promise.resolve(bytes));
    const work: JobWork = {
      job,
      wait,
      options,
      format: spec.format,
      controller: new AbortController(),
      load: async (signal) => this.deps.loadDocument(spec, await inline(), signal),
      beforePrepare: () => (spooled ? this.deps.spool.markStarted(job.jobId) : Promise.resolve()),
      beforeSend: () => (spooled ? this.deps.spool.markSending(job.jobId) : Promise.resolve()),
      release: () => this.release(job, spooled, key),
    };
    return { work, seq, spec, spooled, written: () => void (spooled && (bytes = null)), accepted: null };
  }

  /** Writes a job to the disk spool with its submission's key (kept, so recovery can remember it). */
  private async persist(spooled: Spooled, data: Buffer | null, idempotencyKey: string | null): Promise<void> {
    const { work, seq, spec } = spooled;
    try {
      await this.deps.spool.put({ seq, job: work.job, document: spec, options: work.options, ...(idempotencyKey ? { idempotencyKey } : {}) }, spec.source.kind === 'inline' ? data : null);
      this.onDisk.add(work.job.jobId);
      // taken before this promise resolves: the runtime sends nothing (and so never reads `printing`) before then
      spooled.accepted = { ...work.job };
    } catch (err) {
      if (err instanceof AppError && err.code === 'SPOOL_FULL') throw err;
      throw new DeviceError('SPOOL_WRITE', `${SPOOL_WRITE_FAILED}: ${(err as Error).message}`);
    } finally {
      spooled.written();
    }
  }

  /** A job ended (or its printer holds it): its key keeps its final record, its spool entry goes. */
  private async release(job: JobRecord, spooled: boolean, key: string | null): Promise<void> {
    if (key && isFinished(job.state)) await this.keyEnded(key, job);
    if (spooled) await this.forget(job.jobId);
  }

  private async forget(jobId: string): Promise<void> {
    this.onDisk.delete(jobId);
    await this.deps.spool.remove(jobId);
  }
}
