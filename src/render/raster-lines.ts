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
      if (bpp === 1) line.fill(bytes[cursor.pos], x, x + n);
      else for (let i = 0; i < n; i += 1) line[x + i] = bytes[cursor.pos + (i % bpp)];
      cursor.pos += bpp;
      x += n;
    } else {
      // 257 - code literal pixels
      const n = (257 - code) * bpp;
      if (x + n > line.length) rasterFail(format, 'literal pixels run past the end of a line');
      if (cursor.pos + n > bytes.length) rasterFail(format, 'literal pixels end early');
      line.set(bytes.subarray(cursor.pos, cursor.pos + n), x);
      cursor.pos += n;
      x += n;
    }
  }
}
