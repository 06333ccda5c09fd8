// Pages → one ESC/POS receipt: ESC @, each page as GS v 0 raster bands, then a partial cut after a short feed.
import type { MonoBitmap } from '../../encoders/mono-bitmap';
import type { PageEncoder } from '../../encoders/page-encoder';

/**
 * Rows per GS v 0 band. 255 keeps yH = 0 (some clones read only yL) and a 576-dot band at 18 KB, far below the
 * 2303-row limit of Epson's TM series, while few enough bands that printers do not pause (and streak) between them.
 */
export const ESCPOS_BAND_ROWS = 255;
/** GS V 66 n: feed to the cutter plus n motion units (16 ≈ 2 mm), then cut leaving one point uncut. */
const ESCPOS_CUT_FEED = 16;

const ESC_INIT = Uint8Array.of(0x1b, 0x40);
const PARTIAL_CUT_WITH_FEED = Uint8Array.of(0x1d, 0x56, 0x42, ESCPOS_CUT_FEED);

/** `GS v 0 m=0 xL xH yL yH` then `rows` rows of `page`'s dots from `row` on, copied. */
function band(page: MonoBitmap, row: number, rows: number): Uint8Array {
  const bpr = page.bytesPerRow;
  const out = new Uint8Array(8 + bpr * rows);
  out.set([0x1d, 0x76, 0x30, 0x00, bpr & 0xff, bpr >> 8, rows & 0xff, rows >> 8]);
  out.set(page.data.subarray(row * bpr, (row + rows) * bpr), 8);
  return out;
}

function concat(parts: Uint8Array[], times: number, prefix: Uint8Array): Uint8Array {
  const once = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(prefix.length + once * times);
  out.set(prefix);
  let at = prefix.length;
  for (let i = 0; i < times; i += 1) {
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
  }
  return out;
}

/** All pages one after another as one receipt, then the cut; `copies` prints the whole receipt that many times. */
export function escposRasterEncoder(copies: number): PageEncoder {
  const receipt: Uint8Array[] = [];
  return {
    addPage(page) {
      for (let row = 0; row < page.height; row += ESCPOS_BAND_ROWS) receipt.push(band(page, row, Math.min(ESCPOS_BAND_ROWS, page.height - row)));
    },
    finish: () => concat([...receipt, PARTIAL_CUT_WITH_FEED], copies, ESC_INIT),
  };
}
