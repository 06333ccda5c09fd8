// A raster command of the label languages whose bit 1 leaves the paper white (TSPL BITMAP, EPL2 GW): head, rows, CRLF.
import type { MonoBitmap } from './mono-bitmap';

/**
 * `head` (ASCII), then every row byte of `page` inverted (MonoBitmap's 1 = black becomes the language's 0 = dot; the
 * padding bits past the width become white), then CRLF.
 */
export function invertedRasterCommand(head: string, page: MonoBitmap): Buffer {
  const start = Buffer.from(head, 'latin1');
  const size = page.bytesPerRow * page.height;
  const out = Buffer.alloc(start.length + size + 2);
  start.copy(out);
  for (let i = 0; i < size; i += 1) out[start.length + i] = ~page.data[i] & 0xff;
  out[out.length - 2] = 0x0d;
  out[out.length - 1] = 0x0a;
  return out;
}
