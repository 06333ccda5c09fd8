// The on-disk spool of `wait: false` jobs: written before the 201, removed when the job ends, replayed (and swept) at start.
import { existsSync, mkdirSync, promises as fs, readdirSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../errors';
import { isTemporary, syncDirSync } from '../settings/atomic-file';
import { unlessStorageRefused } from '../util/storage-error';
import { silentLogger, type Logger } from '../log';
import { SpoolMarks } from './spool-marks';
import { readSpoolFileData, readSpoolFileHead, spoolFileHead, writeSpoolFile, type SpoolData } from './spool-file';
import { moveOldEntry, oldEntries, oldFileJob } from './spool-migration';
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
 * One folder of `<jobId>.job` files (the entry as a line, then the inline bytes; each written atomically) and
 * `marks.log` (each job's attempts and whether its sending began). It holds at most `maxBytes` of job files, so jobs
 * cannot fill the flash.
 */
export class DiskSpool {
  /** False while the folder could not be made (a full or read-only partition at start): each put tries again. */
  private folderReady: boolean;
  /** Bytes of each stored job (entry and inline bytes), by job id. */
  private readonly sizes = new Map<string, number>();
  private used = 0;
  private readonly marks: SpoolMarks;
  /** Where each stored job's inline bytes are in its file. */
  private readonly data = new Map<string, SpoolData>();
  /** The folder, kept open to sync it after each new name (null: not open yet, or the filesystem refuses it). */
  private folder: Promise<FileHandle | null> | null = null;

  /** Creates the folder when it can (on a read-only or full partition it may stay missing until a put can make it); holds at most `maxBytes`. */
  constructor(
    private readonly dir: string,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
    logger: Logger = silentLogger,
  ) {
    this.folderReady = tryMakeFolder(dir);
    this.marks = new SpoolMarks(join(dir, MARKS_FILE), logger, (jobId) => this.sizes.has(jobId));
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
   * Persists a job and its inline bytes in one file; resolves once it is on disk (power-loss safe: the file synced, then
   * the folder), or rejects leaving nothing of the job behind.
   */
  async put(entry: SpoolEntry, data: Uint8Array | null): Promise<void> {
    const jobId = entry.job.jobId;
    this.folderReady ||= tryMakeFolder(this.dir);
    const head = spoolFileHead(entry, data);
    this.count(jobId, head.byteLength + (data?.byteLength ?? 0));
    try {
      this.data.set(jobId, await writeSpoolFile(this.file(jobId), head, data));
    } catch (err) {
      // markers written while the job rendered during the write are dropped with it
      this.uncount(jobId);
      this.marks.forget(jobId);
      throw err;
    }
    await this.syncFolder();
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
    const where = this.data.get(jobId);
    if (!where) throw new Error(`job ${jobId} is not in the spool`);
    return readSpoolFileData(this.file(jobId), where);
  }

  /** Forgets a job (it completed or failed): its file goes, then its markers and its count. */
  async remove(jobId: string): Promise<void> {
    await unlinkIfPresent(this.file(jobId));
    this.marks.forget(jobId);
    this.data.delete(jobId);
    this.uncount(jobId);
  }

  /** Closes the markers' journal and the folder (at shutdown, once no job runs). */
  async close(): Promise<void> {
    await this.marks.close();
    const folder = await this.folder;
    this.folder = null;
    await folder?.close().catch(() => undefined);
  }

  /**
   * Every spooled job, oldest sequence first. Also removes what a crash or a failed write left: temporaries, bytes and
   * markers without an entry, entries whose inline bytes are missing, unreadable entries; each is reported through `onBad`.
   */
  load(onBad: (file: string, reason: string) => void): RecoveredEntry[] {
    const found = existsSync(this.dir) ? readdirSync(this.dir) : [];
    const keptOld = this.migrate(found, onBad);
    const names = keptOld === null ? found : readdirSync(this.dir);
    this.sizes.clear();
    this.data.clear();
    const entries = names.filter(isJobFile).flatMap((name) => this.read(name.slice(0, -JOB_EXT.length), onBad) ?? []);
    // the markers of the jobs just read (the spool's `sizes`)
    this.marks.load();
    this.sweep(names, keptOld ?? new Set(), onBad);
    this.used = [...this.sizes.values()].reduce((sum, n) => sum + n, 0);
    const recovered = entries.map((entry) => ({ entry, interrupted: this.marks.of(entry.job.jobId).sending, attempts: this.marks.of(entry.job.jobId).attempts }));
    return recovered.sort((a, b) => a.entry.seq - b.entry.seq);
  }

  /** One job file's entry, counted; null (the file removed, reported) when it is unreadable, cut short, or an inline job without bytes. */
  private read(jobId: string, onBad: (file: string, reason: string) => void): SpoolEntry | null {
    let reason: string;
    try {
      const head = readSpoolFileHead(this.file(jobId));
      const entry = head.entry as unknown as SpoolEntry;
      if (entry.document.source.kind !== 'inline' || head.data.bytes !== null) {
        this.sizes.set(jobId, head.size);
        this.data.set(jobId, head.data);
        return entry;
      }
      reason = 'its inline document bytes are missing';
    } catch (err) {
      reason = (err as Error).message;
    }
    removeQuietly(this.file(jobId));
    onBad(`${jobId}${JOB_EXT}`, `${reason}; removed`);
    return null;
  }

  /**
   * Moves the entries of the spool's older layout to job files, their markers to lines (each reported); null when there
   * was none, else the ids of those kept as they are (their job file could not be written: tried again at the next start).
   */
  private migrate(names: string[], onBad: (file: string, reason: string) => void): Set<string> | null {
    const olds = oldEntries(names);
    if (olds.length === 0) return null;
    const kept = new Set<string>();
    for (const jobId of olds) {
      const result = moveOldEntry(this.dir, jobId, JOB_EXT);
      if (result.moved) {
        this.marks.adopt(jobId, { attempts: result.attempts, sending: result.sending });
        onBad(`${jobId}.json`, `moved to ${jobId}${JOB_EXT} (the spool's one-file layout)`);
      } else if (result.kept) {
        kept.add(jobId);
        onBad(`${jobId}.json`, `kept in the older layout until it can be moved: ${result.reason}`);
      } else {
        onBad(`${jobId}.json`, `${result.reason}; removed`);
      }
    }
    syncDirSync(this.dir);
    return kept;
  }

  /** Removes temporaries, and the files of the spool's older layout that belong to no entry kept in it. */
  private sweep(names: string[], keptOld: Set<string>, onBad: (file: string, reason: string) => void): void {
    for (const name of names) {
      const old = oldFileJob(name);
      const reason = isTemporary(name) ? 'temporary of an interrupted write' : old !== null && !keptOld.has(old) ? 'a file of an older spool layout' : null;
      if (!reason) continue;
      removeQuietly(join(this.dir, name));
      onBad(name, `${reason}; removed`);
    }
  }

  /** fsyncs the folder so that a new file's name survives a power loss; best effort, as syncDir (some filesystems refuse). */
  private async syncFolder(): Promise<void> {
    this.folder ??= fs.open(this.dir, 'r').catch(() => null);
    const handle = await this.folder;
    if (!handle) {
      this.folder = null;
      return;
    }
    await handle.sync().catch(() => undefined);
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

  private file(jobId: string): string {
    return join(this.dir, `${jobId}${JOB_EXT}`);
  }
}

function isJobFile(name: string): boolean {
  return name.endsWith(JOB_EXT) && !name.startsWith('.');
}

/** A job's file: `<jobId>.job`. */
const JOB_EXT = '.job';
/** The markers' journal, beside the job files. */
const MARKS_FILE = 'marks.log';

/** Removes a file; a missing one is fine. */
async function unlinkIfPresent(file: string): Promise<void> {
  try {
    await fs.unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
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
