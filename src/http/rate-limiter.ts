// Counts failed API keys per address in a sliding window and blocks an address past the limit, in a bounded table.

/** Options: how many failures are tolerated within `windowMs`; how many addresses are remembered; `now` is injectable. */
export interface FailureLimiterOptions {
  maxFailures: number;
  windowMs: number;
  /** Addresses kept at most (default 4096); past it the one that failed least recently is forgotten. */
  maxAddresses?: number;
  now?: () => number;
}

/** Addresses remembered when the options do not say. */
export const DEFAULT_MAX_ADDRESSES = 4096;

/**
 * Per-address failure counter for brute-force protection (decisions.md: >20 in 60 s → 429). Each call costs O(1)
 * whatever the number of addresses: the table is in order of last failure, trimmed from its old end.
 */
export class FailureLimiter {
  /** Address → times of its last `maxFailures + 1` failures, oldest first; the Map is ordered by last failure. */
  private readonly failures = new Map<string, number[]>();
  private readonly now: () => number;
  private readonly maxAddresses: number;

  constructor(private readonly options: FailureLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.maxAddresses = options.maxAddresses ?? DEFAULT_MAX_ADDRESSES;
  }

  /** True when any address has a failure on record (lets callers skip reading the address). */
  anyFailures(): boolean {
    this.expireOldest();
    return this.failures.size > 0;
  }

  /** Addresses currently remembered. */
  get size(): number {
    return this.failures.size;
  }

  /** Seconds the address must wait, or 0 when it may try. */
  retryAfter(address: string): number {
    const recent = this.recent(address);
    if (recent.length <= this.options.maxFailures) return 0;
    return Math.max(1, Math.ceil((recent[0] + this.options.windowMs - this.now()) / 1000));
  }

  /** Records one failed attempt from `address`. */
  fail(address: string): void {
    const recent = this.recent(address);
    recent.push(this.now());
    if (recent.length > this.options.maxFailures + 1) recent.shift();
    this.failures.delete(address);
    this.failures.set(address, recent);
    this.expireOldest();
    while (this.failures.size > this.maxAddresses) this.failures.delete(this.failures.keys().next().value as string);
  }

  private recent(address: string): number[] {
    const cutoff = this.now() - this.options.windowMs;
    const list = (this.failures.get(address) ?? []).filter((t) => t > cutoff);
    if (list.length === 0) this.failures.delete(address);
    return list;
  }

  /** Drops up to two addresses from the old end whose last failure left the window (amortised O(1)). */
  private expireOldest(): void {
    const cutoff = this.now() - this.options.windowMs;
    for (let i = 0; i < 2; i += 1) {
      const oldest = this.failures.entries().next().value as [string, number[]] | undefined;
      if (!oldest || oldest[1][oldest[1].length - 1] > cutoff) return;
      this.failures.delete(oldest[0]);
    }
  }
}
