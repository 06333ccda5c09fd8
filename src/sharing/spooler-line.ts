// Raw-port jobs wait in one line, in order of arrival, while the spooler is full, and are stored as room comes back.
import { AppError } from '../errors';
import { sleep } from '../util/sleep';

/** One job in the line. */
export interface LineJob {
  /** Stores the job; rejects AppError QUEUE_FULL or SPOOL_FULL while the spooler has no room for it. */
  store: () => Promise<void>;
  /** Resets the connection waiting for the job (its descriptor is then free); false when it holds none, nothing done. */
  reclaim: () => boolean;
}

/** How the line waits. */
export interface SpoolerLineOptions {
  /** Longest a job waits for room, in ms; then it is given up (rejected as the spooler's last refusal). */
  waitMs: number;
  /** Pause between tries of the job at the head while the spooler is full, in ms. */
  retryMs: number;
  /** False while the spooler surely takes no job (job count or spool bytes at their limit): the head is not tried then. */
  hasRoom: () => boolean;
}

interface Waiter {
  job: LineJob;
  /** When the job is given up, in ms since the epoch. */
  deadline: number;
  /** The job's `store` is running: it may not be reclaimed any more. */
  storing: boolean;
  settle: (err?: unknown) => void;
}

/** True for the refusals that pass as jobs end: the queue's job count or the spool's byte limit reached. */
function busy(err: unknown): boolean {
  return err instanceof AppError && (err.code === 'QUEUE_FULL' || err.code === 'SPOOL_FULL');
}

/** A first-in first-out line of jobs for the spooler: none overtakes one that waits, so every waiting job gets its turn. */
export class SpoolerLine {
  private readonly waiters: Waiter[] = [];
  private pumping = false;
  private readonly closing = new AbortController();

  constructor(private readonly options: SpoolerLineOptions) {}

  /**
   * Stores `job` once every job before it is stored (at once when none waits and there is room); rejects with the
   * spooler's refusal (any but busy at once, busy after `waitMs`), or TOO_BUSY when reclaimed or the line closes.
   */
  add(job: LineJob): Promise<void> {
    if (this.closing.signal.aborted) return Promise.reject(new AppError('TOO_BUSY', 'raw port closing'));
    return new Promise((resolve, reject) => {
      let open = true;
      const settle = (err?: unknown) => {
        if (!open) return;
        open = false;
        if (err === undefined) resolve();
        else reject(err instanceof Error ? err : new Error(String(err)));
      };
      this.waiters.push({ job, deadline: Date.now() + this.options.waitMs, storing: false, settle });
      void this.pump();
    });
  }

  /** Jobs waiting (the one being stored included). */
  size(): number {
    return this.waiters.length;
  }

  /** Resets the connection of the oldest waiting job that holds one (its job is given up); false when none does. */
  reclaim(): boolean {
    for (let i = 0; i < this.waiters.length; i += 1) {
      const waiter = this.waiters[i];
      if (waiter.storing || !waiter.job.reclaim()) continue;
      this.waiters.splice(i, 1);
      waiter.settle(new AppError('TOO_BUSY', 'waited for room in the spooler; its connection was reset to free a descriptor'));
      return true;
    }
    return false;
  }

  /** Gives up every waiting job (TOO_BUSY); later jobs are refused at once. */
  close(): void {
    this.closing.abort();
    for (const waiter of this.waiters.splice(0)) if (!waiter.storing) waiter.settle(new AppError('TOO_BUSY', 'raw port closing'));
  }

  /** Stores the head while there is room; while there is none, gives up the jobs past their deadline and tries again later. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiters.length > 0 && !this.closing.signal.aborted) {
        const refusal = this.options.hasRoom() ? await this.storeHead() : new AppError('QUEUE_FULL', 'the spooler holds no more jobs');
        if (refusal === null) continue;
        this.expire(refusal);
        if (this.waiters.length > 0) await sleep(this.options.retryMs, this.closing.signal);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Tries the job at the head: null when it left the line (stored, or refused for good), else the busy refusal. */
  private async storeHead(): Promise<unknown> {
    const head = this.waiters[0];
    head.storing = true;
    try {
      await head.job.store();
      this.leave(head);
      return null;
    } catch (err) {
      head.storing = false;
      if (busy(err)) return err;
      this.leave(head, err);
      return null;
    }
  }

  /** Gives up, with `refusal`, the jobs that waited their `waitMs` (the oldest are first in line). */
  private expire(refusal: unknown): void {
    const now = Date.now();
    while (this.waiters.length > 0 && this.waiters[0].deadline <= now) this.waiters.shift()!.settle(refusal);
  }

  private leave(waiter: Waiter, err?: unknown): void {
    const at = this.waiters.indexOf(waiter);
    if (at >= 0) this.waiters.splice(at, 1);
    waiter.settle(err);
  }
}
