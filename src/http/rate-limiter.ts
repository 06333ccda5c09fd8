// Counts failed API keys per address in a sliding 60 s window and blocks an address past the limit.

/** Options: how many failures are tolerated within `windowMs`; `now` is injectable. */
export interface FailureLimiterOptions {
  maxFailures: number;
  windowMs: number;
  now?: () => number;
}

/** Per-address failure counter for brute-force protection (decisions.md: >20 in 60 s → 429). */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly now: () => number;

  constructor(private readonly options: FailureLimiterOptions) {
    this.now = options.now ?? Date.now;
  }

  /** True when any address has a failure on record (lets callers skip reading the address). */
  anyFailures(): boolean {
    return this.failures.size > 0;
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
    this.failures.set(address, recent);
    if (this.failures.size > 10_000) this.prune();
  }

  private recent(address: string): number[] {
    const cutoff = this.now() - this.options.windowMs;
    const list = (this.failures.get(address) ?? []).filter((t) => t > cutoff);
    if (list.length === 0) this.failures.delete(address);
    return list;
  }

  private prune(): void {
    for (const address of [...this.failures.keys()]) this.recent(address);
  }
}
