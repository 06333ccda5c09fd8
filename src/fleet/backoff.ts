// Reconnect delays with exponential backoff and full jitter (fleet.md "Offline and reconnects"), by the one backoff.
import { backoffDelay } from '../util/backoff';

/** Longest wait between two attempts, ms. */
export const MAX_BACKOFF_MS = 60_000;
/** A connection that lasted this long starts the count again, ms. */
export const STABLE_MS = 60_000;

/** Attempt n waits random(0, min(60 s, 1 s x 2^n)); `random` returns [0, 1). */
export class Backoff {
  private attempt = 0;

  constructor(private readonly random: () => number, private readonly baseMs = 1000) {}

  /** The wait before the next attempt, ms; counts the attempt. */
  nextDelayMs(): number {
    const delay = backoffDelay({ baseMs: this.baseMs, capMs: MAX_BACKOFF_MS, jitter: 'full' }, this.attempt, this.random);
    this.attempt += 1;
    return delay;
  }

  /** Called when a connection ends after lasting `lastedMs`: a stable one starts the count again. */
  connectionEnded(lastedMs: number): void {
    if (lastedMs >= STABLE_MS) this.attempt = 0;
  }
}
