// API key check in constant time, with per-address brute-force limiting; an unclaimed device (no key yet) refuses every key.
import { hash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors';
import type { FailureLimiter } from './rate-limiter';

/** Checks `X-API-Key` against the current key (null: the device is unclaimed); throws 401 or 429 AppErrors. */
export class ApiAuth {
  private digestOf = '';
  private digest = Buffer.alloc(0);

  constructor(
    private readonly currentKey: () => string | null,
    private readonly limiter: FailureLimiter,
  ) {}

  /**
   * Throws DEVICE_NOT_SET_UP (401) while no key is set, TOO_MANY_REQUESTS while the address is blocked, UNAUTHORIZED
   * (and counts a failure) when the key is wrong.
   */
  check(presented: string | undefined, remoteAddress: () => string): void {
    const key = this.currentKey();
    const address = this.refuseEarly(key, remoteAddress);
    if (key !== null && presented && this.matches(key, presented)) return;
    this.limiter.fail(address || remoteAddress());
    throw new AppError('UNAUTHORIZED', 'Missing or invalid API key');
  }

  /** Throws DEVICE_NOT_SET_UP while no key is set, TOO_MANY_REQUESTS while the address is blocked; counts nothing (a WebSocket whose key comes later). */
  assertNotBlocked(remoteAddress: () => string): void {
    this.refuseEarly(this.currentKey(), remoteAddress);
  }

  /** Refuses an unclaimed device and a blocked address; returns the address when it had to read it (some failure is on record), else ''. */
  private refuseEarly(key: string | null, remoteAddress: () => string): string {
    // nothing to guess yet: no failure is counted, and the answer says what to do
    if (key === null) throw new AppError('DEVICE_NOT_SET_UP', 'Device not set up');
    const address = this.limiter.anyFailures() ? remoteAddress() : '';
    const wait = address ? this.limiter.retryAfter(address) : 0;
    if (wait > 0) {
      throw new AppError('TOO_MANY_REQUESTS', `too many failed API keys from ${address}; retry in ${wait} s`, {
        headers: { 'Retry-After': String(wait) },
      });
    }
    return address;
  }

  /** Compares SHA-256 digests so neither the content nor the length of the key leaks through timing. */
  private matches(key: string, presented: string): boolean {
    if (key !== this.digestOf) {
      this.digestOf = key;
      this.digest = hash('sha256', key, 'buffer');
    }
    // the one-shot hash: no Hash object per request
    return timingSafeEqual(hash('sha256', presented, 'buffer'), this.digest);
  }
}
