// Whether the data partition can take writes: full or read-only flash becomes a warning in GET /status, not a crash.
import type { Logger } from '../log';
import { storageErrorCode } from '../util/storage-error';

/** What a look at the data partition found: bytes a write may still use, and whether it is mounted writable. */
export interface StorageProbe {
  freeBytes: number;
  writable: boolean;
}

/** Collaborators of the storage health. */
export interface StorageHealthDeps {
  /** Looks at the data partition (statfs and a write-access check on the data dir); rejects when it cannot be read at all. */
  probe: () => Promise<StorageProbe>;
  /** Below this many free bytes the partition counts as full (a settings write with its backup needs a few KiB). */
  minFreeBytes: number;
  logger: Logger;
}

/**
 * Tracks writes the data partition refused and what still waits to be stored. `check` looks at the partition, retries
 * what waits once there is room, and answers the warnings of GET /status (none once everything is stored and there is room).
 */
export class StorageHealth {
  /** What could not be stored, by name, with the error code of the last refusal. */
  private readonly refused = new Map<string, string>();
  /** Stores that wait for room, by name: each writes what memory holds and rejects when it still cannot. */
  private readonly waiting = new Map<string, () => Promise<void>>();
  private last: StorageProbe | null = null;
  private retrying: Promise<void> | null = null;

  constructor(private readonly deps: StorageHealthDeps) {}

  /** Records that `what` was stored: its refusal, if any, is over. */
  stored(what: string): void {
    if (this.refused.delete(what)) this.deps.logger.info('storage: stored again', { what });
  }

  /** Records that the data partition refused to store `what` (a storage error, or any other write error: `EIO`, say). */
  failed(what: string, err: unknown): void {
    const code = storageErrorCode(err) ?? (err as NodeJS.ErrnoException | null)?.code ?? 'error';
    if (this.refused.get(what) !== code) this.deps.logger.warn('storage: could not store', { what, code, reason: (err as Error | null)?.message });
    this.refused.set(what, code);
  }

  /** Records a refused store of `what` and keeps `store` to run again, once there is room, until it succeeds. */
  retryLater(what: string, err: unknown, store: () => Promise<void>): void {
    this.failed(what, err);
    this.waiting.set(what, store);
  }

  /** Looks at the partition, retries the waiting stores when there is room, and answers the warnings (empty when all is well). */
  async check(): Promise<string[]> {
    this.last = await this.deps.probe().catch(() => this.last);
    if (this.waiting.size > 0 && this.hasRoom()) await (this.retrying ??= this.retry().finally(() => (this.retrying = null)));
    return this.warnings();
  }

  /** While something waits to be stored, checks (and retries) every `intervalMs` without anyone asking; returns the stop. */
  retryEvery(intervalMs: number): () => void {
    const timer = setInterval(() => {
      if (this.waiting.size > 0) void this.check();
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** The warnings as of the last check and the writes since (without looking at the partition again). */
  warnings(): string[] {
    const readOnly = this.last?.writable === false || [...this.refused.values()].includes('EROFS');
    const low = this.last !== null && this.last.freeBytes < this.deps.minFreeBytes;
    if (!readOnly && !low && this.refused.size === 0) return [];
    const state = readOnly ? 'storage is read-only' : low ? `storage is full (${this.last?.freeBytes ?? 0} bytes free)` : 'storage refuses writes';
    const unsaved = this.refused.size > 0 ? `; not saved yet: ${[...this.refused].map(([what, code]) => `${what} (${code})`).join(', ')}` : '';
    return [`${state}: changes and wait:false jobs answer 507 until space is freed${unsaved}`];
  }

  private hasRoom(): boolean {
    return this.last !== null && this.last.writable && this.last.freeBytes >= this.deps.minFreeBytes;
  }

  /** Runs each waiting store once; a store that succeeds leaves the list and its refusal is over. */
  private async retry(): Promise<void> {
    for (const [what, store] of [...this.waiting]) {
      try {
        await store();
        this.waiting.delete(what);
        this.stored(what);
      } catch (err) {
        this.failed(what, err);
      }
    }
  }
}
