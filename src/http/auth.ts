// API key check in constant time, with per-address brute-force limiting.
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors';
import type { FailureLimiter } from './rate-limiter';

/** Checks `X-API-Key` against the current key; throws 401 or 429 ApiErrors. */
export class ApiAuth {
  private digestOf = '';
  private digest = Buffer.alloc(0);

  constructor(
    private readonly currentKey: () => string,
    private readonly limiter: FailureLimiter,
  ) {}

  /** Throws TOO_MANY_REQUESTS while the address is blocked, UNAUTHORIZED (and counts a failure) when the key is wrong. */
  check(presented: string | undefined, remoteAddress: () => string): void {
    const address = this.refuseIfBlocked(remoteAddress);
    if (presented && this.matches(presented)) return;
    this.limiter.fail(address || remoteAddress());
    throw new AppError('UNAUTHORIZED', 'Missing or invalid API key');
  }

  /** Throws TOO_MANY_REQUESTS while the address is blocked; counts nothing (a WebSocket whose key comes later). */
  assertNotBlocked(remoteAddress: () => string): void {
    this.refuseIfBlocked(remoteAddress);
  }

  /** Returns the address when it had to read it (some failure is on record), else ''. */
  private refuseIfBlocked(remoteAddress: () => string): string {
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
  private matches(presented: string): boolean {
    const key = this.currentKey();
    if (key !== this.digestOf) {
      this.digestOf = key;
      this.digest = createHash('sha256').update(key).digest();
    }
    return timingSafeEqual(createHash('sha256').update(presented).digest(), this.digest);
  }
}
