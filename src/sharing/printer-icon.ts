// The icon of shared printers (printer-icons): a 128x128 PNG of a label on its roll, drawn and encoded here, no asset file.
import { greyPng } from '../encoders/png-file';

const SIZE = 128;

/** Grey value of the icon at (x, y): a dark roll at the top, a white label with a barcode hanging from it, transparent-looking grey around. */
function pixel(x: number, y: number): number {
  const inRoll = y >= 8 && y < 36 && x >= 16 && x < 112;
  const inLabel = y >= 36 && y < 120 && x >= 28 && x < 100;
  const inBarcode = y >= 56 && y < 96 && x >= 38 && x < 90 && (x * 7) % 5 < 2;
  if (inRoll) return 60;
  if (inBarcode) return 0;
  if (inLabel) return 255;
  return 230;
}

/** The icon as PNG bytes (8-bit grey). */
export function printerIconPng(): Buffer {
  const rows = Buffer.alloc(SIZE * (SIZE + 1));
  for (let y = 0; y < SIZE; y += 1) for (let x = 0; x < SIZE; x += 1) rows[y * (SIZE + 1) + 1 + x] = pixel(x, y);
  return greyPng(SIZE, SIZE, 8, rows);
}
