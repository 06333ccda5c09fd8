// Pages → LabelWriter raster (450 / 450 Turbo / 4XL protocol): a reset, then per label its setup, its dot lines and a feed.
import type { MonoBitmap } from '../../encoders/mono-bitmap';
import { labelSequenceEncoder } from '../../encoders/label-sequence';
import type { PageEncoderFactory } from '../../encoders/page-encoder';
import { bytesPerLine, dotTab, DYMO_DPI, FORM_FEED, GRAPHICS_MODE, labelLength, MAX_BYTES_PER_LINE, NORMAL_DENSITY, RESET, SHORT_FORM_FEED, skipLines, TEXT_MODE } from './dymo-commands';
import { isBlank, rasterLine } from './dymo-raster-line';

/** How labels are written. */
export interface DymoEncoderOptions {
  /** 300: text mode (300 x 300 dpi); 600: graphics mode, pages rendered at 600 dpi sent as 300 x 600 dpi. */
  dpi: 300 | 600;
  /**
   * ETB run-length lines where shorter. Off by default: the 400/450 manuals' own ETB example and their run-length rule
   * disagree by one dot, and the 550 series does not take ETB; enable only for a printer it was checked on.
   */
  compress: boolean;
}

/** Text mode at 300 dpi, plain SYN lines. */
export const DYMO_DEFAULTS: Readonly<DymoEncoderOptions> = { dpi: DYMO_DPI, compress: false };

/** The most dot lines one ESC f skips. */
const MAX_SKIP = 255;

/** Row `y` of `page`, clipped to `width` bytes (the widest head takes 156). */
function row(page: MonoBitmap, y: number, width: number): Uint8Array {
  const start = y * page.bytesPerRow;
  return page.data.subarray(start, start + width);
}

/** Row `y` of a 600 dpi page at 300 dpi across: each pair of dots becomes one, black when either is. */
export function halvedRow(page: MonoBitmap, y: number, width: number): Uint8Array {
  const out = new Uint8Array(width);
  const source = row(page, y, page.bytesPerRow);
  for (let x = 0; x < width * 8 && 2 * x < page.width; x += 1) {
    const black = dotOf(source, 2 * x) | dotOf(source, 2 * x + 1);
    if (black) out[x >> 3] |= 0x80 >> (x & 7);
  }
  return out;
}

function dotOf(line: Uint8Array, x: number): number {
  return x >> 3 < line.length ? (line[x >> 3] >> (7 - (x & 7))) & 1 : 0;
}

/** ESC f commands for `count` blank lines. */
function skips(count: number): Buffer[] {
  const out: Buffer[] = [];
  for (let left = count; left > 0; left -= MAX_SKIP) out.push(skipLines(Math.min(left, MAX_SKIP)));
  return out;
}

/** Bytes per line of `page` at `o.dpi`, at most the widest head's 156. */
export function lineBytes(page: MonoBitmap, o: DymoEncoderOptions): number {
  const dots = o.dpi === 600 ? Math.ceil(page.width / 2) : page.width;
  return Math.min(Math.ceil(dots / 8), MAX_BYTES_PER_LINE);
}

/** Setup, then every dot line of `page` (runs of blank lines skipped with ESC f), without the closing feed. */
export function dymoLabelBody(page: MonoBitmap, o: DymoEncoderOptions = DYMO_DEFAULTS): Buffer {
  const width = lineBytes(page, o);
  const parts: Buffer[] = [dotTab(0), bytesPerLine(width), labelLength(page.height), o.dpi === 600 ? GRAPHICS_MODE : TEXT_MODE, NORMAL_DENSITY];
  let blank = 0;
  for (let y = 0; y < page.height; y += 1) {
    const line = o.dpi === 600 ? halvedRow(page, y, width) : row(page, y, width);
    if (isBlank(line)) {
      blank += 1;
      continue;
    }
    parts.push(...skips(blank), rasterLine(line, o.compress));
    blank = 0;
  }
  parts.push(...skips(blank));
  return Buffer.concat(parts);
}

/** An encoder factory with `options` over DYMO_DEFAULTS: ESC @, each page `copies` times, ESC G between labels, ESC E last. */
export function dymoEncoderWith(options: Partial<DymoEncoderOptions> = {}): PageEncoderFactory {
  const settings = { ...DYMO_DEFAULTS, ...options };
  return labelSequenceEncoder(
    (page, copies) => Array<Buffer>(copies).fill(dymoLabelBody(page, settings)),
    (labels) => [RESET, ...labels.flatMap((body, n) => [body, n === labels.length - 1 ? FORM_FEED : SHORT_FORM_FEED])],
  );
}

/** The 450 family's encoder for a printer of `dpi`: 600 → graphics mode (300 x 600), anything else → text mode at 300 dpi. */
export function dymo450EncoderFor(dpi: number): PageEncoderFactory {
  return dymoEncoderWith({ dpi: dpi === 600 ? 600 : 300 });
}
