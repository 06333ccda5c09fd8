// Counting label formats: how many a ZPL stream holds, and how many a `~HS` reply says the printer has yet to print.
import type { HostStatus } from './zpl-status';

const CARET = 0x5e;

/** Label formats (`^XA`, any case) in a ZPL stream, found without copying it; a stream of host commands alone holds none. */
export function countFormats(bytes: Uint8Array): number {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 0;
  for (let at = buf.indexOf(CARET); at >= 0 && at + 2 < buf.length; at = buf.indexOf(CARET, at + 1)) {
    if ((buf[at + 1] | 0x20) === 0x78 && (buf[at + 2] | 0x20) === 0x61) count += 1;
  }
  return count;
}

/**
 * Formats the printer has not finished: those in its receive buffer, plus the one whose batch is still printing.
 * The extra one may already be counted in the buffer on some firmware; counting it twice only delays a claim.
 */
export function unprintedFormats(status: HostStatus): number {
  return status.formatsInBuffer + (status.labelsRemaining > 0 || status.partialFormat ? 1 : 0);
}
