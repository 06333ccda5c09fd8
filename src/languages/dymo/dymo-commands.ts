// The LabelWriter command bytes (450 series Technical Reference): ESC commands, the raster line framings and the limits.

/** ESC, the first byte of every command. */
export const ESC = 0x1b;
/** SYN: one raster line follows, as many bytes as ESC D set. */
export const SYN = 0x16;
/** ETB: one run-length compressed raster line follows (bit 7 the colour, bits 6..0 the run length minus one). */
export const ETB = 0x17;

/** Dots across the print head of the 450 family and the 550 (2.24 in at 300 dpi). */
export const NARROW_HEAD_DOTS = 672;
/** Dots across the print head of the 4XL and the 5XL (4.16 in at 300 dpi). */
export const WIDE_HEAD_DOTS = 1248;
/** Bytes per raster line on the widest head: what ESC D may ask for at most. */
export const MAX_BYTES_PER_LINE = WIDE_HEAD_DOTS / 8;
/** The head's resolution across and, in text mode, along the label. */
export const DYMO_DPI = 300;

/** The bytes `ESC <letter> <args…>`. */
export function escape(letter: string, ...args: number[]): Buffer {
  return Buffer.from([ESC, letter.charCodeAt(0), ...args.map((n) => n & 0xff)]);
}

/** ESC @: resets the printer's settings (dot tab, bytes per line, label length, mode) to their defaults. */
export const RESET = escape('@');
/** ESC A: asks for the status (450: one byte; 550: a 32-byte reply; the 550 takes the 2-byte form as "no lock"). */
export const STATUS_REQUEST = escape('A');
/** ESC E: form feed to the next label's top of form, past the tear bar (after the last label). */
export const FORM_FEED = escape('E');
/** ESC G: short form feed, to the next label's print position (between labels of one job). */
export const SHORT_FORM_FEED = escape('G');
/** ESC h: text mode, 300 x 300 dpi. */
export const TEXT_MODE = escape('h');
/** ESC i: barcode and graphics mode, 300 x 600 dpi (twice the lines along the label). */
export const GRAPHICS_MODE = escape('i');
/** ESC e: normal print density. */
export const NORMAL_DENSITY = escape('e');

/** ESC B n: dot tab, the first `n` bytes of the head left blank. */
export function dotTab(bytes: number): Buffer {
  return escape('B', bytes);
}

/** ESC D n: bytes per raster line. */
export function bytesPerLine(bytes: number): Buffer {
  return escape('D', bytes);
}

/** ESC L n1 n2: label length in dot lines, most significant byte first. */
export function labelLength(lines: number): Buffer {
  return escape('L', (lines >> 8) & 0xff, lines & 0xff);
}

/** ESC f 1 n: feeds `n` (1..255) blank dot lines without sending them. */
export function skipLines(lines: number): Buffer {
  return escape('f', 1, lines);
}

/** A recovery flush: enough ESC bytes to end any half-received raster line, then a status request. */
export const RECOVERY_FLUSH = Buffer.concat([Buffer.alloc(MAX_BYTES_PER_LINE + 1, ESC), STATUS_REQUEST]);
