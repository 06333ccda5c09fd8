// Pages → PNG: a 1-bit grey image of exactly the dots a page is printed with (the preview of a label or receipt).
import type { MonoBitmap } from './mono-bitmap';
import type { PageEncoder } from './page-encoder';
import { greyPng } from './png-file';

/** zlib level of preview images: text and barcodes deflate well at 6, and a preview is made once. */
const PNG_DEFLATE_LEVEL = 6;

/** A PNG (grey, bit depth 1, one pixel per dot, `width` x `height` pixels) of `bitmap`; a black dot is a black pixel. */
export function monoPng(bitmap: MonoBitmap): Uint8Array {
  // PNG grey 1-bit is 1 = white, the bitmap's 1 = black: each row inverted, behind filter byte 0 (None)
  const stride = bitmap.bytesPerRow + 1;
  const rows = Buffer.alloc(stride * bitmap.height);
  for (let y = 0; y < bitmap.height; y += 1) {
    const from = y * bitmap.bytesPerRow;
    for (let x = 0; x < bitmap.bytesPerRow; x += 1) rows[y * stride + 1 + x] = ~bitmap.data[from + x] & 0xff;
  }
  return greyPng(bitmap.width, bitmap.height, 1, rows, PNG_DEFLATE_LEVEL);
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
