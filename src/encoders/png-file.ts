// The PNG container: signature, IHDR, one IDAT of filtered rows, IEND; shared by the preview and the printer icon.
import { deflateSync } from 'node:zlib';
import { crc32 } from '../util/crc32';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
  return out;
}

/** A grey PNG of `width` x `height` at `bitDepth` from `rows` (each row behind its filter byte), deflated at `level`. */
export function greyPng(width: number, height: number, bitDepth: 1 | 8, rows: Uint8Array, level = 6): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([bitDepth, 0, 0, 0, 0], 8); // grey, deflate, adaptive filters, no interlace
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level })), chunk('IEND', new Uint8Array(0))]);
}
