// Test helper: bitmaps to feed encoders, with any width (padding bits clear, as rasterisers leave them).
import type { MonoBitmap } from '../../src/encoders/mono-bitmap';

/** A `width` × `height` bitmap whose dots follow `black(x, y)`; bits past `width` in the last byte stay 0. */
export function bitmapOf(width: number, height: number, black: (x: number, y: number) => boolean): MonoBitmap {
  const bytesPerRow = (width + 7) >> 3;
  const data = new Uint8Array(bytesPerRow * height);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) if (black(x, y)) data[y * bytesPerRow + (x >> 3)] |= 0x80 >> (x & 7);
  return { width, height, bytesPerRow, data };
}

/** A pseudo-random bitmap from `seed` (xorshift), about half black. */
export function noiseBitmap(width: number, height: number, seed: number): MonoBitmap {
  let s = seed >>> 0 || 1;
  return bitmapOf(width, height, () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s & 1) === 1;
  });
}
