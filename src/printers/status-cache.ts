// Live printer status with a per-request time budget and a short cache (decisions.md: 1 s budget, 2 s reuse).
import type { LiveStatus } from '../schemas/printer';
import { withinBudget } from '../util/within-budget';

/** Status for a printer whose probe did not answer within the budget. */
export const UNKNOWN_STATUS: LiveStatus = { status: 'unknown', statusReasons: [] };

/** Options: the probe, the wait budget and cache lifetime in ms, an injectable clock. */
export interface StatusCacheOptions {
  probe: (path: string) => Promise<LiveStatus>;
  budgetMs: number;
  ttlMs: number;
  /** Called when a probe's answer differs from the printer's previous one (status or reasons). */
  onChange?: (path: string, live: LiveStatus) => void;
  now?: () => number;
}

/** Answers each printer's status within `budgetMs`, sharing one probe per printer and reusing it for `ttlMs`. */
export class StatusCache {
  private readonly cache = new Map<string, { at: number; value: LiveStatus }>();
  private readonly pending = new Map<string, Promise<LiveStatus>>();
  /** The last answer of each printer's probe, kept across invalidate(), to tell a change. */
  private readonly last = new Map<string, LiveStatus>();
  private readonly now: () => number;

  constructor(private readonly options: StatusCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The cached status of `path` when still fresh, synchronously; undefined otherwise. */
  fresh(path: string): LiveStatus | undefined {
    const hit = this.cache.get(path);
    return hit && this.now() - hit.at < this.options.ttlMs ? hit.value : undefined;
  }

  /** The status of `path`: cached when fresh, else probed; `unknown` when the probe outlasts the budget. */
  async get(path: string): Promise<LiveStatus> {
    const hit = this.cache.get(path);
    if (hit && this.now() - hit.at < this.options.ttlMs) return hit.value;
    const probe = this.pending.get(path) ?? this.start(path);
    return withinBudget(probe, this.options.budgetMs, hit?.value ?? UNKNOWN_STATUS);
  }

  /** Drops the cached status of `path` (after a job failed or the printer changed). */
  invalidate(path: string): void {
    this.cache.delete(path);
  }

  private start(path: string): Promise<LiveStatus> {
    const probe = this.options
      .probe(path)
      .catch((): LiveStatus => ({ status: 'offline', statusReasons: [] }))
      .then((value) => {
        const before = this.last.get(path);
        this.cache.set(path, { at: this.now(), value });
        this.last.set(path, value);
        if (!before || before.status !== value.status || before.statusReasons.join() !== value.statusReasons.join()) this.options.onChange?.(path, value);
        return value;
      })
      .finally(() => this.pending.delete(path));
    this.pending.set(path, probe);
    return probe;
  }
}
