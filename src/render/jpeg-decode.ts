// JPEG → grey picture with jpeg-js (baseline and progressive; CMYK converted by jpeg-js); no stated resolution is used.
import { decode } from 'jpeg-js';
import { DeviceError } from '../errors';
import { checkImageSize, luma, MAX_IMAGE_PIXELS, type GreyImage } from './grey-image';

/** Memory jpeg-js may take for one picture, in MB (25 MP of coefficients and RGB fit). */
const MAX_DECODER_MB = 256;

/**
 * Decodes a JPEG file to grey; throws DeviceError RENDER_FAILED ("JPEG could not be decoded: …", or a size limit).
 * The JFIF/EXIF resolution is ignored (cameras and editors write a placeholder 72 or 96): one pixel per printer dot.
 * The EXIF orientation tag is ignored too.
 */
export function decodeJpeg(bytes: Uint8Array): GreyImage {
  if (bytes.length < 3 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) throw new DeviceError('RENDER_FAILED', 'JPEG could not be decoded: not a JPEG file (no SOI marker)');
  let rgb: { width: number; height: number; data: Uint8Array };
  try {
    rgb = decode(bytes, { useTArray: true, formatAsRGBA: false, tolerantDecoding: false, maxResolutionInMP: MAX_IMAGE_PIXELS / 1e6, maxMemoryUsageInMB: MAX_DECODER_MB });
  } catch (err) {
    throw new DeviceError('RENDER_FAILED', `JPEG could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
  }
  checkImageSize('JPEG', rgb.width, rgb.height);
  const pixels = new Uint8Array(rgb.width * rgb.height);
  const d = rgb.data;
  for (let i = 0, j = 0; i < pixels.length; i += 1, j += 3) pixels[i] = luma(d[j], d[j + 1], d[j + 2]);
  return { width: rgb.width, height: rgb.height, pixels, dpi: null };
}
