// PNG scanlines: the sizes of the (Adam7) passes, and undoing the five row filters.
import { DeviceError } from '../errors';
import type { PngHeader } from './png-chunks';
import { WasmUnfilter } from './png-unfilter-wasm';

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

/**
 * Undoes the row filters of every pass in place: `data` (the inflated stream) ends up holding the unfiltered rows
 * packed without their filter bytes, each `pass.rows` a view of it. Throws on an unknown filter type.
 */
export function unfilter(data: Uint8Array, passes: PngPass[], header: PngHeader): void {
  const bpp = Math.max(1, (CHANNELS[header.colorType] * header.bitDepth) >> 3);
  if (passes.length === 1 && bpp === 1 && unfilterInWasm(data, passes[0])) return;
  // a row is written at or before where its filtered bytes were read, so each output byte lands on input already consumed
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  let out = 0;
  for (const pass of passes) {
    const rb = pass.rowBytes;
    const start = out;
    for (let y = 0; y < pass.height; y += 1, at += 1 + rb, out += rb) {
      const filter = bytes[at];
      if (filter > 4) throw new DeviceError('RENDER_FAILED', `PNG could not be decoded: unknown row filter type ${filter}`);
      unfilterRow(filter, bytes, at + 1, out, y > 0 ? out - rb : -1, rb, bpp);
    }
    pass.rows = bytes.subarray(start, out);
  }
}

/** This thread's wasm unfilterer (null: none here), made at the first image that can use it. */
let wasm: WasmUnfilter | null | undefined;
/** Wasm memory kept between images whatever their size: a 4x6 in label at 300 dpi needs 2.6 MB. */
const KEEP_WASM_BYTES = 8 * 1024 * 1024;

/**
 * One pass of one byte per pixel unfiltered in wasm (here 1.2-1.4 times faster than below on Sub, Average and Paeth
 * rows, 15 on Up): `pass.rows` then views wasm memory, valid until the next image is decoded. False where wasm cannot run it.
 */
function unfilterInWasm(data: Uint8Array, pass: PngPass): boolean {
  const size = pass.height * (1 + pass.rowBytes);
  // a memory grown for a large image is let go when a much smaller one comes (a new instance; the old one is garbage)
  if (wasm && wasm.capacity > Math.max(KEEP_WASM_BYTES, 2 * (pass.rowBytes + size))) wasm = undefined;
  if (wasm === undefined) wasm = WasmUnfilter.create();
  if (!wasm) return false;
  const rows = wasm.unfilter(data.subarray(0, size), pass.rowBytes, pass.height);
  if (typeof rows === 'number') throw new DeviceError('RENDER_FAILED', `PNG could not be decoded: unknown row filter type ${data[rows * (1 + pass.rowBytes)]}`);
  pass.rows = rows;
  return true;
}

/** One row, in place: `b[s..s+rb)` filtered with `filter` into `b[o..o+rb)` (`o` ≤ `s`), the row above at `b[u..]` (`u` < 0: none). */
function unfilterRow(filter: number, b: Uint8Array, s: number, o: number, u: number, rb: number, bpp: number): void {
  const first = Math.min(bpp, rb);
  switch (filter) {
    case 0:
      b.copyWithin(o, s, s + rb);
      return;
    case 1:
      if (bpp === 1) return unsubOne(b, s, o, rb);
      for (let i = 0; i < first; i += 1) b[o + i] = b[s + i];
      for (let i = first; i < rb; i += 1) b[o + i] = b[s + i] + b[o + i - bpp];
      return;
    case 2:
      if (u < 0) b.copyWithin(o, s, s + rb);
      else for (let i = 0; i < rb; i += 1) b[o + i] = b[s + i] + b[u + i];
      return;
    case 3:
      if (u < 0) {
        for (let i = 0; i < first; i += 1) b[o + i] = b[s + i];
        for (let i = first; i < rb; i += 1) b[o + i] = b[s + i] + (b[o + i - bpp] >> 1);
      } else if (bpp === 1) {
        unaverageOne(b, s, o, u, rb);
      } else {
        for (let i = 0; i < first; i += 1) b[o + i] = b[s + i] + (b[u + i] >> 1);
        for (let i = first; i < rb; i += 1) b[o + i] = b[s + i] + ((b[o + i - bpp] + b[u + i]) >> 1);
      }
      return;
    default:
      // Paeth; with no row above it is the same as Sub
      if (u < 0) return unfilterRow(1, b, s, o, u, rb, bpp);
      if (bpp === 1) unpaethOne(b, s, o, u, rb);
      else unpaeth(b, s, o, u, rb, bpp, first);
  }
}

/** The Paeth filter undone in place (a row above exists): predictor of left `a`, above `b`, upper left `c`. */
function unpaeth(bytes: Uint8Array, s: number, o: number, u: number, rb: number, bpp: number, first: number): void {
  for (let i = 0; i < first; i += 1) bytes[o + i] = bytes[s + i] + bytes[u + i];
  for (let i = first; i < rb; i += 1) {
    const a = bytes[o + i - bpp];
    const b = bytes[u + i];
    const c = bytes[u + i - bpp];
    const p = a + b - c;
    const pa = p > a ? p - a : a - p;
    const pb = p > b ? p - b : b - p;
    const pc = p > c ? p - c : c - p;
    bytes[o + i] = bytes[s + i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
  }
}

// One byte per pixel (8-bit grey, palettes, packed bits): the left byte is carried in a register, not read back from
// the row just written (3 to 4 times faster on the Sub and Average filters).

/** Sub, one byte per pixel, in place. */
function unsubOne(bytes: Uint8Array, s: number, o: number, rb: number): void {
  let a = 0;
  for (let i = 0; i < rb; i += 1) {
    a = (bytes[s + i] + a) & 0xff;
    bytes[o + i] = a;
  }
}

/** Average, one byte per pixel, in place (a row above exists). */
function unaverageOne(bytes: Uint8Array, s: number, o: number, u: number, rb: number): void {
  let a = 0;
  for (let i = 0; i < rb; i += 1) {
    a = (bytes[s + i] + ((a + bytes[u + i]) >> 1)) & 0xff;
    bytes[o + i] = a;
  }
}

/** Paeth, one byte per pixel, in place (a row above exists): left `a` and upper left `c` carried along the row. */
function unpaethOne(bytes: Uint8Array, s: number, o: number, u: number, rb: number): void {
  let a = 0;
  let c = 0;
  for (let i = 0; i < rb; i += 1) {
    const b = bytes[u + i];
    const da = b - c;
    const db = a - c;
    const pa = da < 0 ? -da : da;
    const pb = db < 0 ? -db : db;
    const pc = da + db < 0 ? -(da + db) : da + db;
    a = (bytes[s + i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
    bytes[o + i] = a;
    c = b;
  }
}
