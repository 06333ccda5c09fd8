// A decoded picture as the image rasterisers use it: 8-bit grey, transparency already flattened onto white paper.
import { DeviceError } from '../errors';

/** `width` × `height` pixels, row-major, one byte each: 0 black … 255 white. */
export interface GreyImage {
  width: number;
  height: number;
  pixels: Uint8Array;
  /** Physical resolution the file states, pixels per inch (x, y), or null when it states none usable. */
  dpi: { x: number; y: number } | null;
}

/** Largest picture decoded, in pixels (25 MP: a 4x6 in label at 600 dpi is 8.6 MP), so a small file cannot exhaust memory. */
export const MAX_IMAGE_PIXELS = 25_000_000;

/** Throws DeviceError RENDER_FAILED unless a `format` picture of `width` × `height` pixels is non-empty and within MAX_IMAGE_PIXELS. */
export function checkImageSize(format: string, width: number, height: number): void {
  if (!(width > 0 && height > 0)) throw new DeviceError('RENDER_FAILED', `${format} has no pixels (${width}x${height})`);
  if (width * height > MAX_IMAGE_PIXELS) throw new DeviceError('RENDER_FAILED', `${format} of ${width}x${height} pixels exceeds the limit of ${MAX_IMAGE_PIXELS / 1e6} megapixels`);
}

/** Grey value of an sRGB colour (0..255 each), BT.601 weights in 8-bit fixed point. */
export function luma(r: number, g: number, b: number): number {
  return (77 * r + 150 * g + 29 * b + 128) >> 8;
}

/** Grey `grey` at opacity `alpha` (0..255) over white paper. */
export function overWhite(grey: number, alpha: number): number {
  return ((grey * alpha + 255 * (255 - alpha)) * 257 + 32896) >> 16;
}

/** Where a decoder puts a page's `size` pixels: a buffer of exactly that length, its contents undefined. */
export type PixelScratch = (size: number) => Uint8Array;

/** A new zeroed buffer for every page. */
export const freshPixels: PixelScratch = (size) => new Uint8Array(size);

/** One buffer reused for page after page, grown when a page needs more: each page's pixels valid until the next is asked for. */
export function reusedPixels(): PixelScratch {
  let buffer = new Uint8Array(0);
  return (size) => {
    if (buffer.length < size) buffer = new Uint8Array(size);
    return buffer.subarray(0, size);
  };
}
