// Pages → TSPL labels: per page SIZE, GAP, DENSITY, DIRECTION, CLS, one BITMAP (mode 0, overwrite) and PRINT 1,copies.
import { invertedRasterCommand } from '../../encoders/inverted-raster';
import { labelSequenceEncoder } from '../../encoders/label-sequence';
import type { MonoBitmap } from '../../encoders/mono-bitmap';
import type { PageEncoderFactory } from '../../encoders/page-encoder';

/** Media and print settings written before each label; every field has the default of `TSPL_DEFAULTS`. */
export interface TsplEncoderOptions {
  /** Printer resolution in dots per inch; SIZE is the page's dots divided by it. */
  dpi: number;
  /** Gap between labels in mm (GAP m mm,0); 0 is continuous media. */
  gapMm: number;
  /** Print darkness, 0..15 (DENSITY). */
  density: number;
  /** DIRECTION 0 or 1: 1 prints the top of the page first, as most TSPL drivers do. */
  direction: 0 | 1;
}

/** The settings of a 203 dpi printer with die-cut labels 3 mm apart, TSC's factory darkness 8, top of the page first. */
export const TSPL_DEFAULTS: Readonly<TsplEncoderOptions> = { dpi: 203, gapMm: 3, density: 8, direction: 1 };

/** BITMAP mode 0: the bitmap replaces what is under it. */
const BITMAP_OVERWRITE = 0;

const ascii = (text: string) => Buffer.from(text, 'latin1');

/** A length in inches as TSPL reads it: at most 3 decimals, no trailing zeros (`4`, `2.25`, `3.937`). */
export function inchesText(dots: number, dpi: number): string {
  return String(Math.round((dots / dpi) * 1000) / 1000);
}

/** `SIZE`…`CLS` lines for a label as wide and long as `page`, CRLF-ended. */
function header(page: MonoBitmap, o: TsplEncoderOptions): string {
  return [
    `SIZE ${inchesText(page.width, o.dpi)},${inchesText(page.height, o.dpi)}`,
    `GAP ${o.gapMm} mm,0 mm`,
    `DENSITY ${o.density}`,
    `DIRECTION ${o.direction}`,
    'CLS',
    '',
  ].join('\r\n');
}

/**
 * `BITMAP 0,0,<width bytes>,<height dots>,0,<data>` then CRLF. TSPL's bit 0 prints a dot and 1 leaves paper white,
 * the opposite of MonoBitmap, so every byte is inverted (the padding bits past the width become white).
 */
export function bitmapCommand(page: MonoBitmap): Buffer {
  return invertedRasterCommand(`BITMAP 0,0,${page.bytesPerRow},${page.height},${BITMAP_OVERWRITE},`, page);
}

/** One whole label of `page`, printed `copies` times (PRINT 1,copies: one set, that many copies of it). */
export function tsplLabel(page: MonoBitmap, copies: number, options: TsplEncoderOptions = TSPL_DEFAULTS): Buffer {
  return Buffer.concat([ascii(header(page, options)), bitmapCommand(page), ascii(`PRINT 1,${copies}\r\n`)]);
}

/** An encoder factory with `options` (dpi, gap, density, direction) over TSPL_DEFAULTS; one label per page. */
export function tsplEncoderWith(options: Partial<TsplEncoderOptions> = {}): PageEncoderFactory {
  const settings = { ...TSPL_DEFAULTS, ...options };
  return labelSequenceEncoder((page, copies) => [tsplLabel(page, copies, settings)]);
}

/** The encoder-table entry: TSPL labels at 203 dpi with TSPL_DEFAULTS, each page printed `copies` times. */
export const tsplLabelEncoder: PageEncoderFactory = tsplEncoderWith();
