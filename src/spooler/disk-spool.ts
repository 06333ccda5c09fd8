// The on-disk spool of `wait: false` jobs: written before the 201, removed when the job ends, replayed (and swept) at start.
import { promises as fs, mkdirSync, readdirSync, readFileSync, rmSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../errors';
import { isTemporary, syncDir, writeFileAtomic } from '../settings/atomic-file';
import { unlessStorageRefused } from '../util/storage-error';
import { silentLogger, type Logger } from '../log';
import { SpoolMarks } from './spool-marks';
import type { JobRecord } from '../schemas/job';
import type { DocumentSpec } from './document';
import type { PrintOptions } from '../schemas/print-options';

/** What a spooled job needs to be delivered after a restart. */
export interface SpoolEntry {
  /** Spooler sequence number: restart order per printer follows it. */
  seq: number;
  job: JobRecord;
  document: DocumentSpec;
  options: PrintOptions;
  /** The submission's idempotency key, so that a resubmission after a restart replays the job instead of printing it again. */
  idempotencyKey?: string;
}

/** A spooled job read back at start; `interrupted` when sending had begun before the restart; `attempts` how often it was taken up (rendered or sent) before. */
export interface RecoveredEntry {
  entry: SpoolEntry;
  interrupted: boolean;
  attempts: number;
}

/**
 * One folder of `<jobId>.json` (+ `.data` inline bytes), both written atomically, and `marks.log` (each job's attempts
 * and whether its sending began); an entry with its bytes is a job. It holds at most `maxBytes` of entries and inline
 * bytes, so jobs cannot fill the flash.
 */
export class DiskSpool {
  /** False while the folder could not be made (a full or read-only partition at start): each put tries again. */
  private folderReady: boolean;
  /** Bytes of each stored job (entry and inline bytes), by job id. */
  private readonly sizes = new Map<string, number>();
  private used = 0;
  private readonly marks: SpoolMarks;

  /** Creates the folder when it can (on a read-only or full partition it may stay missing until a put can make it); holds at most `maxBytes`. */
  constructor(
    private readonly dir: string,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
    logger: Logger = silentLogger,
  ) {
    this.folderReady = tryMakeFolder(dir);
    this.marks = new SpoolMarks(join(dir, MARKS_FILE), logger);
  }

  /** Whether `bytes` more (inline bytes of new jobs) fit under the byte limit; `hasRoom()` whether anything does. */
  hasRoom(bytes = 0): boolean {
    return bytes === 0 ? this.used < this.maxBytes : this.used + bytes <= this.maxBytes;
  }

  /** Bytes the stored jobs take now. */
  usedBytes(): number {
    return this.used;
  }

  /**
   * Persists a job and its inline bytes; resolves once both are on disk (power-loss safe: one folder sync covers both
   * names), or rejects leaving nothing of the job behind.
   */
  async put(entry: SpoolEntry, data: Uint8Array | null): Promise<void> {
    const jobId = entry.job.jobId;
    this.folderReady ||= tryMakeFolder(this.dir);
    const json = JSON.stringify(entry);
    this.count(jobId, (data?.byteLength ?? 0) + Buffer.byteLength(json));
    // both files at once, then one folder sync for both names: until put resolves nothing was acknowledged, and an
    // entry a crash leaves without its bytes is swept at the next load
    const writes = [writeFileAtomic(this.file(jobId, 'json'), json, UNSYNCED_FOLDER)];
    if (data) writes.push(writeFileAtomic(this.file(jobId, 'data'), data, UNSYNCED_FOLDER));
    const failed = (await Promise.allSettled(writes)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      this.uncount(jobId);
      await Promise.all(['json', 'data'].map((ext) => fs.unlink(this.file(jobId, ext)).catch(() => undefined)));
      throw failed.reason;
    }
    await syncDir(this.dir);
  }

  /**
   * Records that sending began, so a restart does not send the job twice. Survives a crash of the process (the page
   * cache keeps it) but is not synced: after a power loss in that window the job counts as not sent (a duplicate, at worst).
   * A full or read-only partition skips the marker: the job still prints (a restart in that window may send it again).
   */
  async markSending(jobId: string): Promise<void> {
    await this.marks.sending(jobId).catch(unlessStorageRefused);
  }

  /**
   * Counts one more time the job was taken up (before its render or send), so a job that crashes the device is not
   * tried forever; like markSending, kept across a process crash, not synced, and skipped when the partition refuses it.
   */
  async markStarted(jobId: string): Promise<void> {
    await this.marks.started(jobId).catch(unlessStorageRefused);
  }

  /** The inline bytes of a spooled job, read when it is sent (held and queued jobs keep none in memory). */
  async readData(jobId: string): Promise<Buffer> {
    return fs.readFile(this.file(jobId, 'data'));
  }

  /** Forgets a job (it completed or failed): the entry goes first, so a crash midway leaves only files the next load sweeps. */
  async remove(jobId: string): Promise<void> {
    await unlinkIfPresent(this.file(jobId, 'json'));
    await unlinkIfPresent(this.file(jobId, 'data'));
    this.marks.forget(jobId);
    this.uncount(jobId);
  }

  /** Closes the markers' journal (at shutdown, once no job runs). */
  close(): Promise<void> {
    return this.marks.close();
  }

  /**
   * Every spooled job, oldest sequence first. Also removes what a crash or a failed write left: temporaries, bytes and
   * markers without an entry, entries whose inline bytes are missing, unreadable entries; each is reported through `onBad`.
   */
  load(onBad: (file: string, reason: string) => void): RecoveredEntry[] {
    const names = existsSync(this.dir) ? readdirSync(this.dir) : [];
    const entries = new Set(names.filter(isEntryFile).map((name) => name.slice(0, -'.json'.length)));
    this.marks.load((jobId) => entries.has(jobId));
    const out: RecoveredEntry[] = [];
    for (const name of names.filter(isEntryFile)) {
      const recovered = this.read(name.slice(0, -'.json'.length), onBad);
      if (recovered) out.push(recovered);
    }
    this.sweep(names, new Set(out.map((r) => r.entry.job.jobId)), onBad);
    for (const { entry } of out) this.sizes.set(entry.job.jobId, this.sizeOnDisk(entry.job.jobId));
    this.used = [...this.sizes.values()].reduce((sum, n) => sum + n, 0);
    return out.sort((a, b) => a.entry.seq - b.entry.seq);
  }

  /** One entry with its bytes and marker; null (its files removed, reported) when unreadable or its inline bytes are gone. */
  private read(jobId: string, onBad: (file: string, reason: string) => void): RecoveredEntry | null {
    const name = `${jobId}.json`;
    let reason: string;
    try {
      const entry = JSON.parse(readFileSync(this.file(jobId, 'json'), 'utf8')) as SpoolEntry;
      if (entry.document.source.kind !== 'inline' || existsSync(this.file(jobId, 'data'))) {
        const marks = this.marks.of(jobId);
        return { entry, interrupted: marks.sending, attempts: marks.attempts };
      }
      reason = 'its inline document bytes are missing';
    } catch (err) {
      reason = (err as Error).message;
    }
    this.removeNow(jobId);
    this.marks.forget(jobId);
    onBad(name, `${reason}; removed`);
    return null;
  }

  /** Removes temporaries, and `.data` files (or the per-file markers of old) of jobs that have no readable entry. */
  private sweep(names: string[], kept: Set<string>, onBad: (file: string, reason: string) => void): void {
    for (const name of names) {
      const reason = isTemporary(name) ? 'temporary of an interrupted write' : orphanOf(name, kept) ? 'no spool entry for it' : null;
      if (!reason) continue;
      removeQuietly(join(this.dir, name));
      onBad(name, `${reason}; removed`);
    }
  }

  /** Takes `bytes` of the byte limit for a job; AppError SPOOL_FULL (nothing taken) when they do not fit. */
  private count(jobId: string, bytes: number): void {
    if (this.used + bytes > this.maxBytes) {
      throw new AppError('SPOOL_FULL', `the spool holds ${this.used} bytes of jobs (at most ${this.maxBytes}); try again once some have printed`, { headers: { 'Retry-After': '5' } });
    }
    this.uncount(jobId);
    this.sizes.set(jobId, bytes);
    this.used += bytes;
  }

  private uncount(jobId: string): void {
    this.used -= this.sizes.get(jobId) ?? 0;
    this.sizes.delete(jobId);
  }

  /** Bytes of a job's entry and inline bytes as found on disk. */
  private sizeOnDisk(jobId: string): number {
    return ['json', 'data'].reduce((sum, ext) => sum + (existsSync(this.file(jobId, ext)) ? statSync(this.file(jobId, ext)).size : 0), 0);
  }

  private removeNow(jobId: string): void {
    for (const ext of ['json', 'data']) removeQuietly(this.file(jobId, ext));
  }

  private file(jobId: string, ext: string): string {
    return join(this.dir, `${jobId}.${ext}`);
  }
}

function isEntryFile(name: string): boolean {
  return name.endsWith('.json') && !name.startsWith('.');
}

/** Entry and bytes: synced before their rename; the folder is synced once for both. */
const UNSYNCED_FOLDER = { backup: false, syncFolder: false };
/** The markers' journal, beside the entries. */
const MARKS_FILE = 'marks.log';

/** Removes a file; a missing one is fine. */
async function unlinkIfPresent(file: string): Promise<void> {
  try {
    await fs.unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** True for `<jobId>.data` (or a `.sending` or `.started` marker file of old) when the job is not in `kept` (its entry was never written or is gone). */
function orphanOf(name: string, kept: Set<string>): boolean {
  const match = /^([^.].*)\.(data|sending|started)$/.exec(name);
  return match !== null && !kept.has(match[1]);
}

/** Removes a file; what cannot be removed (a folder in its place) stays, to be reported again at the next start. */
function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // left for the operator
  }
}

/** mkdir -p; false when the partition refuses it (read-only or full: it holds no spooled job anyway, puts answer 507). */
function tryMakeFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return true;
  } catch {
    return false;
  }
}
