// One page of PWG Raster / URF compressed lines → grey pixels (or skipped), by the fastest path its pixels allow.
import { decodeGreyRows, decodeLines, type RasterCursor } from './raster-lines';
import { lineToGrey, pixelGreyOf, type RasterPixels } from './raster-grey';

/** How one page's lines are laid out and compressed. */
export interface RasterPage {
  format: string;
  px: RasterPixels;
  bytesPerLine: number;
  bytesPerPixel: number;
  height: number;
  /** The byte a 0x80 code fills the rest of a line with. */
  blank: number;
}

/**
 * Decodes a page's lines into `pixels` (`px.width` grey bytes a row), or only skips them when `pixels` is null.
 * Throws DeviceError RENDER_FAILED for a stream that is not what its header says.
 */
export function decodePage(cursor: RasterCursor, page: RasterPage, pixels: Uint8Array | null): void {
  const { format, px, bytesPerLine, bytesPerPixel, height, blank } = page;
  const grey = pixelGreyOf(px);
  if (pixels && grey) {
    decodeGreyRows(format, cursor, px.width, bytesPerPixel, height, grey(new Uint8Array(bytesPerPixel).fill(blank), 0), grey, pixels);
    return;
  }
  let row = 0;
  decodeLines(format, cursor, bytesPerLine, bytesPerPixel, height, blank, (line, count) => {
    if (pixels) {
      lineToGrey(line, px, pixels, row * px.width);
      for (let r = 1; r < count; r += 1) pixels.copyWithin((row + r) * px.width, row * px.width, (row + 1) * px.width);
    }
    row += count;
  });
}
