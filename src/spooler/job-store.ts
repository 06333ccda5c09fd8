// In-memory job records: 1-hour retention, a 10,000-record cap (oldest finished first), idempotency keys; a record
// that has ended is packed into columns (PackedJobs) once it is settled.
import { isFinished, type JobRecord } from '../schemas/job';
import { PackedJobs } from './packed-jobs';

/** Limits of the store; `now` is injectable. */
export interface JobStoreOptions {
  /** How long a record and an idempotency key live, in ms (seed 8: 1 hour). */
  retentionMs: number;
  /** Most records kept (decisions.md: 10,000). */
  maxRecords: number;
  now?: () => number;
}

/** Holds job records in creation order and maps idempotency keys to the jobs they created. */
export class JobStore {
  /** Records in creation order: the live object while a job runs, its slot in `packed` once settled. */
  private readonly jobs = new Map<string, JobRecord | number>();
  private readonly packed = new PackedJobs();
  private readonly keys = new Map<string, { at: number; jobIds: string[] }>();
  /** Live records added unfinished and not yet seen finished: what unfinished() counts, without walking every record. */
  private readonly live = new Set<JobRecord>();
  private readonly now: () => number;

  constructor(private readonly options: JobStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Adds a record (newest last) and evicts expired and surplus finished ones. */
  add(job: JobRecord): void {
    this.jobs.set(job.jobId, job);
    if (!isFinished(job.state)) this.live.add(job);
    this.evict();
  }

  /**
   * Packs the record of `job`, which has ended, so that it costs a fraction of an object while retained; called again
   * after a later change to it (`printedAt`). Later changes to the object itself are not seen; unfinished jobs are left.
   */
  settle(job: JobRecord): void {
    const held = this.jobs.get(job.jobId);
    if (held === undefined || !isFinished(job.state)) return;
    const slot = this.packed.pack(job, typeof held === 'number' ? held : undefined);
    if (slot >= 0) this.jobs.set(job.jobId, slot);
    else if (typeof held === 'number') {
      this.packed.release(held);
      this.jobs.set(job.jobId, job);
    }
  }

  /** The record of `jobId` while retained, else undefined (a settled record comes back as a new object). */
  get(jobId: string): JobRecord | undefined {
    const held = this.jobs.get(jobId);
    if (held === undefined) return undefined;
    if (this.expired(held)) {
      this.drop(jobId, held);
      return undefined;
    }
    return this.record(held);
  }

  /** Retained records, newest first. */
  list(): JobRecord[] {
    this.evict();
    return [...this.jobs.values()].reverse().map((held) => this.record(held));
  }

  /** How many retained jobs are queued or printing. */
  unfinished(): number {
    for (const job of this.live) if (isFinished(job.state) || this.jobs.get(job.jobId) !== job) this.live.delete(job);
    return this.live.size;
  }

  /** Jobs a live idempotency key created, or undefined. */
  byKey(key: string): JobRecord[] | undefined {
    const entry = this.keys.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at >= this.options.retentionMs) {
      this.keys.delete(key);
      return undefined;
    }
    const jobs = entry.jobIds.map((id) => this.jobs.get(id)).filter((held) => held !== undefined).map((held) => this.record(held));
    return jobs.length > 0 ? jobs : undefined;
  }

  /** Forgets `key`, so that a refused submission can be sent again with it. */
  forget(key: string): void {
    this.keys.delete(key);
  }

  /** Remembers that `key` created `jobIds` (first used `at`, default now), for the retention period from then. */
  remember(key: string, jobIds: string[], at = this.now()): void {
    this.keys.set(key, { at, jobIds });
  }

  private record(held: JobRecord | number): JobRecord {
    return typeof held === 'number' ? this.packed.unpack(held) : held;
  }

  private finished(held: JobRecord | number): boolean {
    return typeof held === 'number' || isFinished(held.state);
  }

  private expired(held: JobRecord | number): boolean {
    const created = typeof held === 'number' ? this.packed.createdMs(held) : Date.parse(held.createdAt);
    return this.now() - created >= this.options.retentionMs;
  }

  private drop(jobId: string, held: JobRecord | number): void {
    this.jobs.delete(jobId);
    if (typeof held === 'number') this.packed.release(held);
  }

  private evict(): void {
    for (const [jobId, held] of this.jobs) {
      if (!this.expired(held)) break;
      if (this.finished(held)) this.drop(jobId, held);
    }
    if (this.jobs.size <= this.options.maxRecords) return;
    for (const [jobId, held] of this.jobs) {
      if (this.jobs.size <= this.options.maxRecords) break;
      if (this.finished(held)) this.drop(jobId, held);
    }
    for (const [key, entry] of this.keys) {
      if (this.now() - entry.at < this.options.retentionMs) break;
      this.keys.delete(key);
    }
  }
}
