// Options of one PDF → ZPL render, their defaults and limits, and the checked form the renderer reads.
import { DeviceError } from '../errors';
import { parsePageRanges, type PrintOptions } from '../schemas/print-options';
import type { Orientation } from './label-geometry';
import { parseMediaSize, type MediaSizePt } from './media-size';

/** What a caller may ask of one render; print options (seed 2.5) plus dpi, dithering and a page limit. */
export interface LabelRenderOptions {
  /** Printer resolution in dots per inch, 100..600; default 203. */
  dpi?: number;
  /** Media name forcing the label size (see parseMediaSize); unknown names are ignored. */
  paperSize?: PrintOptions['paperSize'];
  /** Pages to print, e.g. `1-3,5` (1-based, in the order given); default all. */
  pageRange?: PrintOptions['pageRange'];
  orientation?: Orientation;
  /** Scale each page to fit the label, centred; default false (1:1 from the top-left corner). */
  fitToPage?: PrintOptions['fitToPage'];
  /** ^PQ count per label, 1..9999; default 1. */
  copies?: PrintOptions['copies'];
  /** Error-diffusion dithering for photographic content instead of the black threshold; default false. */
  dither?: boolean;
  /** Most pages one job may render; default 1000. */
  maxPages?: number;
}

/** Options after defaults and checks; what the worker renders with. */
export interface ResolvedRenderOptions {
  dpi: number;
  forcedSize: MediaSizePt | null;
  ranges: Array<[number, number]> | null;
  orientation: Orientation | undefined;
  fitToPage: boolean;
  copies: number;
  dither: boolean;
  maxPages: number;
}

/** Default page limit per job. */
export const DEFAULT_MAX_PAGES = 1000;

function checkInt(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new DeviceError('RENDER_FAILED', `${name} must be an integer from ${min} to ${max}, got ${value}`);
  return value;
}

/** Applies defaults and limits; throws DeviceError RENDER_FAILED naming the bad option. */
export function resolveRenderOptions(opts: LabelRenderOptions): ResolvedRenderOptions {
  const ranges = opts.pageRange ? parsePageRanges(opts.pageRange) : null;
  if (ranges && (ranges.length === 0 || ranges.some(([a, b]) => !(a >= 1 && b >= a)))) throw new DeviceError('RENDER_FAILED', `pageRange "${opts.pageRange}" is not valid`);
  return {
    dpi: checkInt('dpi', opts.dpi ?? 203, 100, 600),
    forcedSize: opts.paperSize ? parseMediaSize(opts.paperSize) : null,
    ranges,
    orientation: opts.orientation,
    fitToPage: opts.fitToPage ?? false,
    copies: checkInt('copies', opts.copies ?? 1, 1, 9999),
    dither: opts.dither ?? false,
    maxPages: checkInt('maxPages', opts.maxPages ?? DEFAULT_MAX_PAGES, 1, 100000),
  };
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
