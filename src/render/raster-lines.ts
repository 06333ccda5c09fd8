// The line compression PWG Raster (PWG 5102.4 section 4.3.1) and Apple URF share: a line-repeat byte, then PackBits-like runs of pixels.
import { DeviceError } from '../errors';

/** Where a raster reader is in its bytes. */
export interface RasterCursor {
  bytes: Uint8Array;
  pos: number;
}

/** Throws DeviceError RENDER_FAILED for a `format` stream that is not what its header says. */
export function rasterFail(format: string, reason: string): never {
  throw new DeviceError('RENDER_FAILED', `${format} could not be decoded: ${reason}`);
}

/**
 * Decodes the compressed lines of one page, calling `onLine(line, count)` for each distinct line and how many rows it
 * fills (its repeat count). `line` is reused between calls. `blank` fills the rest of a line after a 0x80 code.
 */
export function decodeLines(format: string, cursor: RasterCursor, bytesPerLine: number, bytesPerPixel: number, height: number, blank: number, onLine: (line: Uint8Array, count: number) => void): void {
  const line = new Uint8Array(bytesPerLine);
  const { bytes } = cursor;
  let row = 0;
  while (row < height) {
    if (cursor.pos >= bytes.length) rasterFail(format, `page data ends at row ${row} of ${height}`);
    const count = Math.min(bytes[cursor.pos++] + 1, height - row);
    decodeOneLine(format, cursor, line, bytesPerPixel, blank);
    onLine(line, count);
    row += count;
  }
}

/** The grey (0 black … 255 white) of the pixel whose bytes start at `src[at]`. */
export type PixelGrey = (src: Uint8Array, at: number) => number;

/**
 * Decodes the compressed lines of one page straight to grey, row after row into `out` (`width` bytes a row, a repeated
 * line copied): a repeat run is converted once and filled, so a page costs its runs rather than its pixels. `blank`
 * is the grey of the rest of a line after a 0x80 code.
 */
export function decodeGreyRows(format: string, cursor: RasterCursor, width: number, bytesPerPixel: number, height: number, blank: number, grey: PixelGrey, out: Uint8Array): void {
  const { bytes } = cursor;
  let row = 0;
  while (row < height) {
    if (cursor.pos >= bytes.length) rasterFail(format, `page data ends at row ${row} of ${height}`);
    const count = Math.min(bytes[cursor.pos++] + 1, height - row);
    const start = row * width;
    decodeGreyLine(format, cursor, out, start, start + width, bytesPerPixel, blank, grey);
    for (let r = 1; r < count; r += 1) out.copyWithin(start + r * width, start, start + width);
    row += count;
  }
}

function decodeGreyLine(format: string, cursor: RasterCursor, out: Uint8Array, x: number, end: number, bpp: number, blank: number, grey: PixelGrey): void {
  const { bytes } = cursor;
  while (x < end) {
    if (cursor.pos >= bytes.length) rasterFail(format, 'a line ends early');
    const code = bytes[cursor.pos++];
    if (code === 0x80) {
      out.fill(blank, x, end);
      return;
    }
    if (code < 0x80) {
      // one pixel, repeated code + 1 times
      if (cursor.pos + bpp > bytes.length) rasterFail(format, 'a run ends early');
      const to = Math.min(x + code + 1, end);
      fillBytes(out, grey(bytes, cursor.pos), x, to);
      cursor.pos += bpp;
      x = to;
    } else {
      // 257 - code literal pixels
      const n = 257 - code;
      if (x + n > end) rasterFail(format, 'literal pixels run past the end of a line');
      if (cursor.pos + n * bpp > bytes.length) rasterFail(format, 'literal pixels end early');
      for (let i = 0; i < n; i += 1, cursor.pos += bpp) out[x + i] = grey(bytes, cursor.pos);
      x += n;
    }
  }
}

function decodeOneLine(format: string, cursor: RasterCursor, line: Uint8Array, bpp: number, blank: number): void {
  const { bytes } = cursor;
  let x = 0;
  while (x < line.length) {
    if (cursor.pos >= bytes.length) rasterFail(format, 'a line ends early');
    const code = bytes[cursor.pos++];
    if (code === 0x80) {
      line.fill(blank, x);
      return;
    }
    if (code < 0x80) {
      // one pixel, repeated code + 1 times
      const n = Math.min((code + 1) * bpp, line.length - x);
      if (cursor.pos + bpp > bytes.length) rasterFail(format, 'a run ends early');
      if (bpp === 1) fillBytes(line, bytes[cursor.pos], x, x + n);
      else fillPixels(line, bytes, cursor.pos, bpp, x, x + n);
      cursor.pos += bpp;
      x += n;
    } else {
      // 257 - code literal pixels
      const n = (257 - code) * bpp;
      if (x + n > line.length) rasterFail(format, 'literal pixels run past the end of a line');
      if (cursor.pos + n > bytes.length) rasterFail(format, 'literal pixels end early');
      copyBytes(bytes, cursor.pos, line, x, n);
      cursor.pos += n;
      x += n;
    }
  }
}

// Runs are mostly a few pixels long: a loop then beats a builtin's call (the bench's 4x6 PWG page decodes to grey in
// 0.43 ms with the loop, 1.09 ms with `fill` for every run), and `subarray` allocates a view per literal run.
/** Bytes past which the builtins' per-call cost is worth paying. */
const SHORT_RUN = 32;

/** `line[from..to)` = `value`. */
function fillBytes(line: Uint8Array, value: number, from: number, to: number): void {
  if (to - from > SHORT_RUN) line.fill(value, from, to);
  else for (let i = from; i < to; i += 1) line[i] = value;
}

/** `n` bytes of `src` at `at` into `line` at `x`. */
function copyBytes(src: Uint8Array, at: number, line: Uint8Array, x: number, n: number): void {
  if (n > SHORT_RUN) line.set(src.subarray(at, at + n), x);
  else for (let i = 0; i < n; i += 1) line[x + i] = src[at + i];
}

/** `line[from..to)` = the `bpp`-byte pixel at `src[at..]`, repeated (`to - from` a multiple of `bpp`, or the line's end). */
function fillPixels(line: Uint8Array, src: Uint8Array, at: number, bpp: number, from: number, to: number): void {
  for (let i = 0; i < bpp && from + i < to; i += 1) line[from + i] = src[at + i];
  for (let i = from + bpp; i < to; i += 1) line[i] = line[i - bpp];
}
