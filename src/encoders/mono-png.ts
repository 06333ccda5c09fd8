// Pages → PNG: a 1-bit grey image of exactly the dots a page is printed with (the preview of a label or receipt).
import { crc32, deflateSync } from 'node:zlib';
import type { MonoBitmap } from './mono-bitmap';
import type { PageEncoder } from './page-encoder';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** zlib level of preview images: text and barcodes deflate well at 6, and a preview is made once. */
const PNG_DEFLATE_LEVEL = 6;

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return out;
}

/** A PNG (grey, bit depth 1, one pixel per dot, `width` x `height` pixels) of `bitmap`; a black dot is a black pixel. */
export function monoPng(bitmap: MonoBitmap): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(bitmap.width, 0);
  header.writeUInt32BE(bitmap.height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, grey, deflate, adaptive filters, no interlace
  // PNG grey 1-bit is 1 = white, the bitmap's 1 = black: each row inverted, behind filter byte 0 (None)
  const stride = bitmap.bytesPerRow + 1;
  const rows = Buffer.alloc(stride * bitmap.height);
  for (let y = 0; y < bitmap.height; y += 1) {
    const from = y * bitmap.bytesPerRow;
    for (let x = 0; x < bitmap.bytesPerRow; x += 1) rows[y * stride + 1 + x] = ~bitmap.data[from + x] & 0xff;
  }
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: PNG_DEFLATE_LEVEL })), chunk('IEND', new Uint8Array(0))]);
}

/** The first page as a PNG (a preview asks for one page through pageRange); `copies` does not change the picture. */
export function monoPngEncoder(_copies: number): PageEncoder {
  let png: Uint8Array | null = null;
  return {
    addPage: (page) => {
      png ??= monoPng(page);
    },
    finish: () => png ?? new Uint8Array(0),
  };
}
