// PWG Raster (PWG 5102.4: "RaS2", 1796-byte page headers, compressed lines) → grey pages, one page in memory at a time.
import { checkImageSize, freshPixels, type GreyImage, type PixelScratch } from './grey-image';
import { rasterFail, type RasterCursor } from './raster-lines';
import type { RasterColour, RasterPixels } from './raster-grey';
import { decodePage } from './raster-page';

const SYNC = 'RaS2';
const HEADER_BYTES = 1796;
/** Byte offsets in the page header (cups_page_header2_t, big-endian unsigned integers). */
const AT = { hwResolution: 276, width: 372, height: 376, bitsPerColor: 384, bitsPerPixel: 388, bytesPerLine: 392, colorOrder: 396, colorSpace: 400, numColors: 420 } as const;
/** PWG colour spaces (cups_cspace_t values) by how their pixels become grey. */
const COLOUR_SPACES: Record<number, { colour: RasterColour; colors: number }> = {
  0: { colour: 'white', colors: 1 }, // W (device grey)
  1: { colour: 'rgb', colors: 3 }, // RGB
  3: { colour: 'black', colors: 1 }, // K
  6: { colour: 'cmyk', colors: 4 }, // CMYK
  18: { colour: 'white', colors: 1 }, // sGray
  19: { colour: 'rgb', colors: 3 }, // sRGB
  20: { colour: 'rgb', colors: 3 }, // AdobeRGB
};

/** True when the bytes start like a PWG Raster stream. */
export function isPwgRaster(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) === SYNC;
}

/**
 * Yields each page of a PWG Raster stream in order: its grey picture (with its resolution) when `wanted(index)`,
 * else null after skipping its data. Pixels go into `scratch(size)` when given (each page's then valid until the next
 * is asked for), else into a new buffer per page. Throws DeviceError RENDER_FAILED ("PWG raster could not be decoded: …").
 */
export function* decodePwgPages(bytes: Uint8Array, wanted: (index: number) => boolean, scratch?: PixelScratch): Generator<GreyImage | null> {
  if (!isPwgRaster(bytes)) rasterFail('PWG raster', 'it does not start with RaS2');
  const cursor: RasterCursor = { bytes, pos: 4 };
  for (let index = 0; cursor.pos < bytes.length; index += 1) {
    if (cursor.pos + HEADER_BYTES > bytes.length) rasterFail('PWG raster', `page ${index + 1} header is cut short`);
    const header = new DataView(bytes.buffer, bytes.byteOffset + cursor.pos, HEADER_BYTES);
    cursor.pos += HEADER_BYTES;
    yield readPage(cursor, header, wanted(index) ? (scratch ?? freshPixels) : null);
  }
}

function readPage(cursor: RasterCursor, header: DataView, keep: PixelScratch | null): GreyImage | null {
  const u32 = (offset: number) => header.getUint32(offset, false);
  const width = u32(AT.width);
  const height = u32(AT.height);
  const px = pixelsOf(u32(AT.colorSpace), u32(AT.bitsPerColor), u32(AT.bitsPerPixel), u32(AT.numColors), width);
  const bytesPerLine = u32(AT.bytesPerLine);
  if (u32(AT.colorOrder) !== 0) rasterFail('PWG raster', 'only chunky pixels (ColorOrder 0) are allowed');
  if (bytesPerLine !== Math.ceil((width * u32(AT.bitsPerPixel)) / 8)) rasterFail('PWG raster', `BytesPerLine ${bytesPerLine} does not fit Width ${width}`);
  checkImageSize('PWG raster', width, height);
  const bytesPerPixel = Math.max(1, u32(AT.bitsPerPixel) >> 3);
  const blank = px.colour === 'black' || px.colour === 'cmyk' ? 0x00 : 0xff;
  const pixels = keep ? keep(width * height) : null;
  decodePage(cursor, { format: 'PWG raster', px, bytesPerLine, bytesPerPixel, height, blank }, pixels);
  if (!pixels) return null;
  const x = u32(AT.hwResolution);
  const y = u32(AT.hwResolution + 4);
  return { width, height, pixels, dpi: x > 0 && y > 0 ? { x, y } : null };
}

function pixelsOf(colorSpace: number, bitsPerColor: number, bitsPerPixel: number, numColors: number, width: number): RasterPixels {
  const space = COLOUR_SPACES[colorSpace];
  if (!space) rasterFail('PWG raster', `colour space ${colorSpace} is not supported`);
  if (bitsPerColor !== 1 && bitsPerColor !== 8 && bitsPerColor !== 16) rasterFail('PWG raster', `BitsPerColor ${bitsPerColor} is not 1, 8 or 16`);
  if (bitsPerColor === 1 && space.colors !== 1) rasterFail('PWG raster', '1-bit pixels must be grey or black');
  if (bitsPerPixel !== bitsPerColor * space.colors || (numColors !== 0 && numColors !== space.colors)) rasterFail('PWG raster', `BitsPerPixel ${bitsPerPixel} does not fit the colour space`);
  return { colour: space.colour, bitsPerColor, colors: space.colors, width };
}
