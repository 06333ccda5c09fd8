// One runtime per printer: its driver, its job queue, and the device lock shared by jobs, pre-flight and status
// probes (PAPPL's papplPrinterOpenDevice). It is the one place that changes a job's state, and emits each change.
import { DeviceError, toDeviceError } from '../errors';
import type { EventBus } from '../events/event-bus';
import { resolveFormat, type DeclaredFormat } from '../filters/document-format';
import type { FilterInput, PreparedDocument, PrinterLanguage } from '../filters/filters';
import type { PreflightOutcome, PrinterDetails, PrinterDriver } from '../kinds/printer-driver';
import type { Logger } from '../log';
import { isFinished, type JobRecord, type PrinterJobState } from '../schemas/job';
import type { PrintOptions } from '../schemas/print-options';
import type { LiveStatus, PrinterRecord } from '../schemas/printer';
import type { Readiness } from '../schemas/readiness';
import { LANGUAGES } from '../languages';
import { Mutex } from '../util/mutex';
import { PrintedTracker } from './printed-tracker';
import { SessionKeeper } from './session-keeper';
import { sleep } from '../util/sleep';
import { withinBudget } from '../util/within-budget';

/** What every runtime needs; shared by all of them. */
export interface RuntimeDeps {
  /** The printer's current record, or null once it is gone. */
  findPrinter: (path: string) => PrinterRecord | null;
  /** Opens a printer's driver (its kind's); kept while the record's connection, content and locator are unchanged. */
  openDriver: (printer: PrinterRecord) => PrinterDriver;
  /** True when an absent printer at `path` may come back (a USB printer unplugged): `wait: false` jobs are held for it. */
  mayReturn?: (path: string) => boolean;
  /** The language a printer consumes (its kind's). */
  languageOf: (printer: PrinterRecord) => PrinterLanguage;
  /** Turns a document into what the printer takes (filters; may render in the worker pool). */
  prepare: (input: FilterInput, signal: AbortSignal) => Promise<PreparedDocument>;
  bus: EventBus;
  logger: Logger;
  /** How often a queue held by a not-ready printer re-checks it, in ms. */
  holdRetryMs: number;
  /** Longest a `wait: false` job waits for a not-ready printer before failing, in ms. */
  maxHoldMs: number;
  now: () => number;
  /** Called when a job ends (to refresh the printer's cached status, and settle its record). */
  onJobEnded?: (job: JobRecord) => void;
  /** Called when an ended job's record changes again: its labels were confirmed printed (`printedAt`). */
  onJobPrinted?: (job: JobRecord) => void;
  /** Called with what a status probe learned about the printer (IPP capabilities). */
  onDetails?: (path: string, details: PrinterDetails) => void;
  /** How a label printer's buffer is followed after a job until its labels are out (events.md `job.printed`). */
  printed: { pollMs: number; maxFollowMs: number };
}

/** One job as the runtime runs it; the spooler keeps where its bytes come from and what is on disk. */
export interface JobWork {
  job: JobRecord;
  wait: boolean;
  options: PrintOptions;
  format: DeclaredFormat;
  /** Loads the document bytes (inline, fetched, or a local file). */
  load: (signal: AbortSignal) => Promise<Buffer>;
  /** Runs once the printer is ready, before the render (the disk spool counts the attempt). */
  beforePrepare: () => Promise<void>;
  /** Runs right before the first byte goes out (the disk spool marks the job as being sent). */
  beforeSend: () => Promise<void>;
  /** Runs once the runtime is done with the job (ended, or held by the printer): the disk spool forgets it. */
  release: () => Promise<void>;
  controller: AbortController;
  /** Set when pre-flight refused the job (the 503 body). */
  readiness?: Readiness;
}

/** Longest one live read of a printer-side job may take before the last known state is answered, ms. */
const LIVE_READ_BUDGET_MS = 1000;
/**
 * How long a printer's `ready` pre-flight answer also covers the jobs that were already queued when it was asked, ms:
 * a batch of jobs queued together is sent with one `~HS` (per this span), not one each. A job queued after the
 * question, or after a delivery failed, is asked for on its own.
 */
export const PREFLIGHT_COVERS_MS = 500;
/** How often a `wait: true` request reads its printer-side job while waiting for it to end, ms. */
const PRINTER_POLL_MS = 500;
/** Longest a `wait: true` request waits for its printer-side job to end before answering `printing`, ms. */
const PRINTER_WAIT_MS = 120_000;

/** The runtime of the printer at one path. */
export class PrinterRuntime {
  /** The render lane: jobs load and render one at a time, in arrival order. */
  private readonly queue = new Mutex();
  /** The send lane: jobs go out one at a time, in arrival order; the next job renders while one is in it. */
  private readonly sendLane = new Mutex();
  private readonly device = new Mutex();
  /** The connection kept open to the printer (raw TCP) from a job's turn while jobs follow back to back; see settleSession. */
  private readonly sessions = new SessionKeeper();
  private driverState: { key: string; driver: PrinterDriver; printed: PrintedTracker<JobRecord> | null } | null = null;
  /** Jobs queued or running here, by id. */
  private readonly active = new Map<string, JobWork>();
  /** Jobs the printer holds (accepted, not ended), with the controller whose abort cancels them at the printer. */
  private readonly tracked = new Map<string, AbortController>();
  /** The live read in flight per tracked job, shared by concurrent GETs. */
  private readonly reading = new Map<string, Promise<PrinterJobState | null>>();
  private readonly running = new Set<Promise<void>>();
  /** The last readiness while the queue waits for the printer to become ready. */
  private held: Readiness | null = null;
  /** Pre-flights asked so far; a job remembers the count when it is queued. */
  private asks = 0;
  private readonly queuedAfter = new WeakMap<JobWork, number>();
  /** The last pre-flight, when it answered `ready` and no delivery failed since: its number and when it was asked. */
  private lastReady: { ask: number; at: number } | null = null;
  private closed = false;

  constructor(readonly path: string, private readonly deps: RuntimeDeps) {}

  /** Announces a new job (state `queued`). */
  admit(job: JobRecord): void {
    this.emit(job);
  }

  /**
   * Queues `work` behind this printer's earlier jobs. It may render while `stored` (its disk write) is under way, but is
   * sent only once that resolved; when it rejects the job fails at once with SPOOL_WRITE (or its code). A `wait: true`
   * job to a printer whose queue is held asks the printer at once: still not ready fails it now (with `readiness`)
   * instead of waiting behind the held jobs.
   */
  async run(work: JobWork, stored: Promise<void> = Promise.resolve()): Promise<void> {
    this.active.set(work.job.jobId, work);
    this.queuedAfter.set(work, this.asks);
    const kept = stored.then(
      () => true,
      (err: unknown) => {
        this.finish(work.job, 'failed', toDeviceError(err, 'SPOOL_WRITE'));
        work.controller.abort();
        return false;
      },
    );
    if (work.wait && this.held && (await this.refusedNow(work))) {
      this.active.delete(work.job.jobId);
      return;
    }
    let whole: Promise<void> = Promise.resolve();
    // the render lane: one job at a time renders, and leaves the lane once it holds its place in the send lane
    await this.queue.run(async () => {
      if (this.closed) return;
      let entered!: () => void;
      const inLane = new Promise<void>((resolve) => (entered = resolve));
      whole = this.execute(work, entered, kept);
      this.running.add(whole);
      void whole.finally(() => this.running.delete(whole));
      await Promise.race([inLane, whole]);
    });
    await whole;
  }

  /** Cancels a queued or printing job (at the printer too, for one it holds): `failed`, "Canceled". False when not here. */
  cancel(job: JobRecord): boolean {
    const controller = this.active.get(job.jobId)?.controller ?? this.tracked.get(job.jobId);
    if (!controller && !this.active.has(job.jobId)) return false;
    this.finish(job, 'failed', new DeviceError('CANCELED', 'Canceled'));
    controller?.abort();
    return true;
  }

  /** Fails a job that never reached the queue (spool write refused, a restart interrupted it). */
  fail(job: JobRecord, error: DeviceError): void {
    this.finish(job, 'failed', error);
  }

  /** True while the printer holds `jobId` (accepted, not ended): its state is read live. */
  tracks(jobId: string): boolean {
    return this.tracked.has(jobId);
  }

  /** The readiness a not-ready printer answered while its queue waits for it (IPP printer-state-reasons), else null. */
  get heldReadiness(): Readiness | null {
    return this.held;
  }

  /** True while a job holds the device (its bytes are being sent): a background probe waits for a quiet moment. */
  get transferring(): boolean {
    return this.device.busy;
  }

  /** Live status, probed through the device lock; while a job holds it, over the printer's control channel when it has one. */
  async status(): Promise<LiveStatus> {
    const printer = this.deps.findPrinter(this.path);
    if (!printer) return { status: 'offline', statusReasons: [] };
    const driver = this.driverOf(printer);
    const control = driver.controlStatus?.bind(driver);
    const { details, ...live } = await (control && this.device.busy ? control() : this.device.run(() => driver.status()));
    if (details) this.deps.onDetails?.(this.path, details);
    return live;
  }

  /** Asks the printer a host status query through the device lock (between jobs); null when it stays silent or takes none. */
  async hostQuery(command: Uint8Array, complete: (reply: Buffer) => boolean): Promise<Buffer | null> {
    const printer = this.deps.findPrinter(this.path);
    const driver = printer ? this.driverOf(printer) : null;
    if (!driver?.hostQuery) return null;
    const ask = driver.hostQuery.bind(driver);
    return this.device.run(() => ask(command, complete)).catch(() => null);
  }

  /** Takes a tracked job's state from its printer (live, within the budget); keeps the last known state when it cannot. */
  async refresh(job: JobRecord): Promise<void> {
    if (isFinished(job.state) || !this.tracked.has(job.jobId)) return;
    const live = await withinBudget(this.reading.get(job.jobId) ?? this.readLive(job), LIVE_READ_BUDGET_MS, null);
    if (!live || isFinished(job.state)) return;
    if (live.state === 'completed') this.finish(job, 'completed', null);
    else if (live.state === 'failed') this.finish(job, 'failed', new DeviceError('IO', live.error ?? 'the printer failed the job'));
    else this.setState(job, live.state);
  }

  /** `wait: true`: reads a tracked job every PRINTER_POLL_MS until it ends at the printer, for at most PRINTER_WAIT_MS. */
  async follow(job: JobRecord): Promise<void> {
    const deadline = this.deps.now() + PRINTER_WAIT_MS;
    for (;;) {
      const controller = this.tracked.get(job.jobId);
      if (!controller || this.closed) return;
      await this.refresh(job);
      if (isFinished(job.state) || this.deps.now() >= deadline) return;
      await sleep(PRINTER_POLL_MS, controller.signal);
    }
  }

  /** Stops starting jobs; queued `wait: true` jobs fail (nobody will answer them); resolves when running jobs ended or `graceMs` passed. */
  async close(graceMs: number, keepQueued: (work: JobWork) => boolean): Promise<void> {
    this.closed = true;
    this.driverState?.printed?.stop();
    for (const work of this.active.values()) {
      if (!keepQueued(work) && work.job.state === 'queued') this.finish(work.job, 'failed', new DeviceError('SHUTDOWN', 'the device is shutting down'));
    }
    await Promise.race([Promise.all(this.running), new Promise((r) => setTimeout(r, graceMs).unref())]);
  }

  /** Forgets tracked jobs `keep` no longer holds (expired records). */
  forget(keep: (jobId: string) => boolean): void {
    for (const id of this.tracked.keys()) if (!keep(id)) this.tracked.delete(id);
  }

  /**
   * Pre-flight → load → render → send. An idle printer is asked first, so one that is not ready costs no fetch and no
   * render; behind a job being sent, the next job renders meanwhile and is checked right before its own send (see
   * checkBeforeSend: a printer never waits for our CPU between two jobs). `entered` is called once the job was asked and
   * rendered and holds its place in the send lane (or ended): the next job may then render while this one is sent.
   * Nothing is sent before `kept` (its disk write) resolved true; a job never stored is not released.
   */
  private async execute(work: JobWork, entered: () => void, kept: Promise<boolean>): Promise<void> {
    const { job, controller } = work;
    let held = false;
    let leave: (() => void) | null = null;
    try {
      if (isFinished(job.state)) return;
      let printer = await this.awaitPrinter(work);
      if (!printer) return;
      // behind a job being sent to a ready printer this job renders meanwhile; otherwise (an idle printer, or one that
      // holds its queue) it waits for its turn and asks first; a held job keeps no bytes in memory
      const behind = this.sendLane.busy && !this.held;
      if (!behind) {
        leave = await this.enterSendLane();
        await this.openSession();
      }
      if (!behind && !this.covered(work) && !(await this.awaitReady(work, this.driverOf(printer)))) return;
      let prepared: PreparedDocument | null = await this.render(work, printer);
      if (behind) {
        leave = await this.enterSendLane();
        // once the device shuts down, a job rendered behind the one being sent stays queued (in the disk spool when wait: false)
        if (this.closed || isFinished(job.state)) return;
        await this.openSession();
        const verdict = await this.checkBeforeSend(work, printer);
        // a job that is not sent now drops what it rendered before waiting (a held queue may wait for an hour)
        if (verdict !== 'send') prepared = null;
        if (verdict === 'again') [printer, prepared] = await this.renderAgain(work);
      }
      entered();
      // nothing is sent before the job is on disk (a failed write already failed the job)
      if (!prepared || !printer || !(await kept) || isFinished(job.state)) return;
      this.setState(job, 'printing');
      await work.beforeSend();
      const doc = prepared;
      const driver = this.driverOf(printer);
      const [result, confirmed] = await this.device.run(async () => {
        const delivered = await driver.deliver(doc, controller.signal);
        // with no job waiting to follow, the connection closes now: its close confirms this job's delivery
        if (this.sendLane.waiting) return [delivered, this.sessions.confirmation()] as const;
        await this.sessions.close();
        return [delivered, null] as const;
      });
      if (confirmed) {
        // kept open for the next job: this one is done once the printer confirmed it read the bytes (the next job's
        // pre-flight answered on the connection, or its close); the next job goes on meanwhile
        const failure = confirmed.then(() => null, (err: unknown) => toDeviceError(err));
        await this.settleSession();
        leave?.();
        leave = null;
        const error = await failure;
        if (error) throw error;
      }
      if (result.printerJobId) job.cupsJobId = result.printerJobId;
      // a printer that holds the job is read live; without its job id there is nothing to read, so it counts as done
      held = Boolean(result.pending && result.printerJobId) && !isFinished(job.state);
      if (held) this.tracked.set(job.jobId, controller);
      else if (this.finish(job, 'completed', null)) this.followPrinted(job, doc);
    } catch (err) {
      this.lastReady = null;
      this.finish(job, 'failed', toDeviceError(err));
    } finally {
      if (leave) await this.settleSession();
      leave?.();
      entered();
      this.active.delete(job.jobId);
      // a job the printer accepted is the printer's to keep: it is not sent again after a restart; one never stored has nothing to release
      if ((isFinished(job.state) || held) && (await kept)) await work.release().catch(() => undefined);
    }
  }

  /** Opens the session of the printer's current driver for the job whose turn it is (kept from the job before when open). */
  private async openSession(): Promise<void> {
    const printer = this.deps.findPrinter(this.path);
    if (printer) await this.sessions.enter(this.driverOf(printer));
  }

  /**
   * Called by the job in the send lane as it leaves: the session stays open for a job waiting behind it (back to back),
   * else it is closed, through the device lock (a status probe may be using it); a failed close was this job's to report.
   */
  private async settleSession(): Promise<void> {
    if (!this.sendLane.waiting) await this.closeSession();
  }

  /** Closes the kept connection through the device lock (a status probe may be using it); a failed close is dropped. */
  private closeSession(): Promise<void> {
    return this.device.run(() => this.sessions.close()).catch(() => undefined);
  }

  /** Loads and renders a job's document for its printer; the disk spool counts the attempt first, unless `counted` already. */
  private async render(work: JobWork, printer: PrinterRecord, counted = false): Promise<PreparedDocument> {
    const bytes = await work.load(work.controller.signal);
    work.job.size = bytes.length;
    if (!counted) await work.beforePrepare();
    return this.deps.prepare(this.filterInput(work, printer, bytes), work.controller.signal);
  }

  /**
   * Right before the send of a job rendered while the job before it was being sent: `send` when its printer is still the
   * one it was rendered for and is ready (or covered); `refused` when it is not ready and the job is `wait: true`;
   * `again` when the printer was deleted or edited meanwhile, or is not ready for a `wait: false` job (see renderAgain).
   */
  private async checkBeforeSend(work: JobWork, renderedFor: PrinterRecord): Promise<'send' | 'refused' | 'again'> {
    const printer = this.deps.findPrinter(this.path);
    if (!printer || renderKey(printer) !== renderKey(renderedFor)) return 'again';
    if (this.covered(work)) return 'send';
    const outcome = await this.ask(this.driverOf(printer));
    if (outcome.kind !== 'not-ready') {
      this.held = null;
      return 'send';
    }
    if (!work.wait) return 'again';
    this.refuse(work, outcome.readiness);
    return 'refused';
  }

  /**
   * A job rendered ahead whose printer changed or is not ready, after it dropped that render: it goes the way of a job to
   * an idle printer (its printer found, asked until ready or refused, loaded and rendered again for the record as it is
   * now; the disk spool's attempt was counted once). Nulls when the job ended or is not sent.
   */
  private async renderAgain(work: JobWork): Promise<[PrinterRecord | null, PreparedDocument | null]> {
    const printer = await this.awaitPrinter(work);
    if (!printer || !(await this.awaitReady(work, this.driverOf(printer)))) return [null, null];
    return [printer, await this.render(work, printer, true)];
  }

  /** One pre-flight through the device lock; a `ready` answer is kept for the jobs queued before it was asked. */
  private async ask(driver: PrinterDriver): Promise<PreflightOutcome> {
    this.asks += 1;
    const ask = this.asks;
    const at = this.deps.now();
    const outcome = await this.device.run(() => driver.preflight());
    this.lastReady = outcome.kind === 'ready' ? { ask, at } : null;
    return outcome;
  }

  /** True when the printer answered `ready` to a pre-flight asked after `work` was queued, within PREFLIGHT_COVERS_MS, and no delivery failed since. */
  private covered(work: JobWork): boolean {
    const last = this.lastReady;
    return last !== null && last.ask > (this.queuedAfter.get(work) ?? Infinity) && this.deps.now() - last.at <= PREFLIGHT_COVERS_MS;
  }

  /** Takes the job's place in the send lane now (arrival order); resolves with its release once every job before it was sent. */
  private enterSendLane(): Promise<() => void> {
    return new Promise((entered) => void this.sendLane.run(() => new Promise<void>((leave) => entered(leave))));
  }

  private filterInput(work: JobWork, printer: PrinterRecord, bytes: Buffer): FilterInput {
    const { job } = work;
    return {
      bytes,
      format: resolveFormat(work.format, bytes),
      language: this.deps.languageOf(printer),
      printer: { dpi: printer.dpi, dither: printer.dither, paperWidth: printer.paperWidth, model: printer.model },
      title: job.title,
      userName: job.source ?? 'printproxyd',
      options: work.options,
    };
  }

  /**
   * The job's printer. One that is absent but may come back (an unplugged USB printer, or one not listed yet) holds a
   * `wait: false` job, as a not-ready printer does, up to maxHoldMs; null when the job ended meanwhile (or the queue closed).
   */
  private async awaitPrinter(work: JobWork): Promise<PrinterRecord | null> {
    const started = this.deps.now();
    for (;;) {
      const printer = this.deps.findPrinter(this.path);
      if (printer) return printer;
      const mayReturn = this.deps.mayReturn?.(this.path) ?? false;
      if (!mayReturn) throw new DeviceError('DEVICE_GONE', `printer ${this.path} no longer exists`);
      if (work.wait || this.deps.now() - started >= this.deps.maxHoldMs) throw new DeviceError('NO_DEVICE', `printer ${this.path} is not connected`);
      await sleep(this.deps.holdRetryMs, work.controller.signal);
      if (isFinished(work.job.state) || this.closed) return null;
    }
  }

  /** Pre-flight under the device lock; `wait: true` jobs fail when not ready, `wait: false` jobs hold the queue until ready. */
  private async awaitReady(work: JobWork, driver: PrinterDriver): Promise<boolean> {
    const started = this.deps.now();
    for (;;) {
      const outcome = await this.ask(driver);
      if (outcome.kind !== 'not-ready') {
        this.held = null;
        return true;
      }
      if (work.wait || this.deps.now() - started >= this.deps.maxHoldMs) {
        this.refuse(work, outcome.readiness);
        return false;
      }
      this.held = outcome.readiness;
      // a held queue keeps no connection open while it waits
      await this.closeSession();
      await sleep(this.deps.holdRetryMs, work.controller.signal);
      await this.sessions.enter(driver);
      if (isFinished(work.job.state) || this.closed) {
        this.held = null;
        return false;
      }
    }
  }

  /** One pre-flight for a `wait: true` job while the queue is held; true when it refused the job. */
  private async refusedNow(work: JobWork): Promise<boolean> {
    const printer = this.deps.findPrinter(this.path);
    if (!printer) return false;
    const driver = this.driverOf(printer);
    const outcome = await this.ask(driver);
    if (outcome.kind !== 'not-ready') return false;
    this.refuse(work, outcome.readiness);
    return true;
  }

  private refuse(work: JobWork, readiness: Readiness): void {
    work.readiness = readiness;
    this.finish(work.job, 'failed', new DeviceError('NOT_READY', `Printer is not ready: ${readiness.errors.join('; ')}`));
  }

  /** The printer's driver, opened again when its connection, content or locator changed. */
  private driverOf(printer: PrinterRecord): PrinterDriver {
    const key = driverKey(printer);
    if (this.driverState?.key !== key) {
      this.driverState?.printed?.stop();
      const driver = this.deps.openDriver(printer);
      this.driverState = { key, driver, printed: this.printedTracker(driver) };
    }
    return this.driverState.driver;
  }

  /** A tracker of printed labels for a driver whose printer reports its buffer; null for the others. */
  private printedTracker(driver: PrinterDriver): PrintedTracker<JobRecord> | null {
    const unprinted = driver.unprintedFormats;
    if (!unprinted) return null;
    return new PrintedTracker<JobRecord>({
      unprinted: () => this.device.run(() => unprinted.call(driver)),
      onPrinted: (job) => this.markPrinted(job),
      pollMs: this.deps.printed.pollMs,
      maxFollowMs: this.deps.printed.maxFollowMs,
      maxSilentProbes: 3,
      silentPauseMs: 10 * 60_000,
      now: this.deps.now,
    });
  }

  /** Follows a completed job's labels through the printer's buffer, where the printer reports one. */
  private followPrinted(job: JobRecord, prepared: PreparedDocument): void {
    const tracker = this.driverState?.printed;
    const printer = this.deps.findPrinter(this.path);
    // the formats are counted by the printer's language (ZPL `^XA`); a language that cannot count them is not followed
    const count = printer ? LANGUAGES[this.deps.languageOf(printer)].countFormats : undefined;
    if (tracker && count && !this.closed) tracker.follow(job, count(prepared.bytes) * prepared.repeat);
  }

  private markPrinted(job: JobRecord): void {
    job.printedAt = new Date(this.deps.now()).toISOString();
    this.deps.onJobPrinted?.(job);
    this.deps.bus.emit('job.printed', { jobId: job.jobId, printerPath: this.path });
  }

  /** One Get-Job-Attributes (through the driver) for `job`, registered as in flight; null when it fails. */
  private readLive(job: JobRecord): Promise<PrinterJobState | null> {
    const printer = this.deps.findPrinter(this.path);
    const driver = printer ? this.driverOf(printer) : null;
    if (!driver?.jobState || !job.cupsJobId) return Promise.resolve(null);
    const read = driver
      .jobState(job.cupsJobId)
      .catch(() => null)
      .finally(() => this.reading.delete(job.jobId));
    this.reading.set(job.jobId, read);
    return read;
  }

  private setState(job: JobRecord, state: 'queued' | 'printing'): void {
    if (job.state === state) return;
    job.state = state;
    this.emit(job);
  }

  /** Ends a job once; false when it had already ended (a cancel won the race). */
  private finish(job: JobRecord, state: 'completed' | 'failed', error: DeviceError | null): boolean {
    if (isFinished(job.state)) return false;
    this.tracked.delete(job.jobId);
    job.state = state;
    job.error = error ? (error.code === 'CANCELED' ? 'Canceled' : error.message) : null;
    job.errorCode = error?.code ?? null;
    job.completedAt = new Date(this.deps.now()).toISOString();
    if (error) this.deps.logger.warn('job failed', { jobId: job.jobId, printer: job.printer, error: job.error });
    this.emit(job);
    this.deps.onJobEnded?.(job);
    return true;
  }

  private emit(job: JobRecord): void {
    this.deps.bus.emit('job.state', { ...job });
  }
}

/** What a printer's driver depends on: it is opened again when this changes. */
function driverKey(printer: PrinterRecord): string {
  return JSON.stringify([printer.connection, printer.content, printer.locator ?? null]);
}

/** What a job rendered for a printer depends on (its driver, language, resolution, dithering and paper width). */
function renderKey(printer: PrinterRecord): string {
  return JSON.stringify([driverKey(printer), printer.dpi ?? null, printer.dither ?? null, printer.paperWidth ?? null]);
}
