// The process's open-file limit, and the share of it the keyless doors (raw ports, IPP) may hold so the API keeps the rest.
import { readFileSync } from 'node:fs';
import type { GateLimits } from '../util/connection-gate';

/** Descriptors always left to the API, the printers, the spool and the log, whatever the keyless doors do. */
export const API_DESCRIPTORS = 256;
/** The limit assumed where /proc cannot be read (Linux's default soft limit). */
const FALLBACK_LIMIT = 1024;

/** The soft RLIMIT_NOFILE of this process, from /proc/self/limits; 1024 when it cannot be read. */
export function descriptorLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(read());
    if (!match) return FALLBACK_LIMIT;
    return match[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(match[1]);
  } catch {
    return FALLBACK_LIMIT;
  }
}

/** Connections every keyless door together may hold: half of what the limit leaves above the API's share, at least 16. */
export function keylessDoorLimits(limit: number): GateLimits {
  return { total: Math.max(16, Math.floor((limit - API_DESCRIPTORS) / 2)), perAddress: Number.POSITIVE_INFINITY };
}
