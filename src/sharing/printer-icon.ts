// The icon of shared printers (printer-icons): a 128x128 PNG of a label on its roll, drawn and encoded here, no asset file.
import { crc32, deflateSync } from 'node:zlib';

const SIZE = 128;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

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
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // grey
  const rows = Buffer.alloc(SIZE * (SIZE + 1));
  for (let y = 0; y < SIZE; y += 1) for (let x = 0; x < SIZE; x += 1) rows[y * (SIZE + 1) + 1 + x] = pixel(x, y);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
