// The LabelWriter 550 series' job commands (550 / 550 Turbo / 5XL Technical Reference): job header and trailer, label index, print data header, density.
import { escape } from './dymo-commands';

/** Bits per dot the 550 encoder sends (1: black or white). */
export const BITS_PER_DOT = 1;
/** Alignment byte of ESC D: 2, what DYMO's own software and the published notes send. */
export const PRINT_DATA_ALIGNMENT = 2;
/** Length of the ESC D print data header: ESC D, bpp, alignment, lines (u32 LE), dots per line (u32 LE). */
export const PRINT_DATA_HEADER_LENGTH = 12;
/** ESC C's 100 %: the 550's normal print density (0..200 %). */
export const NORMAL_DENSITY_PERCENT = 100;

/** The bytes of `value` as an unsigned little-endian number of `bytes` bytes. */
function littleEndian(value: number, bytes: number): number[] {
  return Array.from({ length: bytes }, (_, n) => Math.floor(value / 2 ** (8 * n)) & 0xff);
}

/** ESC s id: starts a print job with a 32-bit job id, little-endian. */
export function startJob(jobId: number): Buffer {
  return escape('s', ...littleEndian(jobId, 4));
}

/** ESC n index: the label index within the job, 16-bit little-endian (as DYMO's software sends it). */
export function labelIndex(index: number): Buffer {
  return escape('n', ...littleEndian(index, 2));
}

/** ESC C percent: print density, 0..200 % (100 normal). */
export function density(percent: number): Buffer {
  return escape('C', Math.max(0, Math.min(200, Math.round(percent))));
}

/** ESC D bpp alignment lines dots: the print data header; `lines` rows of ceil(dots / 8) bytes follow, unframed. */
export function printDataHeader(lines: number, dotsPerLine: number): Buffer {
  return escape('D', BITS_PER_DOT, PRINT_DATA_ALIGNMENT, ...littleEndian(lines, 4), ...littleEndian(dotsPerLine, 4));
}

/** ESC Q: ends the print job (and releases the host's lock). */
export const END_JOB = escape('Q');
