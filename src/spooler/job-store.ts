// In-memory job records: 1-hour retention, a 10,000-record cap (oldest finished first), idempotency keys.
import { isFinished, type JobRecord } from '../schemas/job';

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
  private readonly jobs = new Map<string, JobRecord>();
  private readonly keys = new Map<string, { at: number; jobIds: string[] }>();
  private readonly now: () => number;

  constructor(private readonly options: JobStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Adds a record (newest last) and evicts expired and surplus finished ones. */
  add(job: JobRecord): void {
    this.jobs.set(job.jobId, job);
    this.evict();
  }

  /** The record of `jobId` while retained, else undefined. */
  get(jobId: string): JobRecord | undefined {
    const job = this.jobs.get(jobId);
    if (job && this.expired(job)) {
      this.jobs.delete(jobId);
      return undefined;
    }
    return job;
  }

  /** Retained records, newest first. */
  list(): JobRecord[] {
    this.evict();
    return [...this.jobs.values()].reverse();
  }

  /** How many retained jobs are queued or printing. */
  unfinished(): number {
    let count = 0;
    for (const job of this.jobs.values()) if (!isFinished(job.state)) count += 1;
    return count;
  }

  /** Jobs a live idempotency key created, or undefined. */
  byKey(key: string): JobRecord[] | undefined {
    const entry = this.keys.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at >= this.options.retentionMs) {
      this.keys.delete(key);
      return undefined;
    }
    const jobs = entry.jobIds.map((id) => this.jobs.get(id)).filter((j): j is JobRecord => j !== undefined);
    return jobs.length > 0 ? jobs : undefined;
  }

  /** Forgets `key`, so that a refused submission can be sent again with it. */
  forget(key: string): void {
    this.keys.delete(key);
  }

  /** Remembers that `key` created `jobIds`, for the retention period. */
  remember(key: string, jobIds: string[]): void {
    this.keys.set(key, { at: this.now(), jobIds });
  }

  private expired(job: JobRecord): boolean {
    return this.now() - Date.parse(job.createdAt) >= this.options.retentionMs;
  }

  private evict(): void {
    for (const job of this.jobs.values()) {
      if (!this.expired(job)) break;
      if (isFinished(job.state)) this.jobs.delete(job.jobId);
    }
    if (this.jobs.size <= this.options.maxRecords) return;
    for (const job of this.jobs.values()) {
      if (this.jobs.size <= this.options.maxRecords) break;
      if (isFinished(job.state)) this.jobs.delete(job.jobId);
    }
    for (const [key, entry] of this.keys) {
      if (this.now() - entry.at < this.options.retentionMs) break;
      this.keys.delete(key);
    }
  }
}
