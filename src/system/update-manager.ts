// The update state machine (device-image.md "Updates", "Health gate and rollback"): one update at a time, from a URL or
// an uploaded bundle, through RAUC, to the reboot; and on the first start after it, succeeded or rolled-back.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, promises as fs, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { AppError, BundleCheckError } from '../errors';
import type { Logger } from '../log';
import { FINAL_PHASES, type RebootPolicy, type SystemStatus, type UpdatePhase, type UpdateRecord, type UpdateRequest } from '../schemas/system';
import { appendStream, BUNDLE_MARGIN_BYTES, sizeOf, type FreeBytes } from './bundle-file';
import { downloadBundle } from './bundle-download';
import type { GateReport, TrialSlot } from './gate-report';
import type { RaucClient } from './rauc-client';
import type { RequestReboot } from './reboot-request';
import type { SealBundle } from './bundle-seal';
import { checkNotDowngrade, verifyBundle } from './update-checks';
import type { UpdateStore } from './update-store';

/** Collaborators and timings of the state machine (ms). */
export interface UpdateManagerDeps {
  store: UpdateStore;
  rauc: RaucClient;
  /** The slots now (RaucStatus.read). */
  status: () => Promise<SystemStatus>;
  freeBytes: FreeBytes;
  requestReboot: RequestReboot;
  /** Hands a checked bundle to RAUC (the root helper on a device); resolves with the path to install. */
  sealBundle: SealBundle;
  gateReport: GateReport;
  /**
   * The slot still on its trial boot: the health gate clears it once it marked the slot good. RAUC may call a slot good
   * before that (U-Boot: while it has boot tries left; GRUB: once marked active), so `succeeded` waits for both.
   */
  trialSlot: TrialSlot;
  /** True when no job is queued or printing (the `idle` reboot). */
  jobsIdle: () => boolean;
  /** Told each state worth an event (`system.update`): every phase change, progress at most every `progressEveryMs`. */
  emit: (record: UpdateRecord) => void;
  /** The daemon's own version: `from` when the booted slot has none recorded. */
  version: string;
  logger: Logger;
  now: () => number;
  /** How often the slot's good mark and the idle jobs are looked at (2 s). */
  pollMs: number;
  /** Progress events and writes at most this often (2 s). */
  progressEveryMs: number;
  /** Longest wait for the root health gate to mark the new slot good (15 min). */
  goodWaitMs: number;
  /** Longest wait for idle jobs before an `idle` reboot (10 min). */
  idleWaitMs: number;
  /** How long after a reboot request the daemon may still run before the update goes back to awaiting-reboot (10 min). */
  rebootWaitMs: number;
  /** Base wait between attempts of a broken download (2 s). */
  downloadRetryMs: number;
}

/** Options of an uploaded bundle (the query of the octet-stream form). */
export interface UploadOptions {
  version: string | null;
  sha256: string | null;
  reboot: RebootPolicy;
  allowDowngrade: boolean;
}

/** What a request for an update got: the update, and whether it is one a seen idempotency key had started. */
export interface UpdateAnswer {
  update: UpdateRecord;
  replay: boolean;
}

const RUNNING_BEFORE_INSTALL: readonly UpdatePhase[] = ['downloading', 'verifying', 'installing'];

/** Drives updates; `resume` once at start, then the routes' calls. */
export class UpdateManager {
  private chain: Promise<void> = Promise.resolve();
  private lastProgressAt = 0;
  /** A request between its checks and its record (an upload being received counts from its record). */
  private claimed = false;
  private task: Promise<void> | null = null;
  private readonly abort = new AbortController();

  constructor(private readonly deps: UpdateManagerDeps) {}

  /** The last update, or null before the first. */
  get current(): UpdateRecord | null {
    return this.deps.store.current;
  }

  /**
   * Reads the record and carries on where the last run stopped: an update interrupted before its install ended fails
   * (never retried by itself); one waiting for its reboot waits again; one rebooting gets the first-boot rule.
   */
  resume(): void {
    this.deps.store.load();
    const record = this.current;
    this.removeLeftovers();
    if (!record || FINAL_PHASES.includes(record.phase)) return;
    if (RUNNING_BEFORE_INSTALL.includes(record.phase)) {
      this.run(() => this.set({ phase: 'failed', error: `interrupted: the daemon stopped while ${record.phase}` }));
      return;
    }
    this.run(() => this.afterRestart(record));
  }

  /** Stops downloads and the waits (for a slot's good mark, for idle jobs), then lets the record's pending writes end; an install runs on (RAUC owns it). */
  async stop(): Promise<void> {
    this.abort.abort();
    if (this.current?.phase !== 'installing') await this.task?.catch(() => undefined);
    await this.chain;
  }

  /** POST /system/update with a URL: checks what can be checked now, then answers; the rest runs on (see the spec). */
  async requestUrl(req: UpdateRequest, key: string | null): Promise<UpdateAnswer> {
    const seen = this.seen(key);
    if (seen) return seen;
    this.claim();
    try {
      const from = await this.bootedVersion();
      checkNotDowngrade(req.version, from, req.allowDowngrade === true);
      const partial = join(this.deps.store.dir, `download-${req.sha256.toLowerCase()}.part`);
      // a partial download of this bundle is resumed; those of others are given up
      this.removeFiles((name) => name.startsWith('download-') && name !== basename(partial));
      await this.checkRoom(req.size - (await sizeOf(partial)));
      const record = this.newRecord(from, req.version, key, req.reboot ?? 'idle');
      await this.deps.store.start(record);
      this.deps.emit(record);
      this.run(() => this.fromUrl(req, partial, from));
      return { update: record, replay: false };
    } finally {
      this.claimed = false;
    }
  }

  /**
   * POST /system/update with the bundle as the body (`length` bytes): stored to the data partition as it arrives, then
   * checked; a refusal of the bundle ends the update failed and is thrown (4xx naming the check). Resolves once RAUC
   * may install it: the install and reboot run on.
   */
  async upload(body: Readable, length: number | null, options: UploadOptions, key: string | null): Promise<UpdateAnswer> {
    const seen = this.seen(key);
    if (seen) return seen;
    if (length === null) throw new AppError('INVALID_REQUEST', 'Content-Length is required: the bundle\'s size is checked against the free space before it is stored');
    this.claim();
    let record: UpdateRecord;
    let from: string | null;
    const file = join(this.deps.store.dir, `upload-${randomUUID()}.raucb`);
    try {
      from = await this.bootedVersion();
      if (options.version !== null) checkNotDowngrade(options.version, from, options.allowDowngrade);
      await this.checkRoom(length);
      record = this.newRecord(from, options.version, key, options.reboot);
      await this.deps.store.start(record);
      this.deps.emit(record);
    } finally {
      this.claimed = false;
    }
    try {
      const hash = createHash('sha256');
      let written: number;
      try {
        written = await appendStream(counted(body, (bytes) => this.progress(Math.floor((bytes * 100) / length))), file, hash, length);
      } catch (err) {
        if (err instanceof BundleCheckError) throw new BundleCheckError('size', `the body has more than its Content-Length of ${length} bytes`);
        throw new BundleCheckError('download', `the upload broke off: ${(err as Error).message}`);
      }
      if (written !== length) throw new BundleCheckError('size', `received ${written} of ${length} bytes`);
      const digest = hash.digest('hex');
      if (options.sha256 !== null && digest !== options.sha256.toLowerCase()) throw new BundleCheckError('sha256', `sha256 of the upload is ${digest}, not ${options.sha256.toLowerCase()}`);
      await this.set({ phase: 'verifying', progress: 0 });
      const version = await verifyBundle(this.deps.rauc, file, options.version, from, options.allowDowngrade).catch(systemUnavailable);
      if (version !== this.current?.to) await this.set({ to: version });
    } catch (err) {
      await fs.rm(file, { force: true });
      await this.set({ phase: 'failed', error: (err as Error).message });
      throw err;
    }
    // the answer tells what happens next: the checks passed, RAUC installs
    await this.set({ phase: 'installing', progress: 0 });
    this.run(() => this.install(file));
    return { update: this.current!, replay: false };
  }

  /** POST /system/reboot: an installed update goes to `rebooting` first; rejects with REBOOT_FAILED when the helper cannot be asked. */
  async reboot(): Promise<void> {
    if (this.current?.phase === 'awaiting-reboot') return this.enqueue(() => this.rebootNow());
    await this.deps.requestReboot();
  }

  /** POST /system/rollback: the other slot made primary when RAUC has it good, then the reboot; 409 while an update runs or when it is not good. */
  async rollback(): Promise<void> {
    const phase = this.current?.phase;
    if (this.claimed || (phase !== undefined && !FINAL_PHASES.includes(phase))) throw new AppError('UPDATE_RUNNING', `an update is ${this.claimed ? 'starting' : phase}; roll back once it has ended`);
    const status = await this.deps.status();
    const other = status.slots.find((slot) => slot.state !== 'booted' && slot.bootname !== status.bootSlot);
    if (!other) throw new AppError('ROLLBACK_REFUSED', 'RAUC reports no other root slot');
    if (other.good !== true) throw new AppError('ROLLBACK_REFUSED', `slot ${other.bootname ?? other.name} is not marked good (${other.good === false ? 'bad' : 'no boot state'})`);
    await this.deps.rauc.markOtherActive();
    await this.deps.requestReboot();
  }

  private seen(key: string | null): UpdateAnswer | null {
    const known = key === null ? null : this.deps.store.byKey(key);
    return known ? { update: known, replay: true } : null;
  }

  /** Takes the one place for an update; 409 UPDATE_RUNNING when one runs or another request holds it. */
  private claim(): void {
    const phase = this.current?.phase;
    if (this.claimed || (phase !== undefined && !FINAL_PHASES.includes(phase))) {
      const message = `an update is ${this.claimed ? 'starting' : phase}; one update at a time`;
      throw new AppError('UPDATE_RUNNING', message, { content: { message, update: this.current } });
    }
    this.claimed = true;
  }

  /** 507 UPDATE_NO_ROOM unless the data partition has `bytes` more than its margin free. */
  private async checkRoom(bytes: number): Promise<void> {
    const free = await this.deps.freeBytes(this.deps.store.dir);
    if (free < bytes + BUNDLE_MARGIN_BYTES) {
      throw new BundleCheckError('space', `the bundle needs ${bytes} bytes and ${BUNDLE_MARGIN_BYTES} to spare; ${free} are free on the data partition`);
    }
  }

  /** The booted slot's version, else the daemon's own; no RAUC, or one that cannot answer, is a 503. */
  private async bootedVersion(): Promise<string | null> {
    const status = await this.deps.status();
    if (status.bootSlot === null && status.slots.length === 0) throw new AppError('SYSTEM_UNAVAILABLE', 'updates go through RAUC, and this machine has none (no rauc command)');
    return status.slots.find((slot) => slot.state === 'booted')?.version ?? this.deps.version;
  }

  private newRecord(from: string | null, to: string | null, key: string | null, reboot: RebootPolicy): UpdateRecord {
    return { id: randomUUID(), phase: 'downloading', progress: 0, from, to, error: null, targetSlot: null, idempotencyKey: key, reboot, startedAt: new Date(this.deps.now()).toISOString() };
  }

  private async fromUrl(req: UpdateRequest, partial: string, from: string | null): Promise<void> {
    const bundle = join(this.deps.store.dir, `bundle-${this.current!.id}.raucb`);
    try {
      await downloadBundle(req.url, partial, req.size, req.sha256, {
        retryMs: this.deps.downloadRetryMs,
        maxStalls: 5,
        idleMs: DOWNLOAD_IDLE_MS,
        signal: this.abort.signal,
        onBytes: (bytes) => this.progress(Math.floor((bytes * 100) / req.size)),
      });
      await fs.rename(partial, bundle);
      await this.set({ phase: 'verifying', progress: 0 });
      await verifyBundle(this.deps.rauc, bundle, req.version, from, req.allowDowngrade === true);
    } catch (err) {
      await fs.rm(bundle, { force: true });
      await this.set({ phase: 'failed', error: (err as Error).message });
      return;
    }
    await this.install(bundle);
  }

  /** Installs a checked bundle (removed afterwards either way), then waits for the reboot as the update asked. */
  private async install(file: string): Promise<void> {
    try {
      if (this.current?.phase !== 'installing') await this.set({ phase: 'installing', progress: 0 });
      const sealed = await this.deps.sealBundle(file);
      await this.deps.rauc.install(sealed, (percent) => this.progress(percent));
      const status = await this.deps.status();
      const target = status.slots.find((slot) => slot.state !== 'booted' && slot.bootname !== status.bootSlot);
      await this.set({ phase: 'awaiting-reboot', progress: 100, targetSlot: target?.bootname ?? target?.name ?? null });
    } catch (err) {
      await this.set({ phase: 'failed', error: `install: ${(err as Error).message}` });
      return;
    } finally {
      await fs.rm(file, { force: true });
    }
    await this.afterInstall();
  }

  /** Reboots as the update asked: now, once idle (at most idleWaitMs), or on POST /system/reboot. */
  private async afterInstall(): Promise<void> {
    const policy = this.current!.reboot;
    if (policy === 'manual') return;
    if (policy === 'idle') {
      const deadline = this.deps.now() + this.deps.idleWaitMs;
      while (!this.deps.jobsIdle() && this.deps.now() < deadline && !this.abort.signal.aborted) await this.pause();
      if (this.abort.signal.aborted) return;
    }
    // the reboot may have been asked meanwhile (POST /system/reboot)
    if (this.current?.phase === 'awaiting-reboot') await this.enqueue(() => this.rebootNow());
  }

  /**
   * Writes `rebooting` (with the target slot) before asking the helper; a helper that cannot be asked, or a system still
   * up `rebootWaitMs` after the request, puts it back to awaiting-reboot, so that the reboot can be asked again and the
   * next update is not refused for ever.
   */
  private async rebootNow(): Promise<void> {
    await this.write({ phase: 'rebooting', error: null });
    try {
      await this.deps.requestReboot();
    } catch (err) {
      await this.write({ phase: 'awaiting-reboot', error: `reboot: ${(err as Error).message}` });
      throw err;
    }
    const asked = this.current?.id;
    const timer = setTimeout(() => {
      if (this.abort.signal.aborted || this.current?.id !== asked || this.current?.phase !== 'rebooting') return;
      const minutes = Math.max(1, Math.round(this.deps.rebootWaitMs / 60_000));
      void this.set({ phase: 'awaiting-reboot', error: `the system did not reboot within ${minutes} minutes of the request; ask again (POST /system/reboot)` }).catch(() => undefined);
    }, this.deps.rebootWaitMs);
    timer.unref();
    this.abort.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  }

  /** After a restart in awaiting-reboot or rebooting: the first-boot rule when the system rebooted, else wait for it again. */
  private async afterRestart(record: UpdateRecord): Promise<void> {
    const status = await this.statusWithin(this.deps.goodWaitMs);
    const booted = status?.bootSlot ?? null;
    if (record.phase === 'awaiting-reboot' && booted !== record.targetSlot) return this.afterInstall();
    if (booted === null || booted !== record.targetSlot) {
      const reason = await this.deps.gateReport(Date.parse(record.startedAt) - CLOCK_SLACK_MS);
      await this.set({ phase: 'rolled-back', error: reason ?? 'the new slot did not boot' });
      return;
    }
    // booted into the target: succeeded once the root health gate marked it good (and so cleared its trial)
    const deadline = this.deps.now() + this.deps.goodWaitMs;
    for (let current = status; ; current = await this.deps.status().catch(() => null)) {
      if (current?.slots.find((slot) => slot.bootname === booted)?.good === true && (await this.deps.trialSlot()) !== booted) {
        await this.set({ phase: 'succeeded', progress: 100, error: null });
        return;
      }
      if (this.deps.now() >= deadline) {
        await this.set({ phase: 'failed', error: `the health gate did not mark slot ${booted} good within ${Math.round(this.deps.goodWaitMs / 60_000)} minutes` });
        return;
      }
      if (this.abort.signal.aborted) return;
      await this.pause();
    }
  }

  /** RAUC's status, asked again every pollMs while its service is not up yet; null when it never answered within `limitMs`. */
  private async statusWithin(limitMs: number): Promise<SystemStatus | null> {
    const deadline = this.deps.now() + limitMs;
    for (;;) {
      try {
        return await this.deps.status();
      } catch (err) {
        if (this.deps.now() >= deadline || this.abort.signal.aborted) {
          this.deps.logger.warn('update: rauc status never answered', { error: (err as Error).message });
          return null;
        }
        await this.pause();
      }
    }
  }

  /** Records a download or install percentage: written and told at most every progressEveryMs. */
  private progress(percent: number): void {
    const now = this.deps.now();
    if (now - this.lastProgressAt < this.deps.progressEveryMs || percent === this.current?.progress) return;
    this.lastProgressAt = now;
    void this.set({ progress: percent }).catch(() => undefined);
  }

  /** Changes the current record (in order with every other change); resolves once on disk and told. */
  private set(patch: Partial<UpdateRecord>): Promise<void> {
    return this.enqueue(() => this.write(patch));
  }

  /** Writes a change to the current record; call inside the queue. A write that fails is logged (the change is not in force). */
  private async write(patch: Partial<UpdateRecord>): Promise<void> {
    const current = this.current;
    if (!current) return;
    const next = { ...current, ...patch };
    try {
      await this.deps.store.save(next);
    } catch (err) {
      this.deps.logger.error('update: the record could not be written', { phase: next.phase, error: (err as Error).message });
      throw err;
    }
    if (patch.phase !== undefined) this.lastProgressAt = this.deps.now();
    this.deps.emit(next);
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const result = this.chain.then(step);
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** Runs a background step of the update; what escapes it ends the update failed. */
  private run(step: () => Promise<void>): void {
    const task = step().catch(async (err: unknown) => {
      this.deps.logger.error('update failed', { error: err instanceof Error ? err.message : String(err) });
      const phase = this.current?.phase;
      if (phase !== undefined && RUNNING_BEFORE_INSTALL.includes(phase)) await this.set({ phase: 'failed', error: (err as Error).message }).catch(() => undefined);
    });
    this.task = task;
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.deps.pollMs);
      this.abort.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
  }

  /** Removes bundles a run that stopped left behind; a partial download is kept (a request for the same bundle resumes it). */
  private removeLeftovers(): void {
    this.removeFiles((name) => /^(upload|bundle)-.*\.raucb$/.test(name));
  }

  private removeFiles(pick: (name: string) => boolean): void {
    // no folder (a read-only data partition kept it from being made): nothing to remove
    const names = existsSync(this.deps.store.dir) ? readdirSync(this.deps.store.dir) : [];
    for (const name of names) if (pick(name)) rmSync(join(this.deps.store.dir, name), { force: true });
  }
}

/** The chunks of `source`, telling `onBytes` the count so far after each. */
async function* counted(source: AsyncIterable<Buffer>, onBytes: (bytes: number) => void): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of source) {
    yield chunk;
    bytes += chunk.byteLength;
    onBytes(bytes);
  }
}

/** A download attempt silent this long is given up and resumed by the next. */
const DOWNLOAD_IDLE_MS = 60_000;

/** The gate's report may be dated a little before the update's start when the clock was restored from a save at boot. */
const CLOCK_SLACK_MS = 3_600_000;

/** A RAUC status or compatible call that failed during the checks: 503 with RAUC's words, not a refused bundle. */
function systemUnavailable(err: unknown): never {
  if (err instanceof AppError) throw err;
  throw new AppError('SYSTEM_UNAVAILABLE', (err as Error).message, { cause: err });
}
