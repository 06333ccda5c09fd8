// The on-disk spool of `wait: false` jobs: written before the 201, removed when the job ends, replayed at start.
import { promises as fs, mkdirSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../settings/atomic-file';
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
}

/** A spooled job read back at start; `interrupted` when sending had begun before the restart; `attempts` how often it was taken up (rendered or sent) before. */
export interface RecoveredEntry {
  entry: SpoolEntry;
  /** True when the job has inline bytes on disk (read them with readData when sending). */
  hasData: boolean;
  interrupted: boolean;
  attempts: number;
}

/** One folder of `<jobId>.json` (+ `.data` inline bytes, `.sending` marker), all written atomically. */
export class DiskSpool {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Persists a job and its inline bytes; resolves once both are on disk. */
  async put(entry: SpoolEntry, data: Uint8Array | null): Promise<void> {
    if (data) await writeFileAtomic(this.file(entry.job.jobId, 'data'), data);
    await writeFileAtomic(this.file(entry.job.jobId, 'json'), JSON.stringify(entry));
  }

  /** Records that sending began, so a restart does not send the job twice. */
  async markSending(jobId: string): Promise<void> {
    await writeFileAtomic(this.file(jobId, 'sending'), '');
  }

  /** Counts one more time the job was taken up (before its render or send), so a job that crashes the device is not tried forever. */
  async markStarted(jobId: string): Promise<void> {
    await writeFileAtomic(this.file(jobId, 'started'), String(this.attempts(jobId) + 1));
  }

  /** The inline bytes of a spooled job, read when it is sent (held and queued jobs keep none in memory). */
  async readData(jobId: string): Promise<Buffer> {
    return fs.readFile(this.file(jobId, 'data'));
  }

  /** Forgets a job (it completed or failed). */
  async remove(jobId: string): Promise<void> {
    await Promise.all(['json', 'data', 'sending', 'started'].map((ext) => fs.rm(this.file(jobId, ext), { force: true })));
  }

  private attempts(jobId: string): number {
    try {
      return Number.parseInt(readFileSync(this.file(jobId, 'started'), 'utf8'), 10) || 0;
    } catch {
      return 0;
    }
  }

  /** Every spooled job, oldest sequence first; unreadable entries are skipped and reported through `onBad`. */
  load(onBad: (file: string, reason: string) => void): RecoveredEntry[] {
    const out: RecoveredEntry[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.json') || name.startsWith('.')) continue;
      try {
        const entry = JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as SpoolEntry;
        const id = entry.job.jobId;
        out.push({ entry, hasData: existsSync(this.file(id, 'data')), interrupted: existsSync(this.file(id, 'sending')), attempts: this.attempts(id) });
      } catch (err) {
        onBad(name, (err as Error).message);
      }
    }
    return out.sort((a, b) => a.entry.seq - b.entry.seq);
  }

  private file(jobId: string, ext: string): string {
    return join(this.dir, `${jobId}.${ext}`);
  }
}
