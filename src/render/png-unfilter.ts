// PNG scanlines: the sizes of the (Adam7) passes, and undoing the five row filters.
import { DeviceError } from '../errors';
import type { PngHeader } from './png-chunks';

/** One pass of the image: its pixels sit at (x0 + i·dx, y0 + j·dy); `rows` holds `height` unfiltered rows of `rowBytes`. */
export interface PngPass {
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  width: number;
  height: number;
  rowBytes: number;
  rows: Uint8Array;
}

/** Samples per pixel of each colour type. */
export const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const ADAM7: Array<[number, number, number, number]> = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];

/** The passes of an image (one, or Adam7's seven, empty ones left out) with their sizes; rows not filled yet. */
export function passesOf(header: PngHeader): PngPass[] {
  const bits = CHANNELS[header.colorType] * header.bitDepth;
  const grid = header.interlace === 1 ? ADAM7 : [[0, 0, 1, 1] as [number, number, number, number]];
  return grid
    .map(([x0, y0, dx, dy]) => {
      const width = header.width > x0 ? Math.ceil((header.width - x0) / dx) : 0;
      const height = header.height > y0 ? Math.ceil((header.height - y0) / dy) : 0;
      return { x0, y0, dx, dy, width, height, rowBytes: Math.ceil((width * bits) / 8), rows: new Uint8Array(0) };
    })
    .filter((p) => p.width > 0 && p.height > 0);
}

/** Bytes of filtered data the passes take: a filter byte and `rowBytes` per row. */
export function filteredSize(passes: PngPass[]): number {
  return passes.reduce((n, p) => n + p.height * (1 + p.rowBytes), 0);
}

/** Undoes the row filters of every pass from the inflated `data` into `pass.rows`; throws on an unknown filter type. */
export function unfilter(data: Uint8Array, passes: PngPass[], header: PngHeader): void {
  const bpp = Math.max(1, (CHANNELS[header.colorType] * header.bitDepth) >> 3);
  let at = 0;
  for (const pass of passes) {
    const rb = pass.rowBytes;
    const rows = new Uint8Array(rb * pass.height);
    for (let y = 0; y < pass.height; y += 1, at += 1 + rb) {
      const filter = data[at];
      if (filter > 4) throw new DeviceError('RENDER_FAILED', `PNG could not be decoded: unknown row filter type ${filter}`);
      unfilterRow(filter, data, at + 1, rows, y * rb, y > 0 ? (y - 1) * rb : -1, rb, bpp);
    }
    pass.rows = rows;
  }
}

/** One row: `src[s..s+rb)` filtered with `filter` into `out[o..o+rb)`, the row above at `out[u..]` (`u` < 0: none). */
function unfilterRow(filter: number, src: Uint8Array, s: number, out: Uint8Array, o: number, u: number, rb: number, bpp: number): void {
  const first = Math.min(bpp, rb);
  switch (filter) {
    case 0:
      out.set(src.subarray(s, s + rb), o);
      return;
    case 1:
      for (let i = 0; i < first; i += 1) out[o + i] = src[s + i];
      for (let i = first; i < rb; i += 1) out[o + i] = src[s + i] + out[o + i - bpp];
      return;
    case 2:
      if (u < 0) out.set(src.subarray(s, s + rb), o);
      else for (let i = 0; i < rb; i += 1) out[o + i] = src[s + i] + out[u + i];
      return;
    case 3:
      if (u < 0) {
        for (let i = 0; i < first; i += 1) out[o + i] = src[s + i];
        for (let i = first; i < rb; i += 1) out[o + i] = src[s + i] + (out[o + i - bpp] >> 1);
      } else {
        for (let i = 0; i < first; i += 1) out[o + i] = src[s + i] + (out[u + i] >> 1);
        for (let i = first; i < rb; i += 1) out[o + i] = src[s + i] + ((out[o + i - bpp] + out[u + i]) >> 1);
      }
      return;
    default:
      // Paeth; with no row above it is the same as Sub
      if (u < 0) return unfilterRow(1, src, s, out, o, u, rb, bpp);
      for (let i = 0; i < first; i += 1) out[o + i] = src[s + i] + out[u + i];
      for (let i = first; i < rb; i += 1) {
        const a = out[o + i - bpp];
        const b = out[u + i];
        const c = out[u + i - bpp];
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - 2 * c);
        out[o + i] = src[s + i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
  }
}
