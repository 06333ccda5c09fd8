// API key check in constant time, with per-address brute-force limiting; an unclaimed device (no key yet) refuses every key.
import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors';
import type { FailureLimiter } from './rate-limiter';

/** Bytes compared per key: a 2-byte length and up to 510 bytes of UTF-8 (a longer key never matches: keys are at most 256 characters). */
const KEY_BLOCK = 512;

/** `key` laid out in `block`: its UTF-8 length (`tooLong` when it does not fit), then its bytes, then zeros. */
function keyBlock(key: string, block: Buffer, tooLong: number): Buffer {
  block.fill(0);
  const length = Buffer.byteLength(key, 'utf8');
  if (length > KEY_BLOCK - 2) {
    block.writeUInt16BE(tooLong, 0);
    return block;
  }
  block.writeUInt16BE(length, 0);
  block.write(key, 2, 'utf8');
  return block;
}

/** Checks `X-API-Key` against the current key (null: the device is unclaimed); throws 401 or 429 AppErrors. */
export class ApiAuth {
  private blockOf = '';
  private keyBlock: Buffer = Buffer.alloc(KEY_BLOCK);
  /** Where each presented key is laid out for the comparison (requests are handled one at a time). */
  private readonly scratch = Buffer.alloc(KEY_BLOCK);

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

  /**
   * Compares the keys as fixed-size blocks (length, then the UTF-8 bytes, zero-padded) in constant time, so neither the
   * content nor the length of the key leaks through timing; no hashing and no allocation per request.
   */
  private matches(key: string, presented: string): boolean {
    if (key !== this.blockOf) {
      this.blockOf = key;
      this.keyBlock = keyBlock(key, Buffer.alloc(KEY_BLOCK), 0xfffe);
    }
    // an oversized presented key and an oversized stored one carry different markers: they never match
    return timingSafeEqual(keyBlock(presented, this.scratch, 0xffff), this.keyBlock);
  }
}
