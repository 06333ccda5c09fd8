// Who wants printer.status events right now, and how often: WebSocket clients hold a claim (with the probe interval
// they ask for, if any); other channels are asked live.
import { typeMatches } from './event-filter';

/** Shortest probe interval a client may ask for, ms: a printer is never asked for its status more often. */
export const FASTEST_STATUS_INTERVAL_MS = 2000;

/** A count of claims plus live checks; `wanted()` and `intervalMs()` are what the printer monitor reads each tick. */
export class StatusDemand {
  private readonly claims = new Map<symbol, number | null>();

  /**
   * `defaultIntervalMs`: how often each printer is probed when no claim asks for sooner; `others`: channels asked live
   * (webhooks whose types take printer.status).
   */
  constructor(
    private readonly defaultIntervalMs: number,
    private readonly others: Array<() => boolean> = [],
  ) {}

  /**
   * Takes a claim, optionally asking for probes every `intervalMs` (raised to FASTEST_STATUS_INTERVAL_MS; never slower
   * than the default); the returned function gives it back (once).
   */
  acquire(intervalMs: number | null = null): () => void {
    const claim = Symbol('status claim');
    this.claims.set(claim, intervalMs === null ? null : Math.max(FASTEST_STATUS_INTERVAL_MS, intervalMs));
    return () => void this.claims.delete(claim);
  }

  /** True while any claim is held or any other channel wants printer.status. */
  wanted(): boolean {
    return this.claims.size > 0 || this.others.some((asks) => asks());
  }

  /** The time between two probes of one printer now: the default, or the shortest a claim asks for when sooner. */
  intervalMs(): number {
    let interval = this.defaultIntervalMs;
    for (const asked of this.claims.values()) if (asked !== null && asked < interval) interval = asked;
    return interval;
  }
}

/** True when a `types` filter (null: every type) lets printer.status through. */
export function takesPrinterStatus(types: readonly string[] | null): boolean {
  return types === null || types.some((pattern) => typeMatches(pattern, 'printer.status'));
}
