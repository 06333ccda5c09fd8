// Test helper: reads the labels our renderer writes (^XA ^PW ^LL ^GFA Z64 ^PQ ^XZ) back into bitmaps.
import { inflateSync } from 'node:zlib';
import type { MonoBitmap } from '../../src/encoders/mono-bitmap';
import { crcHex, zplCrc16 } from '../../src/languages/zpl/zpl-graphic-field';

/** One decoded label: ^PW and ^LL in dots, ^PQ count, and the graphic. */
export interface DecodedLabel {
  pw: number;
  ll: number;
  pq: number | undefined;
  bitmap: MonoBitmap;
}

/** Decodes a `^GFA,t,t,r,:Z64:data:crc` field; throws when the CRC or the byte count is wrong. */
export function decodeGraphicField(field: string): MonoBitmap {
  const m = /^\^GFA,(\d+),(\d+),(\d+),:Z64:([A-Za-z0-9+/=]+):([0-9a-f]{4})$/.exec(field);
  if (!m) throw new Error(`not a Z64 ^GFA field: ${field.slice(0, 40)}`);
  const [, total, total2, bpr, b64, crc] = m;
  if (crcHex(zplCrc16(b64)) !== crc) throw new Error(`CRC mismatch: ${crc}`);
  const data = new Uint8Array(inflateSync(Buffer.from(b64, 'base64')));
  if (data.length !== Number(total) || total !== total2) throw new Error(`byte count ${data.length} != ${total}`);
  const bytesPerRow = Number(bpr);
  return { width: bytesPerRow * 8, height: data.length / bytesPerRow, bytesPerRow, data };
}

/** Splits ZPL into ^XA…^XZ labels and decodes each one's commands and graphic. */
export function decodeLabels(zpl: string): DecodedLabel[] {
  const blocks = zpl.split('^XZ').map((b) => b.trim()).filter((b) => b.length > 0);
  return blocks.map((block) => {
    if (!block.startsWith('^XA')) throw new Error(`label does not start with ^XA: ${block.slice(0, 20)}`);
    const pw = /\^PW(\d+)/.exec(block);
    const ll = /\^LL(\d+)/.exec(block);
    const pq = /\^PQ(\d+)/.exec(block);
    const gf = /\^GFA,[^\^]+/.exec(block);
    if (!pw || !ll || !gf) throw new Error('label lacks ^PW, ^LL or ^GFA');
    return { pw: Number(pw[1]), ll: Number(ll[1]), pq: pq ? Number(pq[1]) : undefined, bitmap: decodeGraphicField(gf[0]) };
  });
}

/** Whether the dot at (x, y) is black. */
export function dotAt(bitmap: MonoBitmap, x: number, y: number): boolean {
  return (bitmap.data[y * bitmap.bytesPerRow + (x >> 3)] & (0x80 >> (x & 7))) !== 0;
}

/** Number of black dots in the bitmap. */
export function countBlack(bitmap: MonoBitmap): number {
  let n = 0;
  for (const byte of bitmap.data) for (let v = byte; v; v &= v - 1) n += 1;
  return n;
}

/** RGBA pixels (black/white, opaque) of a bitmap, `width` dots wide, for a barcode reader. */
export function toRgba(bitmap: MonoBitmap, width: number): Uint8ClampedArray {
  const out = new Uint8ClampedArray(width * bitmap.height * 4);
  for (let y = 0; y < bitmap.height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const v = dotAt(bitmap, x, y) ? 0 : 255;
      const i = (y * width + x) * 4;
      out[i] = v;
      out[i + 1] = v;
      out[i + 2] = v;
      out[i + 3] = 255;
    }
  }
  return out;
}
