// PNG → grey picture with node:zlib: colour types 0, 2, 3, 4, 6, bit depths 1–16, palette, tRNS and alpha over white, Adam7, pHYs.
import { inflateSync } from 'node:zlib';
import { DeviceError } from '../errors';
import { checkImageSize, luma, overWhite, type GreyImage } from './grey-image';
import { readPngChunks, type PngChunks } from './png-chunks';
import { CHANNELS, filteredSize, passesOf, unfilter, type PngPass } from './png-unfilter';

/** Stated resolutions outside this range (dpi) are ignored as nonsense: the picture is then one pixel per dot. */
const DPI_RANGE = { min: 50, max: 2400 };
const INCH_PER_METRE = 0.0254;
/** zlib's smallest output chunk, bytes. */
const MIN_CHUNK = 64;

/** Reads pixel `x` of a row starting at `o` in `rows` as grey over white (0..255). */
type GreyReader = (rows: Uint8Array, o: number, x: number) => number;

function fail(reason: string): never {
  throw new DeviceError('RENDER_FAILED', `PNG could not be decoded: ${reason}`);
}

/** Decodes a PNG file to grey; throws DeviceError RENDER_FAILED ("PNG could not be decoded: …", or a size limit). */
export function decodePng(bytes: Uint8Array): GreyImage {
  const png = readPngChunks(bytes);
  const { width, height } = png.header;
  checkImageSize('PNG', width, height);
  const passes = passesOf(png.header);
  const expected = filteredSize(passes);
  let data: Uint8Array;
  try {
    // one output chunk of the expected size: the default 16 KiB chunks are joined at the end, a second copy of the image
    data = inflateSync(png.data, { maxOutputLength: expected, chunkSize: Math.max(MIN_CHUNK, expected) });
  } catch (err) {
    const code = (err as { code?: string }).code;
    fail(code === 'ERR_BUFFER_TOO_LARGE' ? `image data is longer than ${width}x${height} pixels need` : `image data could not be inflated (${(err as Error).message})`);
  }
  if (data.length < expected) fail(`image data is truncated (${data.length} of ${expected} bytes)`);
  unfilter(data, passes, png.header);
  return { width, height, pixels: greyPixels(png, passes), dpi: statedDpi(png) };
}

/** The unfiltered passes as one grey pixel per byte; 8-bit grey without a transparent key is taken as it is. */
function greyPixels(png: PngChunks, passes: PngPass[]): Uint8Array {
  const { width, height, colorType, bitDepth } = png.header;
  if (passes.length === 1 && colorType === 0 && bitDepth === 8 && !png.transparency) return passes[0].rows;
  const pixels = new Uint8Array(width * height);
  const grey = greyReader(png);
  for (const pass of passes) {
    for (let y = 0; y < pass.height; y += 1) {
      const out = (pass.y0 + y * pass.dy) * width + pass.x0;
      const o = y * pass.rowBytes;
      for (let x = 0; x < pass.width; x += 1) pixels[out + x * pass.dx] = grey(pass.rows, o, x);
    }
  }
  return pixels;
}

function statedDpi(png: PngChunks): GreyImage['dpi'] {
  if (!png.pixelsPerMetre) return null;
  const x = png.pixelsPerMetre.x * INCH_PER_METRE;
  const y = png.pixelsPerMetre.y * INCH_PER_METRE;
  const ok = (v: number) => v >= DPI_RANGE.min && v <= DPI_RANGE.max;
  return ok(x) && ok(y) ? { x, y } : null;
}

/** Sample `i` of a row (0-based across channels) at the file's bit depth, as stored (1..16 bits). */
function sampleReader(depth: number): (rows: Uint8Array, o: number, i: number) => number {
  if (depth === 8) return (r, o, i) => r[o + i];
  if (depth === 16) return (r, o, i) => (r[o + 2 * i] << 8) | r[o + 2 * i + 1];
  const mask = (1 << depth) - 1;
  return (r, o, i) => (r[o + ((i * depth) >> 3)] >> (8 - depth - ((i * depth) & 7))) & mask;
}

/** A stored sample scaled to 0..255. */
function to8(depth: number): (v: number) => number {
  if (depth === 8) return (v) => v;
  if (depth === 16) return (v) => v >> 8;
  const max = (1 << depth) - 1;
  return (v) => Math.round((v * 255) / max);
}

function greyReader(png: PngChunks): GreyReader {
  const { colorType, bitDepth } = png.header;
  const s = sampleReader(bitDepth);
  const e = to8(bitDepth);
  const t = png.transparency;
  const key = (i: number) => (t && t.length >= 2 * i + 2 ? (t[2 * i] << 8) | t[2 * i + 1] : -1);
  const n = CHANNELS[colorType];
  switch (colorType) {
    case 0: {
      const k = key(0);
      return (r, o, x) => {
        const v = s(r, o, x);
        return v === k ? 255 : e(v);
      };
    }
    case 2: {
      const [kr, kg, kb] = [key(0), key(1), key(2)];
      return (r, o, x) => {
        const [vr, vg, vb] = [s(r, o, 3 * x), s(r, o, 3 * x + 1), s(r, o, 3 * x + 2)];
        return vr === kr && vg === kg && vb === kb ? 255 : luma(e(vr), e(vg), e(vb));
      };
    }
    case 3:
      return paletteReader(png, s);
    case 4:
      return (r, o, x) => overWhite(e(s(r, o, n * x)), e(s(r, o, n * x + 1)));
    case 6:
      return (r, o, x) => overWhite(luma(e(s(r, o, n * x)), e(s(r, o, n * x + 1)), e(s(r, o, n * x + 2))), e(s(r, o, n * x + 3)));
    default:
      return fail(`colour type ${colorType} is not supported`);
  }
}

/** Palette entries as grey over white (tRNS alphas applied); an index beyond the palette fails the decode. */
function paletteReader(png: PngChunks, s: ReturnType<typeof sampleReader>): GreyReader {
  const pal = png.palette!;
  const count = Math.floor(pal.length / 3);
  const greys = new Uint8Array(count);
  for (let i = 0; i < count; i += 1) greys[i] = overWhite(luma(pal[3 * i], pal[3 * i + 1], pal[3 * i + 2]), png.transparency?.[i] ?? 255);
  return (r, o, x) => {
    const index = s(r, o, x);
    if (index >= count) fail(`palette index ${index} is beyond the ${count}-colour palette`);
    return greys[index];
  };
}
