// 8-bit grey pixels (0 black … 255 white) → 1-bit printer dots: a fixed black threshold, or Floyd–Steinberg error diffusion.
import type { MonoBitmap } from '../encoders/mono-bitmap';

/** Where grey pixels sit in memory: `height` rows of `stride` bytes starting at `offset` in `src`. */
export interface GreySource {
  src: Uint8Array;
  offset: number;
  stride: number;
  width: number;
  height: number;
}

/** Default black threshold: a grey value below it (0..255) becomes a black dot. */
export const DEFAULT_THRESHOLD = 128;

/** An all-white bitmap of `width` × `height` dots, `out` reused when it is large enough. */
export function blankMono(width: number, height: number, out?: Uint8Array): MonoBitmap {
  const bytesPerRow = (width + 7) >> 3;
  const size = bytesPerRow * height;
  const data = out && out.length >= size ? out.subarray(0, size) : new Uint8Array(size);
  data.fill(0);
  return { width, height, bytesPerRow, data };
}

/** Whether typed arrays are little-endian here (the word path below assumes it; ARM and x86 Linux are). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Black bits (MSB = first pixel) of four grey pixels in a little-endian word, for threshold 128: top bit clear = black. */
function nibble(word: number): number {
  const m = ~word & 0x80808080;
  return ((m >>> 4) | (m >>> 13) | (m >>> 22) | (m >>> 31)) & 0xf;
}

/**
 * Packs a grey block into `dst` from its top-left corner, clipped to both sizes: the fast path for whole labels.
 * With the default threshold and 4-byte aligned rows it reads 32-bit words: 8 pixels per output byte, no branches per
 * pixel, and 32 white pixels in a row (most of a label) cost one test and no store (the row is zeroed first).
 */
export function thresholdAligned(dst: MonoBitmap, grey: GreySource, threshold = DEFAULT_THRESHOLD): void {
  const { src, offset, stride } = grey;
  const rows = Math.min(grey.height, dst.height);
  const width = Math.min(grey.width, dst.width);
  const wordPath = threshold === 128 && LITTLE_ENDIAN && ((src.byteOffset + offset) & 3) === 0 && (stride & 3) === 0;
  const full = width >> 3;
  if (wordPath) thresholdWords(dst, new Int32Array(src.buffer, src.byteOffset + offset, (rows * stride) >> 2), stride >> 2, rows, full);
  else thresholdBytes(dst, grey, rows, full, threshold);
  if (width & 7) thresholdTail(dst, grey, full << 3, width, rows, threshold);
}

/** Word path of thresholdAligned: bytes 0..`full`-1 of `rows` rows from grey words (`wordsPerRow` per row). */
function thresholdWords(dst: MonoBitmap, words: Int32Array, wordsPerRow: number, rows: number, full: number): void {
  const out = dst.data;
  const bpr = dst.bytesPerRow;
  for (let row = 0; row < rows; row += 1) {
    let w = row * wordsPerRow;
    let o = row * bpr;
    out.fill(0, o, o + full);
    let b = 0;
    for (; b + 4 <= full; b += 4, w += 8, o += 4) {
      const a0 = words[w], a1 = words[w + 1], a2 = words[w + 2], a3 = words[w + 3];
      const a4 = words[w + 4], a5 = words[w + 5], a6 = words[w + 6], a7 = words[w + 7];
      if ((a0 & a1 & a2 & a3 & a4 & a5 & a6 & a7) === -1) continue;
      out[o] = (nibble(a0) << 4) | nibble(a1);
      out[o + 1] = (nibble(a2) << 4) | nibble(a3);
      out[o + 2] = (nibble(a4) << 4) | nibble(a5);
      out[o + 3] = (nibble(a6) << 4) | nibble(a7);
    }
    for (; b < full; b += 1, w += 2, o += 1) {
      const a = words[w];
      const c = words[w + 1];
      if ((a & c) !== -1) out[o] = (nibble(a) << 4) | nibble(c);
    }
  }
}

/** Byte path of thresholdAligned: any threshold, any alignment. */
function thresholdBytes(dst: MonoBitmap, grey: GreySource, rows: number, full: number, threshold: number): void {
  const { src, offset, stride } = grey;
  const out = dst.data;
  const bpr = dst.bytesPerRow;
  for (let row = 0; row < rows; row += 1) {
    let p = offset + row * stride;
    let o = row * bpr;
    for (let b = 0; b < full; b += 1, p += 8, o += 1) {
      out[o] =
        (src[p] < threshold ? 0x80 : 0) | (src[p + 1] < threshold ? 0x40 : 0) | (src[p + 2] < threshold ? 0x20 : 0) |
        (src[p + 3] < threshold ? 0x10 : 0) | (src[p + 4] < threshold ? 0x08 : 0) | (src[p + 5] < threshold ? 0x04 : 0) |
        (src[p + 6] < threshold ? 0x02 : 0) | (src[p + 7] < threshold ? 0x01 : 0);
    }
  }
}

/** The last partial byte of each row (columns `from`..`to`-1). */
function thresholdTail(dst: MonoBitmap, grey: GreySource, from: number, to: number, rows: number, threshold: number): void {
  for (let row = 0; row < rows; row += 1) {
    let bits = 0;
    const p = grey.offset + row * grey.stride;
    for (let col = from; col < to; col += 1) if (grey.src[p + col] < threshold) bits |= 0x80 >> (col & 7);
    dst.data[row * dst.bytesPerRow + (from >> 3)] = bits;
  }
}

/** Floyd–Steinberg error diffusion of a grey block into `dst` at dot (x, y), for photographic content; clips at the edges. */
export function ditherInto(dst: MonoBitmap, grey: GreySource, x: number, y: number, threshold = DEFAULT_THRESHOLD): void {
  const { src, offset, stride, width } = grey;
  let cur = new Int16Array(width + 2);
  let next = new Int16Array(width + 2);
  const out = dst.data;
  for (let row = 0; row < grey.height; row += 1) {
    const dy = row + y;
    const srcRow = offset + row * stride;
    for (let col = 0; col < width; col += 1) {
      const v = src[srcRow + col] + cur[col + 1];
      const black = v < threshold;
      const err = black ? v : v - 255;
      cur[col + 2] += (err * 7) >> 4;
      next[col] += (err * 3) >> 4;
      next[col + 1] += (err * 5) >> 4;
      next[col + 2] += err >> 4;
      const dx = col + x;
      if (black && dy >= 0 && dy < dst.height && dx >= 0 && dx < dst.width) out[dy * dst.bytesPerRow + (dx >> 3)] |= 0x80 >> (dx & 7);
    }
    [cur, next] = [next, cur];
    next.fill(0);
  }
}

/** A grey block as a bitmap of its size: thresholded (barcode-safe) or dithered; `reuse` backs it when large enough. */
export function toMono(grey: GreySource, dither: boolean, reuse?: Uint8Array): MonoBitmap {
  const mono = blankMono(grey.width, grey.height, reuse);
  if (dither) ditherInto(mono, grey, 0, 0);
  else thresholdAligned(mono, grey);
  return mono;
}
