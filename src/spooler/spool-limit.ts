// The default byte limit of the disk spool: a bound of its own, well before the flash it lives on fills.
import { readdirSync, statSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

/** The most the spool holds whatever the free space: 256 MiB. */
export const MAX_SPOOL_BYTES = 256 * 1024 * 1024;

/** Bytes the spool in `dir` may hold: what it holds now plus half the space free at start, at most 256 MiB. */
export function spoolLimit(dir: string): number {
  try {
    const fs = statfsSync(dir);
    return Math.min(MAX_SPOOL_BYTES, Math.floor((fs.bavail * fs.bsize) / 2) + bytesIn(dir));
  } catch {
    return MAX_SPOOL_BYTES;
  }
}

/** Bytes of the files directly in `dir`; 0 when it does not exist yet. */
function bytesIn(dir: string): number {
  let sum = 0;
  for (const name of safeList(dir)) {
    try {
      sum += statSync(join(dir, name)).size;
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
