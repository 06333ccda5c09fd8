// Apple URF ("UNIRAST": 12-byte file header, 32-byte page headers, the PWG line compression) → grey pages, one at a time.
import { checkImageSize, freshPixels, type GreyImage, type PixelScratch } from './grey-image';
import { rasterFail, type RasterCursor } from './raster-lines';
import type { RasterColour } from './raster-grey';
import { decodePage } from './raster-page';

const MAGIC = 'UNIRAST\0';
const FILE_HEADER_BYTES = 12;
const PAGE_HEADER_BYTES = 32;
/** URF colour space codes (page header byte 1), in CUPS's order: sGray, sRGB, CIELab, AdobeRGB, W, RGB, CMYK. */
const COLOUR_SPACES: ReadonlyArray<{ colour: RasterColour; colors: number } | null> = [
  { colour: 'white', colors: 1 },
  { colour: 'rgb', colors: 3 },
  null,
  { colour: 'rgb', colors: 3 },
  { colour: 'white', colors: 1 },
  { colour: 'rgb', colors: 3 },
  { colour: 'cmyk', colors: 4 },
];

/** True when the bytes start like a URF stream. */
export function isUrf(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && String.fromCharCode(...bytes.subarray(0, 8)) === MAGIC;
}

/**
 * Yields each page of a URF stream in order: its grey picture (with its resolution) when `wanted(index)`, else null
 * after skipping its data. Pixels go into `scratch(size)` when given (each page's then valid until the next is asked
 * for), else into a new buffer per page. Throws DeviceError RENDER_FAILED ("URF could not be decoded: …").
 */
export function* decodeUrfPages(bytes: Uint8Array, wanted: (index: number) => boolean, scratch?: PixelScratch): Generator<GreyImage | null> {
  if (!isUrf(bytes) || bytes.length < FILE_HEADER_BYTES) rasterFail('URF', 'it does not start with UNIRAST');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pages = view.getUint32(8, false);
  const cursor: RasterCursor = { bytes, pos: FILE_HEADER_BYTES };
  // the page count may be 0 (unknown, streamed): then pages run to the end of the data
  for (let index = 0; pages === 0 ? cursor.pos < bytes.length : index < pages; index += 1) {
    if (cursor.pos + PAGE_HEADER_BYTES > bytes.length) rasterFail('URF', `page ${index + 1} header is cut short`);
    const at = cursor.pos;
    cursor.pos += PAGE_HEADER_BYTES;
    yield readPage(cursor, view, at, wanted(index) ? (scratch ?? freshPixels) : null);
  }
}

function readPage(cursor: RasterCursor, view: DataView, at: number, keep: PixelScratch | null): GreyImage | null {
  const bitsPerPixel = view.getUint8(at);
  const space = COLOUR_SPACES[view.getUint8(at + 1)];
  const width = view.getUint32(at + 12, false);
  const height = view.getUint32(at + 16, false);
  const dpi = view.getUint32(at + 20, false);
  if (!space) rasterFail('URF', `colour space ${view.getUint8(at + 1)} is not supported`);
  const bitsPerColor = bitsPerPixel / space.colors;
  if (bitsPerColor !== 8 && bitsPerColor !== 16) rasterFail('URF', `${bitsPerPixel} bits per pixel do not fit the colour space`);
  checkImageSize('URF', width, height);
  const bytesPerPixel = bitsPerPixel >> 3;
  const px = { colour: space.colour, bitsPerColor, colors: space.colors, width };
  const pixels = keep ? keep(width * height) : null;
  decodePage(cursor, { format: 'URF', px, bytesPerLine: width * bytesPerPixel, bytesPerPixel, height, blank: space.colour === 'cmyk' ? 0x00 : 0xff }, pixels);
  return pixels ? { width, height, pixels, dpi: dpi > 0 ? { x: dpi, y: dpi } : null } : null;
}
