// Strict base64 decoding straight from bytes (standard and URL-safe alphabets, whitespace skipped): no string is made.

const VALUE = new Int16Array(256).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => (VALUE[c.charCodeAt(0)] = i));
VALUE[0x2d] = 62;
VALUE[0x5f] = 63;
const SPACE = -2;
const PAD = -3;
for (const c of [0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]) VALUE[c] = SPACE;
VALUE[0x3d] = PAD;

/** Decodes base64 text held as bytes; null when it holds anything but base64, whitespace and up to two final `=`. */
export function decodeBase64Bytes(text: Uint8Array): Buffer | null {
  const out = Buffer.allocUnsafe(Math.floor((text.length * 3) / 4) + 3);
  let bits = 0;
  let count = 0;
  let written = 0;
  let padding = 0;
  for (let i = 0; i < text.length; i += 1) {
    const v = VALUE[text[i]];
    if (v === SPACE) continue;
    if (v === PAD) {
      padding += 1;
      continue;
    }
    if (v < 0 || padding > 0) return null;
    bits = (bits << 6) | v;
    count += 1;
    if (count === 4) {
      out[written] = bits >> 16;
      out[written + 1] = (bits >> 8) & 0xff;
      out[written + 2] = bits & 0xff;
      written += 3;
      bits = 0;
      count = 0;
    }
  }
  if (padding > 2 || count === 1 || (count === 0 && written === 0)) return null;
  if (count === 2) out[written++] = bits >> 4;
  if (count === 3) {
    out[written] = bits >> 10;
    out[written + 1] = (bits >> 2) & 0xff;
    written += 2;
  }
  return out.subarray(0, written);
}
