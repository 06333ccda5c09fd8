// ZPL ^GFA graphic field in Z64 form: zlib deflate, base64, and the ZPL CRC-16 over the base64 text.
import { deflateSync } from 'node:zlib';
import type { MonoBitmap } from '../../encoders/mono-bitmap';

/** CRC-16/XMODEM table (polynomial 0x1021), as the ZPL manual's ZB64 CRC uses. */
const CRC_TABLE = buildCrcTable();

function buildCrcTable(): Uint16Array {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i += 1) {
    let crc = i << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
}

/** CRC-16/XMODEM (poly 0x1021, init 0, no reflection) of the char codes (0..255) of `text`; 0..0xffff. */
export function zplCrc16(text: string): number {
  let crc = 0;
  for (let i = 0; i < text.length; i += 1) crc = (CRC_TABLE[((crc >>> 8) ^ text.charCodeAt(i)) & 0xff] ^ (crc << 8)) & 0xffff;
  return crc;
}

/** Four lower-case hex digits of a 16-bit CRC, as ZPL expects after the data. */
export function crcHex(crc: number): string {
  return (crc | 0x10000).toString(16).slice(1);
}

/** Z64 data field of `data`: `:Z64:<base64 of zlib deflate>:<crc4hex>`; `level` is the zlib level 0..9. */
export function encodeZ64(data: Uint8Array, level = 6): string {
  const b64 = deflateSync(data, { level }).toString('base64');
  return `:Z64:${b64}:${crcHex(zplCrc16(b64))}`;
}

/** `^GFA,total,total,bytesPerRow,:Z64:…:crc` for a 1-bit bitmap (total = bytesPerRow × height bytes). */
export function graphicFieldZ64(bitmap: MonoBitmap, level = 6): string {
  const total = bitmap.bytesPerRow * bitmap.height;
  return `^GFA,${total},${total},${bitmap.bytesPerRow},${encodeZ64(bitmap.data.subarray(0, total), level)}`;
}
