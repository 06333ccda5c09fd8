// The process's open-file limit, and the share of it the keyless doors (raw ports, IPP) may hold so the API keeps the rest.
import { readFileSync } from 'node:fs';
import type { GateLimits } from '../util/connection-gate';

/** Descriptors always left to the API, the printers, the spool and the log, whatever the keyless doors do. */
export const API_DESCRIPTORS = 256;
/** The limit assumed where /proc cannot be read (Linux's default soft limit). */
const FALLBACK_LIMIT = 1024;

/** The soft RLIMIT_NOFILE of this process, from /proc/self/limits; 1024 when it cannot be read. */
export function descriptorLimit(): number {
  try {
    return parseDescriptorLimit(readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    return FALLBACK_LIMIT;
  }
}

/** The soft `Max open files` of a /proc/<pid>/limits text; 1024 when it names none. */
export function parseDescriptorLimit(limits: string): number {
  const match = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
  if (!match) return FALLBACK_LIMIT;
  return match[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(match[1]);
}

/** Connections every keyless door together may hold: half of what the limit leaves above the API's share, at least 16. */
export function keylessDoorLimits(limit: number): GateLimits {
  return { total: Math.max(16, Math.floor((limit - API_DESCRIPTORS) / 2)), perAddress: Number.POSITIVE_INFINITY };
}
