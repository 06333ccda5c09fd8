// API key check in constant time, with per-address brute-force limiting.
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors';
import type { FailureLimiter } from './rate-limiter';

/** Checks `X-API-Key` against the current key; throws 401 or 429 ApiErrors. */
export class ApiAuth {
  constructor(
    private readonly currentKey: () => string,
    private readonly limiter: FailureLimiter,
  ) {}

  /** Throws TOO_MANY_REQUESTS while `address` is blocked, UNAUTHORIZED (and counts a failure) when the key is wrong. */
  check(presented: string | undefined, address: string): void {
    const wait = this.limiter.retryAfter(address);
    if (wait > 0) {
      throw new ApiError('TOO_MANY_REQUESTS', `too many failed API keys from ${address}; retry in ${wait} s`, {
        headers: { 'Retry-After': String(wait) },
      });
    }
    if (presented && keysEqual(presented, this.currentKey())) return;
    this.limiter.fail(address);
    throw new ApiError('UNAUTHORIZED', 'Missing or invalid API key');
  }
}

function keysEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}
