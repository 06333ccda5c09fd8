// Filters looked up by (document format, printer language): pass bytes through, or render them in the worker pool.
import { DeviceError } from '../errors';
import type { RasterFormat, RenderJob, RenderOutput } from '../render/render-job';
import type { PrintOptions } from '../schemas/print-options';
import type { DocumentFormat } from './document-format';

/** What a printer consumes: ZPL (label printers), ESC/POS (receipt printers), or documents (IPP). */
export type PrinterLanguage = 'zpl' | 'escpos' | 'document';

/** Renders a document into printer-language bytes (the worker pool). */
export type Render = (job: RenderJob, signal: AbortSignal) => Promise<RenderOutput>;

/** A printer's own render settings: resolution in dpi (undefined: 203), dithering (undefined: off), receipt paper width in mm (undefined: 80). */
export interface RenderSettings {
  dpi?: number;
  dither?: boolean;
  paperWidth?: 58 | 80;
}

/** One document on its way to one printer. */
export interface FilterInput {
  bytes: Uint8Array;
  format: DocumentFormat;
  language: PrinterLanguage;
  printer: RenderSettings;
  title: string;
  userName: string;
  options: PrintOptions;
}

/** A document ready for the wire: `bytes` sent `copies` times in a row (never held that many times), with its MIME type for printers that care (IPP). */
export interface PreparedDocument {
  bytes: Uint8Array;
  /** How many times a byte-stream printer is sent `bytes` (ZPL copies); 1 otherwise. IPP sends copies as an attribute. */
  repeat: number;
  mimeType: string;
  title: string;
  userName: string;
  options: PrintOptions;
}

/** One conversion: from the input to what the printer takes. */
type Filter = (input: FilterInput, render: Render | null, signal: AbortSignal) => Promise<PreparedDocument>;

/** Printable width of receipt paper in mm (80 mm rolls print 72 mm, 58 mm rolls 48 mm). */
const PRINTABLE_MM: Record<58 | 80, number> = { 58: 48, 80: 72 };
const DEFAULT_DPI = 203;

/** The bytes unchanged, sent once, as `mimeType`; options are the printer's business (IPP) or ignored (seed 2.5). */
const passThrough = (mimeType: string, repeatCopies = false): Filter => async (input) => ({
  ...meta(input),
  mimeType,
  bytes: input.bytes,
  // ZPL copies repeat the caller's bytes rather than set ^PQ: ZPL passes unmodified (seed 4.5), and a body may hold
  // several formats, each with its own ^PQ, that an inserted ^PQ would change. Rendered documents get ^PQ instead.
  repeat: repeatCopies ? (input.options.copies ?? 1) : 1,
});

/** Rendered into the printer's language by the worker pool. */
const rendered = (language: 'zpl' | 'escpos', mimeType: string): Filter => async (input, render, signal) => {
  const format = input.format as RasterFormat;
  if (!render) throw new DeviceError('UNSUPPORTED_CONTENT', `rendering ${format} is not available on this device`);
  const out = await render(renderJob(input, format, language), signal);
  return { ...meta(input), mimeType, bytes: out.bytes, repeat: 1 };
};

/** The filter table: `format>language`. A new format or language is one entry here (and a rasteriser or encoder in render/). */
const FILTERS: Record<`${DocumentFormat}>${PrinterLanguage}`, Filter> = {
  'zpl>zpl': passThrough('application/vnd.zebra-zpl', true),
  'raw>zpl': passThrough('application/vnd.zebra-zpl'),
  'pdf>zpl': rendered('zpl', 'application/vnd.zebra-zpl'),
  'png>zpl': rendered('zpl', 'application/vnd.zebra-zpl'),
  'jpeg>zpl': rendered('zpl', 'application/vnd.zebra-zpl'),
  'pwg>zpl': rendered('zpl', 'application/vnd.zebra-zpl'),
  'urf>zpl': rendered('zpl', 'application/vnd.zebra-zpl'),
  'raw>escpos': passThrough('application/octet-stream'),
  'zpl>escpos': passThrough('application/octet-stream'),
  'pdf>escpos': rendered('escpos', 'application/octet-stream'),
  'png>escpos': rendered('escpos', 'application/octet-stream'),
  'jpeg>escpos': rendered('escpos', 'application/octet-stream'),
  'pwg>escpos': rendered('escpos', 'application/octet-stream'),
  'urf>escpos': rendered('escpos', 'application/octet-stream'),
  'pdf>document': passThrough('application/pdf'),
  'png>document': passThrough('image/png'),
  'jpeg>document': passThrough('image/jpeg'),
  'pwg>document': passThrough('image/pwg-raster'),
  'urf>document': passThrough('image/urf'),
  'zpl>document': passThrough('application/octet-stream'),
  'raw>document': passThrough('application/octet-stream'),
};

/**
 * Prepares a document for its printer by the (format, language) table:
 * - label printers (zpl): ZPL passes unmodified, sent `copies` times; PDFs and images render to ^GFA labels with ^PQ; raw passes.
 * - receipt printers (escpos): raw bytes pass untouched (options ignored); PDFs and images render to ESC/POS raster, fed and cut.
 * - document printers (IPP): the bytes go with their MIME type and the options; anything unknown as application/octet-stream.
 */
export function createFilters(render: Render | null): (input: FilterInput, signal: AbortSignal) => Promise<PreparedDocument> {
  return (input, signal) => FILTERS[`${input.format}>${input.language}`](input, render, signal);
}

/** Whether a document in `format` is rendered (costs a worker) on its way to a printer of `language`. */
export function needsRender(format: DocumentFormat, language: PrinterLanguage): boolean {
  return language !== 'document' && format !== 'zpl' && format !== 'raw';
}

function meta(input: FilterInput): Pick<PreparedDocument, 'title' | 'userName' | 'options'> {
  const receiptOrLabel = input.language !== 'document';
  return { title: input.title, userName: input.userName, options: receiptOrLabel && input.format === 'raw' ? {} : input.options };
}

/** The render request of a document for a label or receipt printer: the job's options, the printer's dpi, dithering and paper. */
export function renderJob(input: FilterInput, format: RasterFormat, language: 'zpl' | 'escpos'): RenderJob {
  const { paperSize, pageRange, orientation, fitToPage, copies, dither } = input.options;
  const dpi = input.printer.dpi ?? DEFAULT_DPI;
  const common = { dpi, pageRange, orientation, fitToPage, dither: dither ?? input.printer.dither ?? false };
  if (language === 'zpl') return { format, bytes: input.bytes, raster: { ...common, paperSize }, encode: { language, copies: copies ?? 1 } };
  // printers count whole dots per mm: 203 dpi heads are 8 dots/mm (576 dots on 72 mm), 300 dpi heads 12
  const widthDots = PRINTABLE_MM[input.printer.paperWidth ?? 80] * Math.round(dpi / 25.4);
  return { format, bytes: input.bytes, raster: { ...common, widthDots }, encode: { language, copies: copies ?? 1 } };
}
