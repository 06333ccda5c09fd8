// Options of one render, their defaults and limits, and the checked form the rasterisers read.
import { DeviceError } from '../errors';
import { parsePageRanges } from '../schemas/print-options';
import type { Orientation } from './label-geometry';
import { parseMediaSize, type MediaSizePt } from '../util/media-size';
import type { EncodeSpec, RasterOptions } from './render-job';

/** RasterOptions as the rasterisers take them in process: any of the four IPP orientations (seed 2.5). */
export type RasterRequest = Omit<RasterOptions, 'orientation'> & { orientation?: Orientation };

/** Raster options after defaults and checks; what a rasteriser renders with. */
export interface ResolvedRaster {
  /** Dots per inch, 100..600. */
  dpi: number;
  /** Label size forced by `paperSize` (labels only; ignored on receipts), or null. */
  forcedSize: MediaSizePt | null;
  /** 1-based inclusive page ranges in the order given, or null for all pages. */
  ranges: Array<[number, number]> | null;
  orientation: Orientation | undefined;
  fitToPage: boolean;
  dither: boolean;
  maxPages: number;
  /** Receipt printable width in dots, or null for a label printer. */
  widthDots: number | null;
}

/** Default page limit per job. */
export const DEFAULT_MAX_PAGES = 1000;
/** Widest receipt accepted, in dots (112 mm paper at 600 dpi is 2646). */
const MAX_RECEIPT_WIDTH_DOTS = 4096;
const ORIENTATIONS: readonly Orientation[] = ['portrait', 'landscape', 'reverse-landscape', 'reverse-portrait'];

function checkInt(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new DeviceError('RENDER_FAILED', `${name} must be an integer from ${min} to ${max}, got ${value}`);
  return value;
}

/** Applies defaults and limits to raster options; throws DeviceError RENDER_FAILED naming the bad option. */
export function resolveRaster(opts: RasterRequest): ResolvedRaster {
  const ranges = opts.pageRange ? parsePageRanges(opts.pageRange) : null;
  if (ranges && (ranges.length === 0 || ranges.some(([a, b]) => !(a >= 1 && b >= a)))) throw new DeviceError('RENDER_FAILED', `pageRange "${opts.pageRange}" is not valid`);
  if (opts.orientation !== undefined && !ORIENTATIONS.includes(opts.orientation)) throw new DeviceError('RENDER_FAILED', `orientation "${String(opts.orientation)}" is not one of ${ORIENTATIONS.join(', ')}`);
  return {
    dpi: checkInt('dpi', opts.dpi, 100, 600),
    forcedSize: opts.paperSize ? parseMediaSize(opts.paperSize) : null,
    ranges,
    orientation: opts.orientation,
    fitToPage: opts.fitToPage ?? false,
    dither: opts.dither ?? false,
    maxPages: checkInt('maxPages', opts.maxPages ?? DEFAULT_MAX_PAGES, 1, 100000),
    widthDots: opts.widthDots === undefined ? null : checkInt('widthDots', opts.widthDots, 8, MAX_RECEIPT_WIDTH_DOTS),
  };
}

/** The copy count of an encode spec, checked: 1..9999; throws DeviceError RENDER_FAILED otherwise. */
export function checkCopies(encode: EncodeSpec): number {
  return checkInt('copies', encode.copies, 1, 9999);
}

/** 0-based page indexes to render from a document of `pageCount` pages; throws when none or too many. */
export function selectPages(ranges: Array<[number, number]> | null, pageCount: number, maxPages: number): number[] {
  if (!ranges) {
    if (pageCount > maxPages) throw new DeviceError('RENDER_FAILED', `page count ${pageCount} exceeds limit ${maxPages}`);
    return Array.from({ length: pageCount }, (_, i) => i);
  }
  const pages: number[] = [];
  for (const [a, b] of ranges) {
    for (let p = a; p <= Math.min(b, pageCount); p += 1) {
      if (pages.length >= maxPages) throw new DeviceError('RENDER_FAILED', `page count ${countSelected(ranges, pageCount)} exceeds limit ${maxPages}`);
      pages.push(p - 1);
    }
  }
  if (pages.length === 0) throw new DeviceError('RENDER_FAILED', `pageRange selects no page of a ${pageCount}-page document`);
  return pages;
}

function countSelected(ranges: Array<[number, number]>, pageCount: number): number {
  return ranges.reduce((n, [a, b]) => n + Math.max(0, Math.min(b, pageCount) - a + 1), 0);
}
