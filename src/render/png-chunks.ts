// PNG container: signature, chunk framing and CRCs, and the chunks the decoder needs (IHDR, PLTE, tRNS, pHYs, IDAT).
import { crc32 } from '../util/crc32';
import { DeviceError } from '../errors';

/** IHDR fields (PNG spec 11.2.2). */
export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colorType: number;
  /** 0 none, 1 Adam7. */
  interlace: number;
}

/** What the decoder reads from a PNG file. */
export interface PngChunks {
  header: PngHeader;
  /** PLTE: RGB triples. */
  palette: Uint8Array | null;
  /** tRNS: palette alphas, or the transparent grey / RGB sample values (16-bit big-endian). */
  transparency: Uint8Array | null;
  /** pHYs in pixels per metre (unit 1), or null. */
  pixelsPerMetre: { x: number; y: number } | null;
  /** IDAT chunks joined: the zlib stream. */
  data: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bit depths allowed per colour type (PNG spec table 11.1). */
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
function fail(reason: string): never {
  throw new DeviceError('RENDER_FAILED', `PNG could not be decoded: ${reason}`);
}

/** Splits a PNG into its chunks and checks them; throws DeviceError RENDER_FAILED ("PNG could not be decoded: …"). */
export function readPngChunks(bytes: Uint8Array): PngChunks {
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) fail('not a PNG file (signature missing)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Omit<PngChunks, 'header' | 'data'> & { header: PngHeader | null } = { header: null, palette: null, transparency: null, pixelsPerMetre: null };
  const idat: Uint8Array[] = [];
  for (let at = 8; ; ) {
    if (at + 12 > bytes.length) fail('file is truncated (no IEND chunk)');
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (at + 12 + length > bytes.length) fail(`file is truncated inside the ${type} chunk`);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) fail(`${type} chunk is damaged (CRC mismatch)`);
    at += 12 + length;
    if (type === 'IEND') break;
    if (out.header === null && type !== 'IHDR') fail('IHDR is not the first chunk');
    if (type === 'IHDR') out.header = readHeader(body);
    else if (type === 'PLTE') out.palette = body;
    else if (type === 'tRNS') out.transparency = body;
    else if (type === 'pHYs') out.pixelsPerMetre = readPhys(body);
    else if (type === 'IDAT') idat.push(body);
    else if (!(type.charCodeAt(0) & 0x20)) fail(`unsupported critical chunk ${type}`);
  }
  const header = out.header ?? fail('no IHDR chunk');
  if (idat.length === 0) fail('no image data (IDAT)');
  if (header.colorType === 3 && !out.palette) fail('palette image without a PLTE chunk');
  return { ...out, header, data: idat.length === 1 ? idat[0] : Buffer.concat(idat) };
}

function readHeader(body: Uint8Array): PngHeader {
  if (body.length !== 13) fail('IHDR has the wrong length');
  const view = new DataView(body.buffer, body.byteOffset, 13);
  const header = { width: view.getUint32(0), height: view.getUint32(4), bitDepth: body[8], colorType: body[9], interlace: body[12] };
  if (!DEPTHS[header.colorType]?.includes(header.bitDepth)) fail(`colour type ${header.colorType} with bit depth ${header.bitDepth} is not valid`);
  if (body[10] !== 0 || body[11] !== 0) fail('unknown compression or filter method');
  if (header.interlace > 1) fail(`unknown interlace method ${header.interlace}`);
  return header;
}

/** pHYs pixels per metre, or null unless the unit is the metre (0 states only an aspect ratio). */
function readPhys(body: Uint8Array): { x: number; y: number } | null {
  if (body.length !== 9 || body[8] !== 1) return null;
  const view = new DataView(body.buffer, body.byteOffset, 9);
  return { x: view.getUint32(0), y: view.getUint32(4) };
}
