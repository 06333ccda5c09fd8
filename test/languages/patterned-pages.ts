// Test pages of odd sizes whose bytes run through every value (line feeds, commas and command letters among them).
import type { MonoBitmap } from '../../src/encoders/mono-bitmap';

/** Sizes, in dots, that cover padding bits, one-dot pages and the full 4 in width at 203 dpi. */
export const ODD_PAGE_SIZES: ReadonlyArray<readonly [number, number]> = [[13, 7], [203, 101], [406, 2], [1, 1], [812, 40]];

/** One page per `[width, height]`, filled with a pattern that differs per page; the bits past the width are clear, as MonoBitmap keeps them. */
export function patternedPages(sizes: ReadonlyArray<readonly [number, number]> = ODD_PAGE_SIZES): MonoBitmap[] {
  return sizes.map(([width, height], n) => {
    const bytesPerRow = (width + 7) >> 3;
    const data = new Uint8Array(bytesPerRow * height);
    for (let i = 0; i < data.length; i += 1) data[i] = (i * 131 + n * 71 + 17) & 0xff;
    if (width & 7) for (let row = 0; row < height; row += 1) data[row * bytesPerRow + bytesPerRow - 1] &= (0xff << (8 - (width & 7))) & 0xff;
    return { width, height, bytesPerRow, data };
  });
}
