// Raster pixels (1, 8 or 16 bits per colour; grey, black, RGB or CMYK) → 8-bit grey, one line at a time.
import { luma } from './grey-image';
import type { PixelGrey } from './raster-lines';

/** The colour model of raster pixels: how a pixel's bytes become grey. */
export type RasterColour = 'white' | 'black' | 'rgb' | 'cmyk';

/** How one raster line's pixels are laid out. */
export interface RasterPixels {
  colour: RasterColour;
  /** 1, 8 or 16. */
  bitsPerColor: number;
  /** Colours per pixel: 1 (white/black), 3 (rgb), 4 (cmyk). */
  colors: number;
  width: number;
}

/** Writes the grey value (0 black … 255 white) of each of `px.width` pixels of `line` into `out` at `offset`. */
export function lineToGrey(line: Uint8Array, px: RasterPixels, out: Uint8Array, offset: number): void {
  const { width } = px;
  if (px.bitsPerColor === 1) {
    // 1 bit per pixel: a set bit is black for `black` spaces, white for `white` ones
    const setIs = px.colour === 'black' ? 0 : 255;
    for (let x = 0; x < width; x += 1) out[offset + x] = line[x >> 3] & (0x80 >> (x & 7)) ? setIs : 255 - setIs;
    return;
  }
  if (px.bitsPerColor === 8 && px.colour === 'white') {
    out.set(line.subarray(0, width), offset);
    return;
  }
  const step = px.bitsPerColor >> 3; // bytes per colour; the first (most significant) byte of 16-bit colours is used
  const stride = step * px.colors;
  for (let x = 0, p = 0; x < width; x += 1, p += stride) out[offset + x] = greyOf(line, p, step, px.colour);
}

function greyOf(line: Uint8Array, p: number, step: number, colour: RasterColour): number {
  switch (colour) {
    case 'white':
      return line[p];
    case 'black':
      return 255 - line[p];
    case 'rgb':
      return luma(line[p], line[p + step], line[p + 2 * step]);
    case 'cmyk': {
      const grey = luma(255 - line[p], 255 - line[p + step], 255 - line[p + 2 * step]) - line[p + 3 * step];
      return grey < 0 ? 0 : grey;
    }
  }
}

/** How one pixel of 8 bits per colour becomes grey, for decodeGreyRows; null for other depths (decoded line by line). */
export function pixelGreyOf(px: RasterPixels): PixelGrey | null {
  if (px.bitsPerColor !== 8) return null;
  switch (px.colour) {
    case 'white':
      return (src, at) => src[at];
    case 'black':
      return (src, at) => 255 - src[at];
    case 'rgb':
      return (src, at) => luma(src[at], src[at + 1], src[at + 2]);
    case 'cmyk':
      return (src, at) => greyOf(src, at, 1, 'cmyk');
  }
}
